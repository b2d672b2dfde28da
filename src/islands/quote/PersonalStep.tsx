import { Check } from 'lucide-react';
import { Field, PERSON_FIELDS } from '../fields';
import { CollectionNotice } from '../PrivacyNotice';
import { bindField, type StepProps } from './step-props';

/** Step 1: who the visitor is and how to reach them, after a note when a course was chosen by the link. */
export function PersonalStep(
  props: StepProps & { preselected: { code: string; title: string } | null; skipsToContact?: boolean },
) {
  const { preselected, skipsToContact } = props;
  return (
    <>
      {preselected && (
        <p className="quote__preselected" role="status">
          <Check size={18} aria-hidden="true" />
          <span>
            You're asking about <strong>{preselected.title}</strong> ({preselected.code}).{' '}
            {skipsToContact
              ? 'Its category and course are already chosen (steps 2 and 3), so after your details we go straight to step 4. You can change them on the review step.'
              : 'It is already chosen in step 3; you can change it there.'}
          </span>
        </p>
      )}
      <p className="form-note">Tell us who you are and how to reach you. Fields marked * are required.</p>
      <div className="form-grid">
        {PERSON_FIELDS.map((field) => (
          <Field key={field.name} {...field} required {...bindField(props, field.name)} />
        ))}
      </div>
      <CollectionNotice purpose="quote" />
    </>
  );
}
