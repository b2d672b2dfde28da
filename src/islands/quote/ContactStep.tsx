import { CONTACT_TIMES, LIMITS, STATES } from '../../schemas/inquiry';
import { Field, SelectField } from '../fields';
import { bindField, type StepProps } from './step-props';

/** Step 4: when to call, the state or territory, and anything else. */
export function ContactStep(props: StepProps) {
  const choose = (
    name: 'preferredContact' | 'state',
    label: string,
    placeholder: string,
    options: readonly string[],
  ) => (
    <SelectField
      {...bindField(props, name)}
      label={label}
      required={name === 'state'}
      placeholder={placeholder}
      options={options}
    />
  );
  return (
    <div className="form-grid">
      {choose('preferredContact', 'Best time to contact you (optional)', 'No preference', CONTACT_TIMES)}
      {choose('state', 'State or territory', 'Choose your state', STATES)}
      <Field
        {...bindField(props, 'additionalInfo')}
        label="Anything else we should know? (optional)"
        multiline
        rows={4}
        maxLength={LIMITS.longText}
      />
    </div>
  );
}
