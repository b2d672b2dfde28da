import { registerUrlFor } from '../../schemas/site-settings';
import { TextField } from './fields';
import type { CatalogueChoices } from './PricesSection';
import { RtoDelivers } from './RtoDelivers';
import type { RtoDraft } from './settings-form';

/** One partner RTO: its name, code and what it delivers. */
export function RtoFields({
  index,
  rto,
  choices,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  rto: RtoDraft;
  choices: CatalogueChoices | undefined;
  errors: Record<string, string>;
  onChange: <K extends keyof RtoDraft>(name: K, value: RtoDraft[K]) => void;
  onRemove: () => void;
}) {
  const path = (name: string) => `partnerRtos.${index}.${name}`;
  const title = rto.legalName.trim() || `Partner RTO ${index + 1}`;
  const code = rto.code.trim();
  return (
    <fieldset className="settings-subcard" data-testid="rto-row">
      <legend>{title}</legend>
      <TextField
        label="Legal name"
        path={path('legalName')}
        value={rto.legalName}
        error={errors[path('legalName')]}
        onChange={(value) => onChange('legalName', value)}
      />
      <TextField
        label="RTO code"
        inputMode="numeric"
        hint={
          /^\d{4,6}$/.test(code) ? (
            <>
              4 to 6 digits, exactly as on training.gov.au. Pages link to{' '}
              <a href={registerUrlFor(code)} target="_blank" rel="noopener noreferrer">
                {registerUrlFor(code)}
              </a>
              .
            </>
          ) : (
            '4 to 6 digits, exactly as on training.gov.au. Pages link to its register entry.'
          )
        }
        path={path('code')}
        value={rto.code}
        error={errors[path('code')]}
        onChange={(value) => onChange('code', value)}
      />
      <RtoDelivers
        index={index}
        categories={rto.categories}
        courses={rto.courses}
        choices={choices}
        errors={errors}
        onChange={(name, value) => onChange(name, value)}
      />
      {rto.categories.length === 0 && rto.courses.length === 0 && (
        <p className="admin-hint" role="note">
          This RTO delivers nothing yet, so no page names it.
        </p>
      )}
      <div>
        <button type="button" className="admin-btn admin-btn--ghost" onClick={onRemove}>
          Remove {title}
        </button>
      </div>
    </fieldset>
  );
}
