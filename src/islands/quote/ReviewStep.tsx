import type { ReactNode } from 'react';
import { ConsentChoices } from '../PrivacyNotice';
import type { QuoteCategory, QuoteCourse, Step } from './steps';
import type { StepProps } from './step-props';

/** Step 5: everything entered so far with a way back to each step, the terms and the two consents. */
export function ReviewStep(
  props: StepProps & {
    idPrefix: string;
    categories: QuoteCategory[];
    courses: QuoteCourse[];
    goTo: (step: Step) => void;
  },
) {
  const { draft, update, errors, fieldId, idPrefix, categories, courses, goTo } = props;
  const categoryName = new Map(categories.map((c) => [c.slug, c.name]));
  const courseByCode = new Map(courses.map((c) => [c.code, c]));
  return (
    <div className="review">
      <ReviewSection title="Personal Info" onEdit={() => goTo(1)}>
        <dl>
          <Row label="Name" value={`${draft.firstName} ${draft.lastName}`} />
          <Row label="E-mail" value={draft.email} />
          <Row label="Phone" value={draft.phone} />
        </dl>
      </ReviewSection>
      <ReviewSection title="Categories" onEdit={() => goTo(2)}>
        <ul>
          {draft.selectedCategories.map((slug) => (
            <li key={slug}>{categoryName.get(slug) ?? slug}</li>
          ))}
        </ul>
      </ReviewSection>
      <ReviewSection title="Courses" onEdit={() => goTo(3)}>
        {draft.notSure && <p className="review__note">Not sure: suggest qualifications from my experience.</p>}
        <ul>
          {draft.selectedCourses.map((code) => (
            <li key={code}>
              <strong>{code}</strong> {courseByCode.get(code)?.title}
            </li>
          ))}
        </ul>
        {(draft.experience || draft.goals) && (
          <dl>
            {draft.experience && <Row label="Experience" value={draft.experience} />}
            {draft.goals && <Row label="Goals" value={draft.goals} />}
          </dl>
        )}
      </ReviewSection>
      <ReviewSection title="Contact & Location" onEdit={() => goTo(4)}>
        <dl>
          <Row label="Best time to contact" value={draft.preferredContact || 'No preference'} />
          <Row label="State" value={draft.state} />
          {draft.additionalInfo && <Row label="Anything else" value={draft.additionalInfo} />}
        </dl>
      </ReviewSection>
      <div className="terms">
        <input
          id={fieldId('acceptedTerms')}
          type="checkbox"
          name="acceptedTerms"
          checked={draft.acceptedTerms}
          onChange={(event) => update({ acceptedTerms: event.target.checked })}
          aria-invalid={errors.acceptedTerms ? true : undefined}
          aria-describedby={errors.acceptedTerms ? fieldId('acceptedTerms-error') : undefined}
        />
        <label htmlFor={fieldId('acceptedTerms')}>
          I agree to be bound by the{' '}
          <a href="/terms-conditions" target="_blank" rel="noopener">
            terms and conditions <span className="visually-hidden">(opens in a new tab)</span>
          </a>
        </label>
        {errors.acceptedTerms && (
          <p id={fieldId('acceptedTerms-error')} className="field__error">
            {errors.acceptedTerms}
          </p>
        )}
      </div>
      <ConsentChoices
        idPrefix={idPrefix}
        purpose="quote"
        values={{ consentPartnerRto: draft.consentPartnerRto, consentMarketing: draft.consentMarketing }}
        onChange={(field, checked) => update({ [field]: checked })}
      />
    </div>
  );
}

function ReviewSection({ title, onEdit, children }: { title: string; onEdit: () => void; children: ReactNode }) {
  return (
    <section className="review__section">
      <div className="review__head">
        <h3>{title}</h3>
        <button type="button" className="review__edit" onClick={onEdit}>
          Edit <span className="visually-hidden">{title}</span>
        </button>
      </div>
      {children}
    </section>
  );
}

const Row = ({ label, value }: { label: string; value: string }) => (
  <div className="review__row">
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
);
