import MiniSearch from 'minisearch';
import { FILLER } from './job-words';
import { normalise, queryWords, stem } from './search-words';

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

/**
 * The search index of a catalogue array (built once per array and kept with it): the MiniSearch index over
 * code, title, occupations, category and level, the field weights, and the phrases each course is known by.
 */

/** How much a word found in each field says about the course (a level or category word says less). */
export const FIELD_WEIGHT: Record<string, number> = {
  code: 1,
  title: 1,
  primary: 1,
  terms: 0.85,
  categoryName: 0.6,
  level: 0.6,
};
/** A word found as typed counts fully; the start of a longer word (typing) or a misspelling less. */
export const PREFIX_WEIGHT = 0.8;
/** A word that only sets the scene ("in a nursing home") counts this much. */
export const SCENE_WEIGHT = 0.6;
/** What a word no course carries weighs against the matches (a common word weighs about 1.5). */
export const UNKNOWN_WEIGHT = 0.5;
/** Field boosts of the index's own ranking, which breaks near ties. */
export const BOOST = { code: 8, title: 3, primary: 3, terms: 1.5, categoryName: 1, level: 1 };
export const FUZZY_WEIGHT = 0.7;

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

const indexTerm = (word: string) => (word && !FILLER.has(word) ? stem(word) : null);

/** The one index builder. The first three terms of a course (its most typical occupations) weigh more. */
export function buildSearchIndex(
  courses: readonly SearchableCourse[],
  vocabulary = new Set<string>(),
): MiniSearch<IndexedDoc> {
  const index = new MiniSearch<IndexedDoc>({
    fields: ['code', 'title', 'primary', 'terms', 'categoryName', 'level'],
    storeFields: [],
    // Fields are normalised once below, so each word only needs the filler list and stemming here; every
    // word indexed joins the vocabulary.
    processTerm: (word) => {
      const term = indexTerm(word);
      if (term) vocabulary.add(term);
      return term;
    },
    searchOptions: { processTerm: (term) => term },
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

/** "Certificate III in Wall and Floor Tiling" -> "Wall and Floor Tiling": the trade a title names. */
const titleCore = (title: string) =>
  title.replace(/^(graduate |advanced )?(certificate|diploma)( [ivx]+)?( of| in)?\s+/i, '');

interface CourseIndex {
  index: MiniSearch<IndexedDoc>;
  byCode: Map<string, number>;
  /** Every word the index holds, so a word typed as indexed is never read as a misspelling of another. */
  vocabulary: Set<string>;
  /** Per course, its title, the trade its title names and each of its terms as query words, for the phrase bonus. */
  phrases: (id: number) => Set<string>;
  /** Per course, its title, trade and first three terms as query words. */
  primaryPhrases: (id: number) => Set<string>;
}

function phrasesOf(course: SearchableCourse, terms = course.terms ?? []): Set<string> {
  return new Set([course.title, titleCore(course.title), ...terms].map((t) => queryWords(t).join(' ')).filter(Boolean));
}

/** Made on first need per course and kept with the index. */
function lazyPerCourse(make: (id: number) => Set<string>) {
  const made = new Map<number, Set<string>>();
  return (id: number) => {
    let found = made.get(id);
    if (!found) {
      found = make(id);
      made.set(id, found);
    }
    return found;
  };
}

const indexes = new WeakMap<readonly SearchableCourse[], CourseIndex>();
export function indexFor(courses: readonly SearchableCourse[]): CourseIndex {
  let entry = indexes.get(courses);
  if (!entry) {
    const phrases = lazyPerCourse((id) => phrasesOf(courses[id]));
    const primaryPhrases = lazyPerCourse((id) => phrasesOf(courses[id], courses[id].terms?.slice(0, 3)));
    const vocabulary = new Set<string>();
    entry = {
      index: buildSearchIndex(courses, vocabulary),
      byCode: new Map(courses.map((c, i) => [c.code.toLowerCase(), i])),
      vocabulary,
      phrases,
      primaryPhrases,
    };
    indexes.set(courses, entry);
  }
  return entry;
}

/**
 * The longest run of query words that is a whole title, trade or job name of the course (0 if none); a
 * job name outside its most typical ones (title, trade, first three terms) counts 70%.
 */
export function longestPhrase(phrases: Set<string>, primary: Set<string>, words: readonly string[]): number {
  for (let size = Math.min(words.length, 6); size >= 1; size--) {
    let best = 0;
    for (let start = 0; start + size <= words.length; start++) {
      const run = words.slice(start, start + size).join(' ');
      if (primary.has(run)) return size;
      if (phrases.has(run)) best = 0.7 * size;
    }
    if (best) return best;
  }
  return 0;
}

/** Spans [start, end) of the words that name something: runs equal to a phrase of `phrases`. */
export function spansOf(words: readonly string[], phrases: (run: string) => boolean, minSize: number) {
  const spans: [number, number][] = [];
  for (let start = 0; start < words.length; start++)
    for (let size = Math.min(6, words.length - start); size >= minSize; size--)
      if (phrases(words.slice(start, start + size).join(' '))) spans.push([start, start + size]);
  return spans;
}
