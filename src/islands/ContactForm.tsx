import { useEffect, useRef, useState, type InputEvent, type SubmitEvent } from 'react';
import * as v from 'valibot';
import {
  CONSENT_FIELDS,
  ContactSchema,
  ELAPSED_FIELD,
  HONEYPOT_FIELD,
  LIMITS,
  type ContactSource,
} from '../schemas/inquiry';
import { issuesToFieldErrors } from '../schemas/field-errors';
import { Field, FormStatus, Honeypot, PERSON_FIELDS, elapsedSincePageLoad, postJson } from './fields';
import { CollectionNotice, ConsentChoices } from './PrivacyNotice';
import './ContactForm.css';

/** The texts of each form (docs/texts.md). */
export const CONTACT_TEXTS = {
  contact: {
    submit: 'Send Message',
    success: "Thank you for your message! We'll be in touch with you soon.",
    error: 'There was an error sending your message. Please try again.',
  },
  home: {
    submit: 'Book My Free Consultation',
    success: "Thank you! We'll be in touch with you soon.",
    error: 'Something went wrong. Please try again.',
  },
} as const satisfies Record<ContactSource, { submit: string; success: string; error: string }>;

const FIELDS = ['firstName', 'lastName', 'email', 'phone', 'message'] as const;

interface Props {
  /** Which form this is: the contact page or the home page's consultation section. */
  source: ContactSource;
}

/**
 * Contact form and home consultation form: five required fields, sent to
 * POST /api/email/contact. The inputs keep their own values (read with FormData), so anything typed
 * before the island hydrated is kept. On success the fields clear; on failure they are kept.
 */
export default function ContactForm({ source }: Props) {
  const texts = CONTACT_TEXTS[source];
  const formRef = useRef<HTMLFormElement>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ success?: string; error?: string; detail?: string }>({});
  // Until hydrated the button is a plain button: a click then cannot post the form natively; the
  // client:interaction directive replays that click once the island is live, and it submits then.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);

  // One form of each source per page, so the source makes the ids unique (and short: the home page counts bytes).
  const fieldId = (name: string) => `${source}-${name}`;

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const values = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const payload = {
      ...Object.fromEntries(FIELDS.map((name) => [name, values[name] ?? ''])),
      // A ticked box is in the form data ("on"); an unticked one is absent. Sent as booleans.
      ...Object.fromEntries(CONSENT_FIELDS.map((name) => [name, name in values])),
      source,
      [HONEYPOT_FIELD]: values[HONEYPOT_FIELD] ?? '',
      [ELAPSED_FIELD]: elapsedSincePageLoad(),
    };
    const checked = v.safeParse(ContactSchema, payload, { abortPipeEarly: true });
    if (!checked.success) {
      const found = issuesToFieldErrors(checked.issues, 1);
      setErrors(found);
      setOutcome({});
      focusFirstError(form, found);
      return;
    }

    setBusy(true);
    setErrors({});
    setOutcome({});
    try {
      const { ok, data } = await postJson('/api/email/contact', payload);
      if (ok && data.success === true) {
        form.reset();
        setOutcome({ success: texts.success });
      } else {
        const serverErrors = Object.fromEntries(
          (data.errors ?? []).filter((e) => FIELDS.includes(e.field as never)).map((e) => [e.field, e.message]),
        );
        setErrors(serverErrors);
        setOutcome({ error: texts.error, detail: Object.keys(serverErrors).length ? undefined : data.message });
        focusFirstError(form, serverErrors);
      }
    } catch {
      setOutcome({ error: texts.error });
    } finally {
      setBusy(false);
    }
  };

  /** Editing a field clears its error (and any earlier outcome message). */
  const onInput = (event: InputEvent<HTMLFormElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
    if (outcome.success) setOutcome({});
  };

  return (
    <form
      ref={formRef}
      className={`inquiry-form inquiry-form--${source}`}
      action="/api/email/contact"
      method="post"
      noValidate
      onSubmit={onSubmit}
      onInput={onInput}
      aria-busy={busy || undefined}
    >
      <p className="form-note">Name, e-mail, phone and message are required.</p>
      <div className="form-grid">
        {PERSON_FIELDS.map((field) => (
          <Field
            key={field.name}
            {...field}
            required
            markRequired={false}
            id={fieldId(field.name)}
            error={errors[field.name]}
          />
        ))}
        <Field
          required
          markRequired={false}
          id={fieldId('message')}
          name="message"
          label="Message"
          multiline
          maxLength={LIMITS.message}
          error={errors.message}
        />
      </div>
      <CollectionNotice purpose="inquiry" />
      <ConsentChoices idPrefix={source} purpose="inquiry" />
      <Honeypot name={HONEYPOT_FIELD} />
      <button
        type={live ? 'submit' : 'button'}
        className="btn btn--accent inquiry-form__submit"
        disabled={busy}
        onClick={(event) => {
          if (event.currentTarget.type !== 'submit') event.currentTarget.form?.requestSubmit();
        }}
      >
        {busy ? 'Submitting...' : texts.submit}
      </button>
      <FormStatus success={outcome.success} error={outcome.error}>
        {outcome.detail && <p className="form-status__detail">{outcome.detail}</p>}
      </FormStatus>
    </form>
  );
}

function focusFirstError(form: HTMLFormElement, errors: Record<string, string>) {
  const first = FIELDS.find((name) => errors[name]);
  if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
}
