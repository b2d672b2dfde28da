import type { QuoteDraft } from './steps';

/** What every step component gets from the wizard shell. */
export interface StepProps {
  draft: QuoteDraft;
  /** Changes some values and clears their error messages. */
  update: (patch: Partial<QuoteDraft>) => void;
  /** The current step's problems, `{ field: message }`. */
  errors: Record<string, string>;
  /** A stable element id for a field of this wizard. */
  fieldId: (name: string) => string;
}

/** The draft's fields that hold text. */
type TextField = { [K in keyof QuoteDraft]: QuoteDraft[K] extends string ? K : never }[keyof QuoteDraft];

/** Id, name, value, change and error of one text field of the draft, for Field and SelectField. */
export function bindField({ draft, update, errors, fieldId }: StepProps, name: TextField) {
  return {
    id: fieldId(name),
    name,
    value: draft[name],
    onChange: (value: string) => update({ [name]: value }),
    error: errors[name],
  };
}
