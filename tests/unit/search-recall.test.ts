import { describe, expect, it } from 'vitest';
import phrases from '../fixtures/search-phrases.json';
import { searchCourses } from '../../src/lib/course-search';
import { summaries } from '../../src/server/catalogue';

/** Recall of the course search over phrases workers really type (tests/fixtures/search-phrases.json). */
function recall(search: (phrase: string) => string[]) {
  let top1 = 0;
  let top10 = 0;
  const misses: string[] = [];
  for (const { phrase, code } of phrases) {
    const position = search(phrase).indexOf(code);
    if (position === 0) top1++;
    if (position >= 0 && position < 10) top10++;
    if (position !== 0) misses.push(`"${phrase}" -> ${code} at ${position === -1 ? 'none' : position + 1}`);
  }
  return { at1: top1 / phrases.length, at10: top10 / phrases.length, misses };
}

describe('search recall over worker phrases', () => {
  it('has at least 60 phrases, each naming a course in the catalogue', () => {
    expect(phrases.length).toBeGreaterThanOrEqual(60);
    const codes = new Set(summaries.map((c) => c.code));
    expect(phrases.filter((p) => !codes.has(p.code))).toEqual([]);
  });

  it('finds the expected qualification in the first 10 for 90% and first for 75%', () => {
    const { at1, at10, misses } = recall((phrase) => searchCourses(summaries, { search: phrase }).map((c) => c.code));
    console.info(
      `recall@1 ${(at1 * 100).toFixed(1)}%, recall@10 ${(at10 * 100).toFixed(1)}% over ${phrases.length} phrases\n${misses.join('\n')}`,
    );
    expect(at10).toBeGreaterThanOrEqual(0.9);
    expect(at1).toBeGreaterThanOrEqual(0.75);
  });
});
