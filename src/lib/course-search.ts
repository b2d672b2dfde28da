import MiniSearch from 'minisearch';
import { levelRank } from './catalogue';
import { COMPOUNDS, FILLER, NOT_OFFERED, REAL_WORDS } from './job-words';

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
 * The longest text a search reads: what the quote's experience field accepts (LIMITS.longText of
 * src/schemas/inquiry.ts; a unit test keeps the two equal). Longer text is cut to it, with a note.
 */
export const SEARCH_MAX_LENGTH = 2000;

/**
 * How sure a match must be to be shown: the share of the query's telling words (weighted by how rare each
 * is in the catalogue) that the course matches. Calibrated on the tuning part of the labelled phrases
 * (tests/fixtures/search-phrases.json; `node scripts/bench/search.mjs` prints the figures).
 */
export const CONFIDENCE_THRESHOLD = 0.5;
/** ... and its ranking score at least this share of the best match's. */
export const RELATIVE_THRESHOLD = 0.4;

/**
 * Lower-cases, folds punctuation and runs of spaces, and reads the ways people write levels:
 * "Cert 3", "cert. III" and "certificate 3" all become "certificate iii"; "dip" becomes "diploma".
 * Two-word job names become the one word the search terms use (src/lib/job-words.ts).
 */
export function normalise(text: string): string {
  let out = text
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
  for (const [pattern, replacement] of COMPOUNDS) out = out.replace(pattern, replacement);
  return out;
}

/** Light stemming shared by the index and the query: "carpenters" finds "carpenter". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is'))
    return word.slice(0, -1);
  return word;
}

/** A query word, and whether it only sets the scene ("... in a nursing home"): then it counts less. */
interface QueryWord {
  word: string;
  scene: boolean;
}

/** After these words comes where or for whom the job is done, not the job itself. */
const SCENE_START = new Set(['in', 'at', 'on', 'for', 'with', 'from', 'around', 'across']);
/** ... until one of these starts another part of the sentence. */
const SCENE_END = new Set(['and', 'as', 'but', 'then', 'now', 'also', 'plus', 'im', 'ive', 'was', 'am']);

function readWords(text: string): QueryWord[] {
  const out: QueryWord[] = [];
  let scene = false;
  for (const word of normalise(text).split(' ')) {
    if (SCENE_START.has(word)) scene = true;
    else if (SCENE_END.has(word)) scene = false;
    if (word.length > 1 && !FILLER.has(word) && !/^\d{1,4}$/.test(word)) out.push({ word: stem(word), scene });
  }
  return out;
}

/**
 * The meaningful words of a query, normalised and stemmed; filler (src/lib/job-words.ts), single letters
 * (a word still being typed) and numbers under 5 digits (years) are dropped.
 */
export const queryWords = (text: string): string[] => readWords(text).map((w) => w.word);

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Typo tolerance: none under 5 letters, 1 for 5 to 9 letters, 2 from 10 letters ("bookkeeper" is not "zookeeper"). */
const fuzziness = (term: string) => (term.length < 5 || /\d/.test(term) ? 0 : term.length < 10 ? 1 : 2);

/** How much a word found in each field says about the course (a level or category word says less). */
const FIELD_WEIGHT: Record<string, number> = {
  code: 1,
  title: 1,
  primary: 1,
  terms: 0.85,
  categoryName: 0.6,
  level: 0.6,
};
/** A word found as typed counts fully; the start of a longer word (typing) or a misspelling less. */
const PREFIX_WEIGHT = 0.8;
/** A word that only sets the scene ("in a nursing home") counts this much. */
const SCENE_WEIGHT = 0.6;
/** What a word no course carries weighs against the matches (a common word weighs about 1.5). */
const UNKNOWN_WEIGHT = 0.5;
/** Field boosts of the index's own ranking, which breaks near ties. */
const BOOST = { code: 8, title: 3, primary: 3, terms: 1.5, categoryName: 1, level: 1 };
const FUZZY_WEIGHT = 0.7;

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
function indexFor(courses: readonly SearchableCourse[]): CourseIndex {
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
function longestPhrase(phrases: Set<string>, primary: Set<string>, words: readonly string[]): number {
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
function spansOf(words: readonly string[], phrases: (run: string) => boolean, minSize: number) {
  const spans: [number, number][] = [];
  for (let start = 0; start < words.length; start++)
    for (let size = Math.min(6, words.length - start); size >= minSize; size--)
      if (phrases(words.slice(start, start + size).join(' '))) spans.push([start, start + size]);
  return spans;
}

/** Damerau-free edit distance, at most 1 apart: "electrcian" names an electrician. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

let notOfferedNames: { words: string; trade: string }[] | undefined;
const notOfferedList = () => {
  notOfferedNames ??= NOT_OFFERED.flatMap(({ trade, names }) =>
    names.map((name) => ({ words: queryWords(name).join(' '), trade })),
  );
  return notOfferedNames;
};

/**
 * Finds the trades the catalogue lacks in the words ("electrician", "truck driver", misspelt by a letter
 * in words of 7 or more), unless the run is part of a job the catalogue has ("reach truck driver").
 * Returns the trade named first and the words left once those names are taken out.
 */
export function readNotOffered(
  words: readonly string[],
  offered: (run: string) => boolean,
): { trade: string | null; rest: string[]; kept: (k: number) => boolean } {
  const list = notOfferedList();
  const tradeOf = (run: string) =>
    list.find((n) => n.words === run)?.trade ??
    (run.length >= 7 && !run.includes(' ')
      ? list.find((n) => !n.words.includes(' ') && oneEditApart(n.words, run))?.trade
      : undefined);
  const drop = new Set<number>();
  let trade: string | null = null;
  for (let start = 0; start < words.length; start++) {
    for (let size = Math.min(4, words.length - start); size >= 1; size--) {
      const found = tradeOf(words.slice(start, start + size).join(' '));
      if (!found) continue;
      const end = start + size;
      // Part of a longer job the catalogue has ("reach truck driver")?
      const near = words.slice(Math.max(0, start - 3), Math.min(words.length, end + 3));
      const offset = Math.max(0, start - 3);
      if (spansOf(near, offered, 2).some(([s, e]) => s + offset < end && start < e + offset)) continue;
      trade ??= found;
      for (let k = start; k < end; k++) drop.add(k);
      break;
    }
  }
  return { trade, rest: words.filter((_w, k) => !drop.has(k)), kept: (k) => !drop.has(k) };
}

/** The most frequent of some words. */
function likeliest(words: readonly string[]): string {
  const counts = new Map<string, number>();
  let best = words[0];
  for (const word of words) {
    const n = (counts.get(word) ?? 0) + 1;
    counts.set(word, n);
    if (n > (counts.get(best) ?? 0)) best = word;
  }
  return best;
}

/** How many of the best matches the phrase bonus reorders. */
const RERANKED = 100;

/** At most this many distinct words of a text are searched (a long experience names its job early enough). */
const MAX_WORDS = 40;

export interface ScoredCourse {
  id: number;
  /** 0 to 1: the weighted share of the query's telling words the course matches. */
  confidence: number;
  score: number;
}

export interface SearchAnswer<T> {
  courses: T[];
  /** A trade the catalogue lacks that the text named (the answer is then empty unless it also named one it has). */
  notOffered: string | null;
}

/**
 * The courses the words reach, with confidence and ranking score, best first: the best hundred whatever
 * their confidence, the others only at or above CONFIDENCE_THRESHOLD. The
 * confidence counts each word by how rare it is in the catalogue (a word most courses carry says little)
 * and by how it matched (as typed, as the start of a word being typed on the last word, or misspelt);
 * words no course carries are filler and count for nothing. A whole job name or title among the words
 * ranks higher (up to x2), and a plain job name leans to the trade's entry level (-4% a level).
 */
export function scoreCourses(
  courses: readonly SearchableCourse[],
  text: string,
): {
  scored: ScoredCourse[];
  notOffered: string | null;
  codeHits: number[];
} {
  const entry = indexFor(courses);
  const { index, byCode, vocabulary, phrases, primaryPhrases } = entry;
  const typed = text.slice(0, SEARCH_MAX_LENGTH);
  const read = readWords(typed);
  const allWords = read.map((w) => w.word);
  // A code typed on its own or among other words ("bsb 50120", "CPC30220 carpentry").
  const codeHits = [squash(typed), ...allWords.slice(0, MAX_WORDS)]
    .map((w) => byCode.get(w))
    .filter((i): i is number => i !== undefined);
  // Whether some course has these words as a whole title, trade or job name: asked only of the few runs
  // around a trade the catalogue lacks, through the courses carrying all the words.
  const offered = (run: string) =>
    index
      .search(run, { combineWith: 'AND' })
      .slice(0, RERANKED)
      .some((r) => phrases(r.id as number).has(run));
  const { trade, rest, kept } = readNotOffered(allWords, offered);
  // A trade the catalogue lacks is answered honestly unless the text also names, in full, a job it has.
  if (trade && !spansOf(rest, offered, 1).length) return { scored: [], notOffered: trade, codeHits };
  // Each distinct word once; a word that names the job somewhere counts as such.
  const sceneOf = new Map<string, boolean>();
  read.forEach(({ word, scene }, k) => {
    if (kept(k)) sceneOf.set(word, (sceneOf.get(word) ?? true) && scene);
  });
  const words = [...sceneOf.keys()].slice(0, MAX_WORDS);
  const lastWord = rest.at(-1);
  const found = new Map<number, { sum: number; raw: number }>();
  let total = 0;
  const corrections = new Map<string, string>();
  for (const word of words) {
    const asTyped = vocabulary.has(word);
    const fuzzy = asTyped || REAL_WORDS.has(word) ? 0 : fuzziness(word);
    // The word being typed, or a shortening no course spells out ("physio"), may be the start of a word.
    const prefix = (word === lastWord && word.length >= 3) || (!asTyped && word.length >= 4);
    const results = index.search(word, {
      prefix,
      fuzzy,
      combineWith: 'OR',
      boost: BOOST,
      weights: { fuzzy: 0.5, prefix: 0.4 },
    });
    if (!results.length) {
      // A word no course carries is a detail of the work, not a job: it counts a little against every match.
      if (word.length >= 4) total += UNKNOWN_WEIGHT;
      continue;
    }
    const weight = Math.log(1 + courses.length / results.length) * (sceneOf.get(word) ? SCENE_WEIGHT : 1);
    const top = results[0].score;
    total += weight;
    // A misspelt word reads as the word it most often stands for, so it can complete a job name.
    if (fuzzy) corrections.set(word, likeliest(results.flatMap((r) => Object.keys(r.match))));
    for (const result of results) {
      let best = 0;
      for (const docTerm in result.match) {
        const fields = result.match[docTerm];
        const kind = docTerm === word ? 1 : docTerm.startsWith(word) && prefix ? PREFIX_WEIGHT : FUZZY_WEIGHT;
        for (const field of fields) best = Math.max(best, kind * (FIELD_WEIGHT[field] ?? 0.5));
      }
      const id = result.id as number;
      const sums = found.get(id) ?? { sum: 0, raw: 0 };
      sums.sum += weight * best;
      sums.raw += (weight * result.score) / top;
      found.set(id, sums);
    }
  }
  if (!found.size) return { scored: [], notOffered: trade, codeHits };
  const known = words.filter((w) => vocabulary.has(w) || w === lastWord).length;
  const corrected = rest.map((w) => corrections.get(w) ?? w);
  // The phrase bonus is worked out for the best matches only: each keystroke stays cheap when a short
  // start of a word matches thousands of courses.
  // Below the best, a match under the threshold can never be shown: it is left out at once.
  const base = [...found].sort((a, b) => b[1].sum - a[1].sum);
  const head = base.slice(0, RERANKED);
  for (let i = RERANKED; i < base.length; i++) if (base[i][1].sum >= CONFIDENCE_THRESHOLD * total) head.push(base[i]);
  const scored = head.map(([id, { sum, raw }], rank) => {
    const phrase = rank < RERANKED ? longestPhrase(phrases(id), primaryPhrases(id), corrected) : 0;
    // A whole job name of the course in the text lifts its confidence halfway to sure: a sentence may name
    // two jobs ("concreting and formwork"), each half of its words.
    const confidence = phrase ? (1 + sum / total) / 2 : sum / total;
    const bonus = 1 + Math.min(1, phrase / Math.max(1, known));
    const level = 1 - 0.04 * Math.min(levelRank(courses[id].level), 6);
    // How MiniSearch ranks the words (field boosts, BM25) only breaks near ties.
    return { id, confidence, score: confidence * bonus * level * (1 + (0.1 * raw) / total) };
  });
  scored.sort((a, b) => b.score - a.score || byLevelThenTitle(courses[a.id], courses[b.id]));
  return { scored, notOffered: trade, codeHits };
}

const byLevelThenTitle = (a: SearchableCourse, b: SearchableCourse) =>
  levelRank(a.level) - levelRank(b.level) || a.title.localeCompare(b.title);

/**
 * Course search, read the way workers write: free sentences of any length up to SEARCH_MAX_LENGTH ("I have
 * 10 years as a carpenter"), job names and slang from content/search-terms.json, misspellings (1-2 letters
 * in words of 5 or more), the start of the word being typed, and codes in any case (an exact code comes
 * first). Only matches at or above CONFIDENCE_THRESHOLD are returned, best first; a trade the catalogue
 * lacks gives no result at all (see readNotOffered). Category slug and level filter. Without text:
 * everything, lowest level first.
 */
export function answerSearch<T extends SearchableCourse>(courses: readonly T[], query: SearchQuery): SearchAnswer<T> {
  const level = query.level?.trim().toLowerCase();
  const category = query.category?.trim().toLowerCase();
  const passes = (course: T) =>
    (!category || course.category === category) && (!level || course.level.toLowerCase() === level);
  const text = query.search?.trim() ?? '';
  if (!text) return { courses: courses.filter(passes).sort(byLevelThenTitle), notOffered: null };

  const { scored, notOffered, codeHits } = scoreCourses(courses, text);
  const seen = new Set<number>();
  const out: T[] = [];
  const push = (i: number) => {
    if (seen.has(i) || !passes(courses[i])) return;
    seen.add(i);
    out.push(courses[i]);
  };
  codeHits.forEach(push);
  // Only confident matches, and none far behind the best (a sentence's side words reach other trades).
  const floor = (scored[0]?.score ?? 0) * RELATIVE_THRESHOLD;
  for (const r of scored) if (r.confidence >= CONFIDENCE_THRESHOLD && r.score >= floor) push(r.id);
  return { courses: out, notOffered: out.length ? null : notOffered };
}

/** The courses of answerSearch. */
export const searchCourses = <T extends SearchableCourse>(courses: readonly T[], query: SearchQuery): T[] =>
  answerSearch(courses, query).courses;

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
