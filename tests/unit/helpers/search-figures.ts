/**
 * Figures of the course search over the labelled phrases (tests/fixtures/search-phrases.json, the tuning
 * part, and search-phrases-holdout.json, held out): shared by the recall test and `npm run bench`.
 *
 * A phrase names the qualification expected first (`code`), others that are as right (`also`, e.g. the
 * Certificate IV of the same job), or `code: null` for a trade the catalogue lacks.
 */
import { answerSearch, type SearchableCourse } from '../../../src/lib/course-search';

export interface LabelledPhrase {
  phrase: string;
  code: string | null;
  also?: string[];
}

export interface SearchFigures {
  phrases: number;
  /** Phrases naming a listed qualification, and of those: expected (or an equally right one) first / in the first 10. */
  offered: number;
  recallAt1: number;
  recallAt10: number;
  /** Phrases whose first answer is another trade (for a trade not offered: any answer at all). */
  wrongFirst: number;
  /** Phrases naming a listed qualification that got no answer. */
  emptyOffered: number;
  /** Phrases naming a trade not offered, and the share of them answered with nothing. */
  notOffered: number;
  honestEmpty: number;
  misses: string[];
}

/** "Certificate IV in Hairdressing" and "Certificate III in Hairdressing" are the same trade. */
const trade = (title: string) =>
  title.replace(/^(graduate |advanced )?(certificate|diploma)( [ivx]+)?( of| in)?\s+/i, '').toLowerCase();

export function searchFigures(courses: readonly SearchableCourse[], phrases: readonly LabelledPhrase[]): SearchFigures {
  const byCode = new Map(courses.map((c) => [c.code, c]));
  let offered = 0;
  let at1 = 0;
  let at10 = 0;
  let wrongFirst = 0;
  let emptyOffered = 0;
  let notOffered = 0;
  let honest = 0;
  const misses: string[] = [];
  for (const { phrase, code, also = [] } of phrases) {
    const found = answerSearch(courses, { search: phrase }).courses.map((c) => c.code);
    if (code === null) {
      notOffered++;
      if (found.length === 0) honest++;
      else {
        wrongFirst++;
        misses.push(`"${phrase}" (not offered) -> ${found.slice(0, 3).join(', ')}`);
      }
      continue;
    }
    offered++;
    const right = new Set([code, ...also]);
    const position = found.findIndex((c) => right.has(c));
    if (position === 0) at1++;
    if (position >= 0 && position < 10) at10++;
    if (!found.length) emptyOffered++;
    const first = found[0] && byCode.get(found[0]);
    const expected = byCode.get(code);
    if (first && expected && position !== 0 && trade(first.title) !== trade(expected.title)) wrongFirst++;
    if (position !== 0)
      misses.push(
        `"${phrase}" -> ${code} at ${position === -1 ? 'none' : position + 1} of ${found.length}${first ? `, first ${first.code} ${first.title}` : ''}`,
      );
  }
  return {
    phrases: phrases.length,
    offered,
    recallAt1: at1 / Math.max(1, offered),
    recallAt10: at10 / Math.max(1, offered),
    wrongFirst,
    emptyOffered,
    notOffered,
    honestEmpty: honest / Math.max(1, notOffered),
    misses,
  };
}

export function formatFigures(name: string, f: SearchFigures): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    `${name}: ${f.phrases} phrases (${f.offered} listed trades, ${f.notOffered} not offered)`,
    `  recall@1          ${pct(f.recallAt1)}`,
    `  recall@10         ${pct(f.recallAt10)}`,
    `  wrong trade first ${f.wrongFirst} (${pct(f.wrongFirst / Math.max(1, f.phrases))})`,
    `  honest empty      ${pct(f.honestEmpty)} of not-offered trades; ${f.emptyOffered} listed trade(s) answered empty`,
  ].join('\n');
}
