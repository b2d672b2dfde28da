import { describe, expect, it } from 'vitest';
import { applyPreselect, hasPreselect, readPreselectParams, resolvePreselect } from '../../src/islands/quote/preselect';
import { emptyDraft } from '../../src/islands/quote/steps';
import { searchCourses } from '../../src/lib/course-search';
import { repositoryCatalogue } from '../../src/catalogue/index';

const {
  summaries,
  api: { categories },
} = repositoryCatalogue();

const quoteCourses = summaries.map(({ code, title, level, category }) => ({ code, title, level, category }));
const quoteCategories = categories.map(({ slug, name }) => ({ slug, name }));

describe('readPreselectParams', () => {
  it('reads a course code in any case and trims it', () => {
    expect(readPreselectParams('?course=%20cpc30220%20')).toEqual({ course: 'CPC30220' });
  });
  it('ignores codes that cannot be codes and blank words', () => {
    expect(readPreselectParams('?course=<script>&search=%20%20')).toEqual({});
    expect(readPreselectParams('?course=AB')).toEqual({});
    expect(hasPreselect(readPreselectParams(''))).toBe(false);
  });
  it('folds spaces in search words and cuts them at 100 characters', () => {
    expect(readPreselectParams('?search=cert++3+%20carpentry')).toEqual({ search: 'cert 3 carpentry' });
    expect(readPreselectParams(`?search=${'a'.repeat(300)}`).search).toHaveLength(100);
  });
});

describe('resolvePreselect', () => {
  it('takes a known code with its category', () => {
    expect(resolvePreselect({ course: 'CPC30220' }, quoteCourses, quoteCategories)).toEqual({
      code: 'CPC30220',
      category: 'civil-construction',
      via: 'course',
    });
  });
  it('gives nothing for an unknown code without words', () => {
    expect(resolvePreselect({ course: 'ZZZ99999' }, quoteCourses, quoteCategories, searchCourses)).toBeNull();
  });
  it('picks the best match of the course search for words', () => {
    const found = resolvePreselect({ search: 'cert 3 carpentry' }, quoteCourses, quoteCategories, searchCourses);
    expect(found).toEqual({ code: 'CPC30220', category: 'civil-construction', via: 'search' });
    expect(resolvePreselect({ search: 'CHC33021' }, quoteCourses, quoteCategories, searchCourses)?.code).toBe(
      'CHC33021',
    );
  });
  it('falls back to the words when the code is unknown', () => {
    expect(
      resolvePreselect(
        { course: 'ZZZ99999', search: 'individual support' },
        quoteCourses,
        quoteCategories,
        searchCourses,
      )?.code,
    ).toBe('CHC33021');
  });
  it('gives nothing when the search finds nothing', () => {
    expect(resolvePreselect({ search: 'qwertyuiop' }, quoteCourses, quoteCategories, searchCourses)).toBeNull();
  });
});

describe('applyPreselect', () => {
  it('adds the course and its category once, keeping earlier choices', () => {
    const draft = { ...emptyDraft(), selectedCategories: ['health-fitness'], selectedCourses: ['SIS30321'] };
    const once = applyPreselect(draft, { code: 'CPC30220', category: 'civil-construction', via: 'course' });
    expect(once).toMatchObject({
      selectedCategories: ['health-fitness', 'civil-construction'],
      selectedCourses: ['SIS30321', 'CPC30220'],
    });
    expect(applyPreselect(once, { code: 'CPC30220', category: 'civil-construction', via: 'course' })).toEqual(once);
  });
});
