import { CONTACT_TIMES, LIMITS, STATES } from '../../schemas/inquiry';
import { Field, SelectField } from '../fields';
import type { StepProps } from './step-props';

/** Step 4: when to call, the state or territory, and anything else. */
export function ContactStep({ draft, update, errors, fieldId }: StepProps) {
  return (
    <div className="form-grid">
      <SelectField
        id={fieldId('preferredContact')}
        name="preferredContact"
        label="Best time to contact you (optional)"
        value={draft.preferredContact}
        onChange={(preferredContact) => update({ preferredContact })}
        placeholder="No preference"
        options={CONTACT_TIMES}
        error={errors.preferredContact}
      />
      <SelectField
        id={fieldId('state')}
        name="state"
        label="State or territory"
        required
        value={draft.state}
        onChange={(state) => update({ state })}
        placeholder="Choose your state"
        options={STATES}
        error={errors.state}
      />
      <Field
        id={fieldId('additionalInfo')}
        name="additionalInfo"
        label="Anything else we should know? (optional)"
        multiline
        rows={4}
        maxLength={LIMITS.longText}
        value={draft.additionalInfo}
        onChange={(additionalInfo) => update({ additionalInfo })}
        error={errors.additionalInfo}
      />
    </div>
  );
}
