/** The indicative quote result over the server's catalogue (used by the quote function and the acknowledgement e-mail). */
import { findCourseDetail, summaries } from './catalogue';
import { matchQualifications, resultItems, type MatchInput, type ResultItem } from '../lib/quote-result';
import { feeFor, feeSentence } from '../lib/prices';
import type { SiteSettings } from '../schemas/site-settings';

const byCode = new Map(summaries.map((c) => [c.code, c]));
const regulatory = (code: string) => findCourseDetail(code)?.regulatoryRequirements;

/** Codes of the best matches for a quote request, in the order shown. */
export const matchCodes = (input: MatchInput): string[] =>
  matchQualifications(input, summaries).map((m) => m.course.code);

/** The result of stored match codes (codes no longer in the catalogue are left out). */
export function resultFor(
  codes: readonly string[],
  selectedCourses: readonly string[],
  fees: readonly { code: string; text: string }[] = [],
): ResultItem[] {
  const chosen = new Set(selectedCourses);
  const matches = codes.flatMap((code) => {
    const course = byCode.get(code);
    return course ? [{ course, selected: chosen.has(code) }] : [];
  });
  const feeByCode = new Map(fees.map((fee) => [fee.code, fee.text]));
  return resultItems(matches, regulatory, undefined, (code) => feeByCode.get(code));
}

/**
 * The result of a stored quote: its stored matches, or, when none could be worked out (matching failed
 * after the quote was stored), the courses the visitor chose.
 */
export const resultOfQuote = (
  quote:
    | {
        matches?: readonly string[];
        selectedCourses?: readonly string[];
        fees?: readonly { code: string; text: string }[];
      }
    | undefined,
) => resultFor(quote?.matches ?? quote?.selectedCourses ?? [], quote?.selectedCourses ?? [], quote?.fees);

/** The fee sentence of each code (its own fee, its category's, or how fees are decided), from the saved settings. */
export function feesFor(codes: readonly string[], settings: Pick<SiteSettings, 'prices' | 'partnerRtos'>) {
  return codes.flatMap((code) => {
    const course = byCode.get(code);
    return course ? [{ code, text: feeSentence(feeFor(settings.prices, settings.partnerRtos, course)) }] : [];
  });
}
