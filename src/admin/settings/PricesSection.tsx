import { useId } from 'react';
import type { Price } from '../../schemas/site-settings';
import { feeSentence } from '../../lib/prices';
import { fieldId, TextField } from './fields';

/** What a fee can be for and who can charge it: the catalogue's qualifications and categories, the saved RTOs. */
export interface CatalogueChoices {
  courses: { code: string; title: string }[];
  categories: { slug: string; name: string }[];
}

const today = () => new Date().toISOString().slice(0, 10);
export const emptyPrice = (rtoCode = ''): Price => ({
  scope: 'course',
  target: '',
  from: '',
  to: '',
  plan: '',
  rtoCode,
  setOn: today(),
});

/**
 * Indicative fees: per qualification or per category, from (or from-to) in AUD including GST, an optional
 * payment-plan note, the partner RTO that charges it and the day it was set. Qualifications and RTOs are
 * picked from lists, never typed. Each row previews the sentence visitors read.
 */
export function PricesSection({
  prices,
  rtos,
  choices,
  errors,
  onChange,
  onAdd,
  onRemove,
}: {
  prices: Price[];
  rtos: { code: string; legalName: string }[];
  choices: CatalogueChoices | undefined;
  errors: Record<string, string>;
  onChange: (index: number, name: keyof Price, value: string) => void;
  onAdd: () => void;
  onRemove: (index: number) => void;
}) {
  return (
    <>
      <p className="admin-hint">
        The fee visitors see on a course page, in the quote result and in the acknowledgement e-mail. A fee for a
        qualification wins over its category's. Qualifications without one say how the fee is decided; the dashboard
        lists them as advice.
      </p>
      {rtos.length === 0 && (
        <p className="admin-hint" role="note">
          Add the partner RTO that charges the fees first (above), then save.
        </p>
      )}
      {prices.map((price, index) => (
        <PriceFields
          // biome-ignore lint/suspicious/noArrayIndexKey: the fields are controlled and their errors are keyed by position
          key={index}
          index={index}
          price={price}
          rtos={rtos}
          choices={choices}
          errors={errors}
          onChange={(name, value) => onChange(index, name, value)}
          onRemove={() => onRemove(index)}
        />
      ))}
      <div>
        <button type="button" className="admin-btn admin-btn--ghost" onClick={onAdd} disabled={rtos.length === 0}>
          Add a fee
        </button>
      </div>
    </>
  );
}

function PriceFields({
  index,
  price,
  rtos,
  choices,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  price: Price;
  rtos: { code: string; legalName: string }[];
  choices: CatalogueChoices | undefined;
  errors: Record<string, string>;
  onChange: (name: keyof Price, value: string) => void;
  onRemove: () => void;
}) {
  const path = (name: keyof Price) => `prices.${index}.${name}`;
  const targetName =
    price.scope === 'course'
      ? choices?.courses.find((c) => c.code === price.target)?.title
      : choices?.categories.find((c) => c.slug === price.target)?.name;
  const title = targetName ? `Fee for ${targetName}` : `Fee ${index + 1}`;
  const bound = (name: keyof Price) => ({
    path: path(name),
    value: price[name],
    error: errors[path(name)],
    onChange: (value: string) => onChange(name, value),
  });
  const rto = rtos.find((r) => r.code === price.rtoCode);
  const preview = /^\d/.test(price.from) && price.target ? feeSentence({ price, ...(rto ? { rto } : {}) }) : undefined;
  return (
    <fieldset className="settings-subcard" data-testid="fee-row">
      <legend>{title}</legend>
      <Select
        path={path('scope')}
        label="For"
        value={price.scope}
        error={errors[path('scope')]}
        options={[
          { value: 'course', label: 'One qualification' },
          { value: 'category', label: 'Every qualification in a category' },
        ]}
        onChange={(value) => {
          onChange('scope', value);
          onChange('target', '');
        }}
      />
      <Select
        path={path('target')}
        label={price.scope === 'course' ? 'Qualification' : 'Category'}
        value={price.target}
        error={errors[path('target')]}
        placeholder={choices ? 'Choose…' : 'Loading the catalogue…'}
        options={
          price.scope === 'course'
            ? (choices?.courses ?? []).map((c) => ({ value: c.code, label: `${c.code} ${c.title}` }))
            : (choices?.categories ?? []).map((c) => ({ value: c.slug, label: c.name }))
        }
        onChange={(value) => onChange('target', value)}
      />
      <TextField
        label="Fee from (AUD, including GST)"
        inputMode="numeric"
        hint="For example 1500."
        {...bound('from')}
      />
      <TextField
        label="Fee up to (optional)"
        inputMode="numeric"
        hint="Leave empty for a “from” price."
        {...bound('to')}
      />
      <TextField
        label="Payment plan (optional)"
        hint="For example: instalments of $250 a fortnight, as the RTO offers them."
        {...bound('plan')}
      />
      <Select
        path={path('rtoCode')}
        label="Charged by"
        value={price.rtoCode}
        error={errors[path('rtoCode')]}
        placeholder="Choose the partner RTO…"
        options={rtos.map((r) => ({ value: r.code, label: `${r.legalName || 'Unnamed RTO'} (RTO ${r.code})` }))}
        onChange={(value) => onChange('rtoCode', value)}
      />
      <TextField label="Fee set on" type="date" {...bound('setOn')} />
      {preview && (
        <p className="admin-hint" data-testid="fee-preview">
          Visitors read: {preview}
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

function Select({
  path,
  label,
  value,
  options,
  error,
  placeholder,
  onChange,
}: {
  path: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  error?: string;
  placeholder?: string;
  onChange: (value: string) => void;
}) {
  const errorId = useId();
  const known = options.some((option) => option.value === value);
  return (
    <div className="admin-field">
      <label htmlFor={fieldId(path)}>{label}</label>
      <select
        id={fieldId(path)}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {placeholder !== undefined && (
          <option value="" disabled={value !== ''}>
            {placeholder}
          </option>
        )}
        {/* A saved value the lists no longer offer stays visible until it is changed. */}
        {value && !known && <option value={value}>{value} (not in the catalogue)</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={errorId} className="admin-error">
          {error}
        </p>
      )}
    </div>
  );
}
