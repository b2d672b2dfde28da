import type { SearchableCourse } from './search-index';
export type { SearchableCourse };
import { levelRank } from './catalogue';
import { REAL_WORDS } from './job-words';
import {
  BOOST,
  FIELD_WEIGHT,
  FUZZY_WEIGHT,
  PREFIX_WEIGHT,
  SCENE_WEIGHT,
  UNKNOWN_WEIGHT,
  indexFor,
  longestPhrase,
  spansOf,
} from './search-index';
import { likeliest, readNotOffered } from './search-not-offered';
import { fuzziness, normalise, readWords, squash } from './search-words';

/**
 * The one course search of the site: the search page (server and island), the header modal, the hero
 * suggestions, the quote wizard's course filter and GET /api/courses all call searchCourses, which
 * builds (once per catalogue array) a MiniSearch index over code, title, occupations, category and level.
 * This file scores and answers; the words of a text are read in ./search-words.ts, the index is built in
 * ./search-index.ts and the trades the catalogue lacks are found in ./search-not-offered.ts.
 */

export interface SearchQuery {
  search?: string;
  /** category slug */
  category?: string;
  level?: string;
}

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
