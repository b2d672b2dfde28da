import { describe, expect, it } from 'vitest';
import searchTermsJson from '../../content/search-terms.json';
import { parseSearchTerms } from '../../src/schemas/search-terms';
import { searchTermsWithoutCourse, summaries } from '../../src/server/catalogue';

describe('content/search-terms.json', () => {
  it('is valid', () => {
    expect(() => parseSearchTerms(searchTermsJson)).not.toThrow();
  });

  it('rejects malformed entries, naming the course', () => {
    expect(() => parseSearchTerms({ cpc30220: ['carpenter'] })).toThrow(/Keys are course codes/);
    expect(() => parseSearchTerms({ CPC30220: ['Carpenter'] })).toThrow(/CPC30220.*lower case/);
    expect(() => parseSearchTerms({ CPC30220: ['chippy', 'chippy'] })).toThrow(/listed twice/);
    expect(() => parseSearchTerms({ CPC30220: [] })).toThrow(/at least one/);
  });

  it('gives every course in the catalogue its occupations', () => {
    const missing = summaries.filter((c) => !c.terms?.length).map((c) => c.code);
    expect(missing).toEqual([]);
  });

  it('lists the entries for codes not in the catalogue (ignored by the search)', () => {
    // Superseded or removed codes, successors not yet imported, and trades the catalogue does not offer yet.
    console.info(`search-terms.json entries without a course: ${searchTermsWithoutCourse.join(', ') || 'none'}`);
    const inCatalogue = new Set(summaries.map((c) => c.code));
    expect(searchTermsWithoutCourse.every((code) => !inCatalogue.has(code))).toBe(true);
    // The successors of the superseded codes are ready for when the catalogue switches to them.
    for (const code of ['TLI50224', 'PSP20122', 'PSP40122', 'PSP50122']) expect(Object.keys(searchTermsJson)).toContain(code);
  });
});
