import type { Field } from './settings-fields';
import { useId, type ReactNode } from 'react';

/** The id of a settings field's input, from its path in the settings (`claims.successRate.source`). */
export const fieldId = (path: string) => `setting-${path.replaceAll('.', '-')}`;

/** A labelled settings input with its hint and error, wired for screen readers. */
export function TextField(props: {
  path: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  error?: string;
  hint?: ReactNode;
  autoComplete?: string;
  inputMode?: 'tel' | 'numeric';
  placeholder?: string;
}) {
  const id = fieldId(props.path);
  const hintId = useId();
  const errorId = useId();
  const describedBy = [props.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="admin-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.path}
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete ?? 'off'}
        inputMode={props.inputMode}
        placeholder={props.placeholder}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && (
        <p id={hintId} className="admin-hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={errorId} className="admin-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** One plain field of a settings group. */
export function Input({
  field,
  value,
  error,
  onChange,
}: {
  field: Field;
  value: string;
  error?: string;
  onChange: (field: Field, value: string) => void;
}) {
  const path = `${field.group}.${field.name}`;
  return (
    <TextField
      path={path}
      label={field.label}
      type={field.type}
      value={value}
      error={error}
      hint={field.hint}
      autoComplete={field.autoComplete}
      inputMode={field.inputMode ?? (field.type === 'tel' ? 'tel' : undefined)}
      onChange={(value) => onChange(field, value)}
    />
  );
}
