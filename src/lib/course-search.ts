import { levelRank, type CourseSummary } from './catalogue';

export interface SearchQuery {
  search?: string;
  /** category slug */
  category?: string;
  level?: string;
}

const ROMAN: Record<string, string> = { '1': 'i', '2': 'ii', '3': 'iii', '4': 'iv' };

/**
 * Lower-cases, folds punctuation and runs of spaces, and reads the ways people write levels:
 * "Cert 3", "cert. III" and "certificate 3" all become "certificate iii"; "dip" becomes "diploma".
 */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\bcert(ificate)?\s+([1-4])\b/g, (_m, _c, n: string) => `certificate ${ROMAN[n]}`)
    .replace(/\bcert\b/g, 'certificate')
    .replace(/\bdip\b/g, 'diploma')
    .replace(/\bgrad\b/g, 'graduate')
    .replace(/\badv\b/g, 'advanced')
    .replace(/\s+/g, ' ')
    .trim();
}

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Every typed word starts a word of the text ("carp" finds "carpentry"); short words such as "iv" must match whole. */
const hasAllWords = (text: string, words: string[]) => {
  const tokens = text.split(' ');
  return words.every((word) => tokens.some((token) => (word.length <= 2 ? token === word : token.startsWith(word))));
};

/**
 * 0 = exact code, 1 = code starts with the term, 2 = title holds the whole phrase,
 * 3 = every word in the code, title or level, 4 = every word once the category name counts too.
 */
function rank(course: CourseSummary, phrase: string, words: string[]): number | null {
  const code = course.code.toLowerCase();
  const term = squash(phrase);
  if (term && code === term) return 0;
  if (term.length >= 3 && code.startsWith(term)) return 1;
  const title = normalise(course.title);
  if (` ${title}`.includes(` ${phrase}`) && (phrase.length > 2 || ` ${title} `.includes(` ${phrase} `))) return 2;
  const own = `${code} ${title} ${normalise(course.level)}`;
  if (hasAllWords(own, words)) return 3;
  const withCategory = `${own} ${normalise(course.categoryName)} ${course.category.replace(/-/g, ' ')}`;
  return hasAllWords(withCategory, words) ? 4 : null;
}

/**
 * SPEC 2.10 search: optional text (case-insensitive over code, title, level and category,
 * tolerant of extra spaces), category slug and level filters. Exact code matches come first,
 * then by relevance, AQF level and title.
 */
export function searchCourses<T extends CourseSummary>(courses: readonly T[], query: SearchQuery): T[] {
  const phrase = normalise(query.search ?? '');
  const words = phrase ? phrase.split(' ') : [];
  const level = query.level?.trim().toLowerCase();
  const category = query.category?.trim().toLowerCase();
  const ranked: { course: T; score: number }[] = [];
  for (const course of courses) {
    if (category && course.category !== category) continue;
    if (level && course.level.toLowerCase() !== level) continue;
    const score = phrase ? rank(course, phrase, words) : 4;
    if (score !== null) ranked.push({ course, score });
  }
  return ranked
    .sort((a, b) => a.score - b.score || levelRank(a.course.level) - levelRank(b.course.level) || a.course.title.localeCompare(b.course.title))
    .map((r) => r.course);
}

/** SPEC 2.5 hero suggestions: categories and levels whose names contain the typed text, at most 8. */
export interface Suggestion {
  type: 'category' | 'level';
  name: string;
  slug?: string;
}

export function suggest(text: string, categories: { name: string; slug: string }[], levels: readonly string[], cap = 8): Suggestion[] {
  const typed = text.trim();
  if (typed.length <= 1) return [];
  const needle = normalise(typed);
  const results: Suggestion[] = [
    ...categories.filter((c) => normalise(c.name).includes(needle)).map((c) => ({ type: 'category' as const, name: c.name, slug: c.slug })),
    ...levels.filter((l) => normalise(l).includes(needle)).map((l) => ({ type: 'level' as const, name: l })),
  ];
  return results.slice(0, cap);
}
