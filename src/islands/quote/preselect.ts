/**
 * `/free-quote?course={code}` and `/free-quote?search={words}`: the qualification a visitor arrives
 * with is chosen for them (with its category). A code must be in the catalogue; words go through the
 * project's course search and its best match is taken. Nothing here touches the DOM, so it is tested
 * on its own (tests/unit/quote-preselect.test.ts).
 */
import type { CourseSummary } from '../../lib/catalogue';
import type { QuoteCategory, QuoteCourse, QuoteDraft } from './steps';

/** The query parameters that preselect a course; the page's island wakes at once when one is present. */
export const PRESELECT_PARAMS = ['course', 'search'] as const;

export interface PreselectParams {
  course?: string;
  search?: string;
}

export interface Preselect {
  code: string;
  category: string;
  via: 'course' | 'search';
}

export type SearchFn = (courses: readonly CourseSummary[], query: { search: string }) => CourseSummary[];

/** Reads and cleans the parameters: a code is 5-12 letters and digits (any case), words at most 100 characters. */
export function readPreselectParams(query: string | URLSearchParams): PreselectParams {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const out: PreselectParams = {};
  const code = params.get('course')?.trim().toUpperCase();
  if (code && /^[A-Z0-9]{5,12}$/.test(code)) out.course = code;
  const words = params.get('search')?.replace(/\s+/g, ' ').trim().slice(0, 100);
  if (words) out.search = words;
  return out;
}

export const hasPreselect = (params: PreselectParams) => Boolean(params.course || params.search);

/**
 * The course to preselect: `course` when it names a course of the catalogue, else the best match of
 * `search` (the first result of the search function, which needs the category names too).
 */
export function resolvePreselect(
  params: PreselectParams,
  courses: readonly QuoteCourse[],
  categories: readonly QuoteCategory[],
  search?: SearchFn,
): Preselect | null {
  if (params.course) {
    const course = courses.find((c) => c.code === params.course);
    if (course) return { code: course.code, category: course.category, via: 'course' };
  }
  if (params.search && search) {
    const names = new Map(categories.map((c) => [c.slug, c.name]));
    const summaries: CourseSummary[] = courses.map((c) => ({
      ...c,
      categoryName: names.get(c.category) ?? '',
      about: '',
      featured: false,
    }));
    const best = search(summaries, { search: params.search })[0];
    if (best) return { code: best.code, category: best.category, via: 'search' };
  }
  return null;
}

/** Adds the preselected course and its category to a draft (keeping anything already chosen). */
export function applyPreselect(draft: QuoteDraft, preselect: Preselect): QuoteDraft {
  return {
    ...draft,
    selectedCategories: draft.selectedCategories.includes(preselect.category)
      ? draft.selectedCategories
      : [...draft.selectedCategories, preselect.category],
    selectedCourses: draft.selectedCourses.includes(preselect.code)
      ? draft.selectedCourses
      : [...draft.selectedCourses, preselect.code],
  };
}
