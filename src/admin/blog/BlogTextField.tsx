import type { ChangeEvent, ReactNode } from 'react';

/** A field's error under it, linked to the field by id. */
export function FieldError({ id, error }: { id: string; error?: string }): ReactNode {
  return error ? (
    <p id={`${id}-error`} className="admin-error">
      {error}
    </p>
  ) : null;
}

/** A text field of the post: its label (* when required), input or textarea, hint and error, linked up. */
export default function BlogTextField({
  id,
  label,
  value,
  error,
  onChange,
  required,
  rows,
  type = 'text',
  hint,
  maxLength,
}: {
  /** The field's id; its hint and error get this id with -hint and -error. */
  id: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  required?: boolean;
  rows?: number;
  type?: string;
  hint?: string;
  maxLength?: number;
}) {
  const control = {
    id,
    value,
    required,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined,
    onChange: (event: ChangeEvent<HTMLInputElement & HTMLTextAreaElement>) => onChange(event.target.value),
  };
  return (
    <div className="admin-field">
      <label htmlFor={id}>
        {required ? `${label} ` : label}
        {required && <span aria-hidden="true">*</span>}
      </label>
      {rows ? <textarea {...control} rows={rows} /> : <input {...control} type={type} />}
      {hint && (
        <p id={`${id}-hint`} className="admin-hint">
          {hint}
        </p>
      )}
      <FieldError id={id} error={error} />
    </div>
  );
}
