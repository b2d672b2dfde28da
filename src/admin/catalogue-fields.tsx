import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** A labelled input, textarea or select with its hint and error, wired for screen readers. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="admin-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {error && (
        <p className="admin-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A field's label, hint and error with the value it edits. */
interface Bound {
  label: string;
  hint?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
}

/** A text input, or a textarea when `rows` is given. */
export function TextField({
  label,
  hint,
  error,
  value,
  onChange,
  rows,
  ...input
}: Bound & { rows?: number } & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'placeholder' | 'autoComplete'>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(p) =>
        rows ? (
          <textarea {...p} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input {...p} {...input} value={value} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </Field>
  );
}

/** `[value, label]` of a choice. */
export type Choice = readonly [value: string, label: string];

/** A select whose first, empty choice is `empty`. */
export function SelectField({
  label,
  hint,
  error,
  value,
  onChange,
  empty,
  choices,
}: Bound & { empty: string; choices: readonly Choice[] }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{empty}</option>
          {choices.map(([choice, text]) => (
            <option key={choice} value={choice}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
