import type { ChangeEvent, ReactNode } from 'react';
import { LIMITS } from '../schemas/inquiry';
import './forms.css';

/**
 * Labelled form controls shared by the contact form and the quote wizard: every control has a visible
 * label; an error is linked with aria-describedby and marks the control aria-invalid.
 */
interface FieldProps {
  id: string;
  name: string;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  /** Show the * after the label (off where a note says every field is required). */
  markRequired?: boolean;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  maxLength?: number;
  multiline?: boolean;
  rows?: number;
  /** Controlled when given; otherwise the browser keeps the value (read with FormData). */
  value?: string;
  onChange?: (value: string) => void;
  inputRef?: (element: HTMLInputElement | HTMLTextAreaElement | null) => void;
}

export function Field({
  id,
  name,
  label,
  error,
  hint,
  required,
  markRequired = true,
  type = 'text',
  autoComplete,
  maxLength,
  multiline,
  rows = 5,
  value,
  onChange,
  inputRef,
}: FieldProps) {
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    required,
    maxLength,
    autoComplete,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    className: 'field__control',
    ...(value !== undefined ? { value } : {}),
    ...(onChange
      ? { onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value) }
      : {}),
  };
  return (
    <div className={`field${multiline ? ' field--wide' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
        {required && markRequired && (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {multiline ? (
        <textarea {...common} rows={rows} ref={inputRef} />
      ) : (
        <input {...common} type={type} ref={inputRef} />
      )}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Name, e-mail and phone: the same four fields (all required) in the contact form and the quote's first step. */
export const PERSON_FIELDS = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name', maxLength: LIMITS.name },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name', maxLength: LIMITS.name },
  { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email', maxLength: LIMITS.email },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', maxLength: LIMITS.phone },
] as const;

/** Off-screen field people never reach (hidden from screen readers and the tab order); bots fill it. */
export function Honeypot({ name }: { name: string }) {
  return (
    <div className="form-trap" aria-hidden="true">
      <label>
        Leave this empty
        <input type="text" name={name} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** Live regions that are always in the page, so screen readers announce what appears in them. */
export function FormStatus({ success, error, children }: { success?: string; error?: string; children?: ReactNode }) {
  return (
    <>
      <div role="status" className="form-status">
        {success && <p className="form-status__message form-status__message--success">{success}</p>}
      </div>
      <div role="alert" className="form-status">
        {error && (
          <div className="form-status__message form-status__message--error">
            <p>{error}</p>
            {children}
          </div>
        )}
      </div>
    </>
  );
}

/** Time since the page started loading, sent with each form as its fill time (see MIN_FILL_MS). */
export const elapsedSincePageLoad = () => Math.round(performance.now());

export const API_TIMEOUT_MS = 10_000;

/** POSTs JSON; resolves with the status and body (never throws for an HTTP error). */
export async function postJson(
  url: string,
  body: unknown,
): Promise<{
  ok: boolean;
  status: number;
  data: { success?: boolean; message?: string; errors?: { field: string; message: string }[] };
}> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
  });
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, data };
}

/** A labelled <select> with a first empty choice (the placeholder), wired up for errors like Field. */
export function SelectField(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  options: readonly string[];
  required?: boolean;
  error?: string;
}) {
  const { id, name, label, value, onChange, placeholder, options, required, error } = props;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
        {required && (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <select
        id={id}
        name={name}
        className="field__control"
        value={value}
        required={required}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
