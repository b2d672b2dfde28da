import { COMPOUNDS, FILLER } from './job-words';

/**
 * The words of a search text, shared by the index and the query (./course-search.ts): normalised (accents,
 * Roman numerals, compounds), lightly stemmed, with the words that only set the scene marked.
 */

const ROMAN: Record<string, string> = { '1': 'i', '2': 'ii', '3': 'iii', '4': 'iv' };

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
export function stem(word: string): string {
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

export function readWords(text: string): QueryWord[] {
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

export const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Typo tolerance: none under 5 letters, 1 for 5 to 9 letters, 2 from 10 letters ("bookkeeper" is not "zookeeper"). */
export const fuzziness = (term: string) => (term.length < 5 || /\d/.test(term) ? 0 : term.length < 10 ? 1 : 2);
