/**
 * The indicative quote result over the catalogue as published now (staff edits included), used by the
 * quote function, the applicant page and the acknowledgement e-mail. Every function takes the catalogue
 * the caller loaded (loadCatalogue in ./catalogue.ts), so a check and the result it leads to see the same one.
 */
import type { Catalogue } from '../catalogue/index';
import type { CourseSummary } from '../lib/catalogue';
import { matchQualifications, resultItems, type MatchInput, type ResultItem } from '../catalogue/quote-result';
import { feeFor, feeSentence } from '../lib/prices';
import type { SiteSettings } from '../schemas/site-settings';

const summariesByCode = new WeakMap<Catalogue, Map<string, CourseSummary>>();
function summaryOf(catalogue: Catalogue, code: string): CourseSummary | undefined {
  let byCode = summariesByCode.get(catalogue);
  if (!byCode) {
    byCode = new Map(catalogue.summaries.map((c) => [c.code, c]));
    summariesByCode.set(catalogue, byCode);
  }
  return byCode.get(code);
}

/** Codes of the best matches for a quote request, in the order shown. */
export const matchCodes = (catalogue: Catalogue, input: MatchInput): string[] =>
  matchQualifications(input, catalogue.summaries).map((m) => m.course.code);

/** The result of stored match codes (codes no longer in the catalogue are left out). */
export function resultFor(
  catalogue: Catalogue,
  codes: readonly string[],
  selectedCourses: readonly string[],
  fees: readonly { code: string; text: string }[] = [],
): ResultItem[] {
  const chosen = new Set(selectedCourses);
  const matches = codes.flatMap((code) => {
    const course = summaryOf(catalogue, code);
    return course ? [{ course, selected: chosen.has(code) }] : [];
  });
  const feeByCode = new Map(fees.map((fee) => [fee.code, fee.text]));
  const regulatory = (code: string) => catalogue.api.findCourseDetail(code)?.regulatoryRequirements;
  return resultItems(matches, regulatory, undefined, (code) => feeByCode.get(code));
}

/**
 * The result of a stored quote: its stored matches, or, when none could be worked out (matching failed
 * after the quote was stored), the courses the visitor chose.
 */
export const resultOfQuote = (
  catalogue: Catalogue,
  quote:
    | {
        matches?: readonly string[];
        selectedCourses?: readonly string[];
        fees?: readonly { code: string; text: string }[];
      }
    | undefined,
) => resultFor(catalogue, quote?.matches ?? quote?.selectedCourses ?? [], quote?.selectedCourses ?? [], quote?.fees);

/** The fee sentence of each code (its own fee, its category's, or how fees are decided), from the saved settings. */
export function feesFor(
  catalogue: Catalogue,
  codes: readonly string[],
  settings: Pick<SiteSettings, 'prices' | 'partnerRtos'>,
) {
  return codes.flatMap((code) => {
    const course = summaryOf(catalogue, code);
    return course ? [{ code, text: feeSentence(feeFor(settings.prices, settings.partnerRtos, course)) }] : [];
  });
}
