import { Check } from 'lucide-react';
import { LIMITS } from '../../schemas/inquiry';
import { Field } from '../fields';
import { CollectionNotice } from '../PrivacyNotice';
import type { StepProps } from './step-props';

/** Step 1: who the visitor is and how to reach them, after a note when a course was chosen by the link. */
export function PersonalStep({
  draft,
  update,
  errors,
  fieldId,
  preselected,
}: StepProps & { preselected: { code: string; title: string } | null }) {
  return (
    <>
      {preselected && (
        <p className="quote__preselected" role="status">
          <Check size={18} aria-hidden="true" />
          <span>
            You're asking about <strong>{preselected.title}</strong> ({preselected.code}). It is already chosen in step
            3; you can change it there.
          </span>
        </p>
      )}
      <p className="form-note">Tell us who you are and how to reach you. Fields marked * are required.</p>
      <div className="form-grid">
        <Field
          id={fieldId('firstName')}
          name="firstName"
          label="First name"
          required
          autoComplete="given-name"
          maxLength={LIMITS.name}
          value={draft.firstName}
          onChange={(firstName) => update({ firstName })}
          error={errors.firstName}
        />
        <Field
          id={fieldId('lastName')}
          name="lastName"
          label="Last name"
          required
          autoComplete="family-name"
          maxLength={LIMITS.name}
          value={draft.lastName}
          onChange={(lastName) => update({ lastName })}
          error={errors.lastName}
        />
        <Field
          id={fieldId('email')}
          name="email"
          label="E-mail"
          type="email"
          required
          autoComplete="email"
          maxLength={LIMITS.email}
          value={draft.email}
          onChange={(email) => update({ email })}
          error={errors.email}
        />
        <Field
          id={fieldId('phone')}
          name="phone"
          label="Phone"
          type="tel"
          required
          autoComplete="tel"
          maxLength={LIMITS.phone}
          value={draft.phone}
          onChange={(phone) => update({ phone })}
          error={errors.phone}
        />
      </div>
      <CollectionNotice purpose="quote" />
    </>
  );
}
