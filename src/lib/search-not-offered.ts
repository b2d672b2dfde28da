import { NOT_OFFERED } from './job-words';
import { spansOf } from './search-index';
import { queryWords } from './search-words';

/**
 * Trades the catalogue lacks ("electrician"): found in a search text, even misspelt by a letter, so the search
 * can say so honestly instead of offering an unrelated qualification.
 */

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
export function likeliest(words: readonly string[]): string {
  const counts = new Map<string, number>();
  let best = words[0];
  for (const word of words) {
    const n = (counts.get(word) ?? 0) + 1;
    counts.set(word, n);
    if (n > (counts.get(best) ?? 0)) best = word;
  }
  return best;
}
