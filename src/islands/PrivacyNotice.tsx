import type { ChangeEvent } from 'react';
import type { ConsentField } from '../schemas/inquiry';
import { CONSENT_LABELS, noticeText, type NoticePurpose } from '../lib/collection-notice';

/**
 * Privacy at the point of collection, shared by the contact form, the home consultation form and the
 * free quote: a short collection notice (who collects, why, who stores and mails the details and where,
 * what happens without them, a link to the policy) and two separate, optional consents that start
 * unticked. The texts live in src/lib/collection-notice.ts, which the server hashes into each inquiry.
 */

export function CollectionNotice({ purpose, id }: { purpose: NoticePurpose; id?: string }) {
  return (
    <p className="privacy-notice" id={id}>
      {`${noticeText(purpose)} `}
      Read our{' '}
      <a href="/privacy-policy" target="_blank" rel="noopener">
        Privacy Policy<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
      .
    </p>
  );
}

interface ConsentProps {
  idPrefix: string;
  purpose: NoticePurpose;
  /** Controlled (the quote wizard); without it the browser keeps the ticks (read with FormData). */
  values?: Record<ConsentField, boolean>;
  onChange?: (field: ConsentField, checked: boolean) => void;
}

export function ConsentChoices({ idPrefix, purpose, values, onChange }: ConsentProps) {
  const hintId = `${idPrefix}-consent-hint`;
  return (
    <fieldset className="consents" aria-describedby={hintId}>
      <legend className="consents__legend">Optional choices</legend>
      <p id={hintId} className="field__hint">
        Both are optional: your {purpose === 'quote' ? 'quote request' : 'message'} is sent whether or not you tick
        them.
      </p>
      {(Object.keys(CONSENT_LABELS) as ConsentField[]).map((field) => (
        <div key={field} className="consents__item">
          <input
            id={`${idPrefix}-${field}`}
            type="checkbox"
            name={field}
            {...(values
              ? {
                  checked: values[field],
                  onChange: (event: ChangeEvent<HTMLInputElement>) => onChange?.(field, event.target.checked),
                }
              : { defaultChecked: false })}
          />
          <label htmlFor={`${idPrefix}-${field}`}>{CONSENT_LABELS[field]}</label>
        </div>
      ))}
    </fieldset>
  );
}
