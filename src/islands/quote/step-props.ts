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
