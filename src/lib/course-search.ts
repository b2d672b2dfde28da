import MiniSearch, { type SearchOptions } from 'minisearch';
import { levelRank } from './catalogue';

/**
 * The one course search of the site: the search page (server and island), the header modal, the hero
 * suggestions, the quote wizard's course filter and GET /api/courses all call searchCourses, which
 * builds (once per catalogue array) a MiniSearch index over code, title, occupations, category and level.
 */

export interface SearchQuery {
  search?: string;
  /** category slug */
  category?: string;
  level?: string;
}

/** What the search needs of a course; pages pass richer objects and get them back. */
export interface SearchableCourse {
  code: string;
  title: string;
  level: string;
  category: string;
  categoryName?: string;
  /** Occupations and trade words, most typical first (content/search-terms.json). */
  terms?: readonly string[];
  /** Hours of current work in the role the assessment needs (suggestions say so). */
  workHours?: number;
}

const ROMAN: Record<string, string> = { '1': 'i', '2': 'ii', '3': 'iii', '4': 'iv' };

/**
 * Lower-cases, folds punctuation and runs of spaces, and reads the ways people write levels:
 * "Cert 3", "cert. III" and "certificate 3" all become "certificate iii"; "dip" becomes "diploma".
 */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\bcert(ificate)?\s+([1-4])\b/g, (_m, _c, n: string) => `certificate ${ROMAN[n]}`)
    .replace(/\bcert\b/g, 'certificate')
    .replace(/\bdip\b/g, 'diploma')
    .replace(/\bgrad\b/g, 'graduate')
    .replace(/\badv\b/g, 'advanced')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Words of a free sentence that say nothing about the job ("I have 10 years as a ..."). Words that can
 * name a course stay searchable: "it" (information technology), "work" (youth work, work health and safety).
 */
const STOP_WORDS = new Set(
  `a an the and or of in on at as to for from with by into over about around than then so but
  i im me my mine myself we our us you your he she they them their this that these those there here
  am is are was were be been being have has had having do does did doing done get got getting
  years year yrs yr months month weeks decade decades experience experienced exp worked working
  employed employment job jobs role roles position currently current previously previous now still also just
  full part time casual permanent since ago plus more most some all any lot lots many several
  looking look want wanting need needing would like could can will please help find
  qualification qualifications qualified course courses rpl recognition prior recognised nationally
  trade trades tradie person as`
    .split(/\s+/)
    .filter(Boolean),
);

/** Light stemming shared by the index and the query: "carpenters" finds "carpenter". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is'))
    return word.slice(0, -1);
  return word;
}

/**
 * The meaningful words of a query, normalised and stemmed; single letters (a word still being typed) and
 * numbers under 5 digits (years) are dropped.
 */
export function queryWords(text: string): string[] {
  return normalise(text)
    .split(' ')
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !/^\d{1,4}$/.test(word))
    .map(stem);
}

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Typo tolerance: none under 5 letters, 1 for 5 to 9 letters, 2 from 10 letters ("bookkeeper" is not "zookeeper"). */
const fuzziness = (term: string) => (term.length < 5 || /\d/.test(term) ? 0 : term.length < 10 ? 1 : 2);

const SEARCH_OPTIONS: SearchOptions = {
  boost: { code: 8, title: 3, primary: 3, terms: 1.5, categoryName: 1, level: 1 },
  prefix: (term) => term.length >= 3,
  fuzzy: fuzziness,
  weights: { fuzzy: 0.5, prefix: 0.4 },
  // The query is already normalised and stripped of stop words by queryWords.
  processTerm: (term) => term,
};

interface IndexedDoc {
  id: number;
  code: string;
  title: string;
  primary: string;
  terms: string;
  categoryName: string;
  level: string;
}

/** Each distinct word once, so a long list of job titles does not outweigh a precise one. */
const distinctWords = (phrases: readonly string[]) => [...new Set(normalise(phrases.join(' ')).split(' '))].join(' ');

/** The one index builder. The first three terms of a course (its most typical occupations) weigh more. */
export function buildSearchIndex(courses: readonly SearchableCourse[]): MiniSearch<IndexedDoc> {
  const index = new MiniSearch<IndexedDoc>({
    fields: ['code', 'title', 'primary', 'terms', 'categoryName', 'level'],
    storeFields: [],
    // Fields are normalised once below, so each word only needs the stop list and stemming here.
    processTerm: (word) => (word && !STOP_WORDS.has(word) ? stem(word) : null),
    searchOptions: SEARCH_OPTIONS,
  });
  index.addAll(
    courses.map((course, id) => ({
      id,
      code: course.code,
      title: normalise(course.title),
      primary: distinctWords(course.terms?.slice(0, 3) ?? []),
      terms: distinctWords(course.terms ?? []),
      categoryName: normalise(course.categoryName ?? course.category.replace(/-/g, ' ')),
      level: normalise(course.level),
    })),
  );
  return index;
}

interface CourseIndex {
  index: MiniSearch<IndexedDoc>;
  byCode: Map<string, number>;
  /** Per course, its title and each of its terms as query words ("site supervisor"), for the phrase bonus; made on first need. */
  phrases: (id: number) => Set<string>;
}

function phrasesOf(courses: readonly SearchableCourse[]) {
  const made = new Map<number, Set<string>>();
  return (id: number) => {
    let phrases = made.get(id);
    if (!phrases) {
      const course = courses[id];
      phrases = new Set([course.title, ...(course.terms ?? [])].map((t) => queryWords(t).join(' ')));
      made.set(id, phrases);
    }
    return phrases;
  };
}

const indexes = new WeakMap<readonly SearchableCourse[], CourseIndex>();
function indexFor(courses: readonly SearchableCourse[]): CourseIndex {
  let entry = indexes.get(courses);
  if (!entry) {
    entry = {
      index: buildSearchIndex(courses),
      byCode: new Map(courses.map((c, i) => [c.code.toLowerCase(), i])),
      phrases: phrasesOf(courses),
    };
    indexes.set(courses, entry);
  }
  return entry;
}

/**
 * A whole job name or title inside the query counts more than scattered words: "team leader" beats
 * courses that mention "team" and "leader" apart. Factor 1 to 2, by the share of the query it covers.
 */
function phraseBonus(phrases: Set<string>, words: string[]): number {
  for (let size = words.length; size >= 2 || (size === 1 && words.length === 1); size--) {
    for (let start = 0; start + size <= words.length; start++) {
      if (phrases.has(words.slice(start, start + size).join(' '))) return 1 + size / words.length;
    }
    if (size === 1) break;
  }
  return 1;
}

/** How many of the best raw matches the phrase and level bonuses reorder. */
const RERANKED = 100;

const byLevelThenTitle = (a: SearchableCourse, b: SearchableCourse) =>
  levelRank(a.level) - levelRank(b.level) || a.title.localeCompare(b.title);

/**
 * Course search, read the way workers write: free sentences ("I have 10 years as a carpenter"),
 * job names and slang from content/search-terms.json, misspellings (1-2 letters in words of 5 or
 * more), word starts while typing, and codes in any case (an exact code comes first). Every word must
 * match if any course matches them all; otherwise the courses matching most of them, best first.
 * Category slug and level filter. Without text: everything, lowest level first.
 */
export function searchCourses<T extends SearchableCourse>(courses: readonly T[], query: SearchQuery): T[] {
  const level = query.level?.trim().toLowerCase();
  const category = query.category?.trim().toLowerCase();
  const passes = (course: T) =>
    (!category || course.category === category) && (!level || course.level.toLowerCase() === level);
  const text = query.search?.trim() ?? '';
  if (!text) return courses.filter(passes).sort(byLevelThenTitle);

  const { index, byCode, phrases } = indexFor(courses);
  // At most 12 words: a sentence says no more, and it bounds the work a hostile query can ask for.
  const words = queryWords(text).slice(0, 12);
  // A code typed on its own or among other words ("bsb 50120", "CPC30220 carpentry").
  const codeHits = [squash(text), ...words].map((w) => byCode.get(w)).filter((i): i is number => i !== undefined);
  const seen = new Set<number>();
  const out: T[] = [];
  const push = (i: number) => {
    if (seen.has(i) || !passes(courses[i])) return;
    seen.add(i);
    out.push(courses[i]);
  };
  codeHits.forEach(push);
  if (words.length) {
    const filter = (result: { id: number }) => passes(courses[result.id]);
    let results = index.search(words.join(' '), { combineWith: 'AND', filter });
    if (!results.length && words.length > 1) results = index.search(words.join(' '), { combineWith: 'OR', filter });
    // MiniSearch answers best first; the bonuses only reorder the head (at most x2, and -24% at most for
    // higher levels, as a plain job name usually means the trade's entry qualification). That keeps each
    // keystroke cheap when a short prefix matches thousands of courses.
    const head = results
      .slice(0, RERANKED)
      .map((r) => ({
        id: r.id as number,
        score: r.score * phraseBonus(phrases(r.id), words) * (1 - 0.04 * Math.min(levelRank(courses[r.id].level), 6)),
      }))
      .sort((a, b) => b.score - a.score || byLevelThenTitle(courses[a.id], courses[b.id]));
    for (const r of head) push(r.id);
    for (let i = RERANKED; i < results.length; i++) push(results[i].id as number);
  }
  return out;
}

/** Hero suggestions, plus the best matching qualifications: at most 8 in all. */
export type Suggestion =
  | { type: 'category'; name: string; slug: string }
  | { type: 'level'; name: string }
  | { type: 'course'; name: string; code: string; workHours?: number };

export function suggest(
  text: string,
  categories: { name: string; slug: string }[],
  levels: readonly string[],
  courses: readonly SearchableCourse[] = [],
  cap = 8,
): Suggestion[] {
  const typed = text.trim();
  if (typed.length <= 1) return [];
  const needle = normalise(typed);
  const filters: Suggestion[] = needle
    ? [
        ...categories
          .filter((c) => normalise(c.name).includes(needle))
          .map((c) => ({ type: 'category' as const, name: c.name, slug: c.slug })),
        ...levels.filter((l) => normalise(l).includes(needle)).map((l) => ({ type: 'level' as const, name: l })),
      ]
    : [];
  // Keep room for qualifications: up to 3 categories and levels first when courses match too.
  const found = courses.length ? searchCourses(courses, { search: typed }).slice(0, cap) : [];
  const head = filters.slice(0, found.length ? Math.max(3, cap - found.length) : cap);
  const rest = found.slice(0, cap - head.length).map((c) => ({
    type: 'course' as const,
    name: c.title,
    code: c.code,
    ...(c.workHours ? { workHours: c.workHours } : {}),
  }));
  return [...head, ...rest];
}
