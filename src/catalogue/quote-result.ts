/**
 * The indicative result shown after a free quote request (and repeated in the acknowledgement
 * e-mail): the qualifications the visitor chose, then those the site's course search is confident their
 * experience and goals name, each with the evidence that usually supports it and what RPL cannot give for
 * it. An indication from keywords, not an assessment. Suggestions come from the one course search
 * (src/lib/course-search.ts, with the job words of src/lib/job-words.ts), so they follow its confidence
 * threshold: no suggestion is a valid answer, and a trade the catalogue lacks gets none.
 */
import { answerSearch } from '../lib/course-search';
import type { CourseSummary } from '../lib/catalogue';
import { evidenceFor, type EvidenceChecklists } from './evidence';

export interface MatchInput {
  selectedCourses: readonly string[];
  selectedCategories: readonly string[];
  experience?: string;
  goals?: string;
}

/** At most this many of the chosen courses are listed, and at most this many suggestions added. */
export const MAX_SELECTED_SHOWN = 5;
export const MAX_SUGGESTED = 3;

export interface Match<T> {
  course: T;
  /** Chosen by the visitor in step 3 (else suggested from the text). */
  selected: boolean;
}

/**
 * Courses the search is confident a text names, best first: those in the chosen categories when there
 * are any (the visitor knows their industry), else the rest.
 */
export function suggestFromText<T extends CourseSummary>(
  text: string,
  categories: ReadonlySet<string>,
  courses: readonly T[],
): T[] {
  const found = answerSearch(courses, { search: text }).courses;
  const inCategories = found.filter((c) => categories.has(c.category));
  return inCategories.length ? inCategories : found;
}

/**
 * The qualifications to show: the chosen ones first (up to five, always: they are not suggestions), then up
 * to three confident matches of the experience, then of the goals. Nothing is added to reach a count: when
 * the text names no listed qualification, only the chosen courses are shown, or none.
 */
export function matchQualifications<T extends CourseSummary>(input: MatchInput, courses: readonly T[]): Match<T>[] {
  const byCode = new Map(courses.map((c) => [c.code, c]));
  const out: Match<T>[] = [];
  const taken = new Set<string>();
  const add = (course: T | undefined, selected: boolean) => {
    if (!course || taken.has(course.code)) return;
    taken.add(course.code);
    out.push({ course, selected });
  };
  for (const code of input.selectedCourses.slice(0, MAX_SELECTED_SHOWN)) add(byCode.get(code), true);
  const want = out.length + MAX_SUGGESTED;
  const categories = new Set(input.selectedCategories);
  for (const text of [input.experience, input.goals]) {
    if (!text?.trim()) continue;
    for (const course of suggestFromText(text, categories, courses)) {
      if (out.length >= want) break;
      add(course, false);
    }
  }
  return out;
}

export interface ResultItem {
  code: string;
  title: string;
  level: string;
  category: string;
  categoryName: string;
  selected: boolean;
  evidence: string[];
  /** What RPL does not give for this qualification (licences, registrations, placements, checks). */
  notIncluded: string;
  /** The indicative fee staff set, or how the fee is decided (src/lib/prices.ts); absent on older quotes. */
  fee?: string;
  /** Hours of current work in the role the assessment needs; the result then says so and states no timeframe. */
  workHours?: number;
}

export function resultItems<T extends CourseSummary>(
  matches: readonly Match<T>[],
  regulatory: (code: string) => string | undefined,
  lists?: EvidenceChecklists,
  fee?: (code: string) => string | undefined,
): ResultItem[] {
  return matches.map(({ course, selected }) => ({
    code: course.code,
    title: course.title,
    level: course.level,
    category: course.category,
    categoryName: course.categoryName,
    selected,
    evidence: evidenceFor(course, lists),
    notIncluded: regulatory(course.code) ?? '',
    ...(fee?.(course.code) ? { fee: fee(course.code) } : {}),
    ...(course.workHours ? { workHours: course.workHours } : {}),
  }));
}
