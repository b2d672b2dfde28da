import type { ChangeEvent } from 'react';
import type { ConsentField } from '../schemas/inquiry';

/**
 * Privacy at the point of collection, shared by the contact form, the home consultation form and the
 * free quote: a short collection notice (who collects, why, who receives the details, a link to the
 * policy) and two separate, optional consents that start unticked.
 */

export type NoticePurpose = 'inquiry' | 'quote';

const PURPOSE: Record<NoticePurpose, string> = {
  inquiry: 'to answer your inquiry',
  quote: 'to prepare your quote',
};

export function CollectionNotice({ purpose, id }: { purpose: NoticePurpose; id?: string }) {
  return (
    <p className="privacy-notice" id={id}>
      {`RPL Pathways collects these details ${PURPOSE[purpose]}. They reach us through our e-mail provider, and we share them with the partner RTO that would assess you only if you agree ${purpose === 'quote' ? 'on the last step' : 'below'}. `}
      {purpose === 'quote' &&
        'Evidence you send later on your private applicant page is deleted 90 days after we close your application, or at once if you ask us to erase it. '}
      Read our{' '}
      <a href="/privacy-policy" target="_blank" rel="noopener">
        Privacy Policy<span className="visually-hidden"> (opens in a new tab)</span>
      </a>
      .
    </p>
  );
}

export const CONSENT_LABELS: Record<ConsentField, string> = {
  consentPartnerRto: 'Share my details with the partner RTO that would assess me, so it can check my eligibility.',
  consentMarketing: 'Send me occasional news and offers from RPL Pathways. I can unsubscribe at any time.',
};

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
