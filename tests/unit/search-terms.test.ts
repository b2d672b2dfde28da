import { describe, expect, it } from 'vitest';
import searchTermsJson from '../../content/search-terms.json';
import { parseSearchTerms } from '../../src/schemas/search-terms';
import { repositoryCatalogue } from '../../src/catalogue/index';

const { searchTermsWithoutCourse, summaries } = repositoryCatalogue();

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

  it('has no entries for codes outside the catalogue (a removed or superseded code takes its words with it)', () => {
    expect(searchTermsWithoutCourse).toEqual([]);
  });
});
