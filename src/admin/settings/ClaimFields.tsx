import { PUBLIC_SOURCE_CLAIMS, type ClaimKey, type SiteSettings } from '../../schemas/site-settings';
import { fieldId, TextField } from './fields';
import { claimLabels } from './settings-fields';

/** One claim: whether it is shown, its figure and where it comes from. */
export function ClaimFields({
  claimKey,
  claim,
  errors,
  onChange,
}: {
  claimKey: ClaimKey;
  claim: SiteSettings['claims'][ClaimKey];
  errors: Record<string, string>;
  onChange: (name: 'value' | 'source' | 'publicSource' | 'enabled', value: string | boolean) => void;
}) {
  const { label, value, hint } = claimLabels[claimKey];
  const path = (name: string) => `claims.${claimKey}.${name}`;
  const switchId = fieldId(path('enabled'));
  return (
    <fieldset className="settings-subcard">
      <legend>{label}</legend>
      <div className="admin-check">
        <input
          id={switchId}
          type="checkbox"
          checked={claim.enabled}
          onChange={(event) => onChange('enabled', event.target.checked)}
        />
        <label htmlFor={switchId}>Show on the site</label>
      </div>
      <TextField
        path={path('value')}
        label={value}
        value={claim.value}
        error={errors[path('value')]}
        hint={hint}
        onChange={(next) => onChange('value', next)}
      />
      <TextField
        path={path('source')}
        label="Source note"
        value={claim.source}
        error={errors[path('source')]}
        hint="Where the claim comes from and when it was last checked (staff only, not shown on the site)."
        onChange={(next) => onChange('source', next)}
      />
      {PUBLIC_SOURCE_CLAIMS.includes(claimKey) && (
        <TextField
          path={path('publicSource')}
          label="Source shown to visitors"
          value={claim.publicSource}
          error={errors[path('publicSource')]}
          hint='Shown under the figure, for example "Based on 212 reviews on Google, March 2027".'
          onChange={(next) => onChange('publicSource', next)}
        />
      )}
    </fieldset>
  );
}
