import { describe, expect, it } from 'vitest';
import coursesJson from '../../content/courses.json';
import categoriesJson from '../../content/categories.json';
import rawChecklists from '../../content/evidence-checklists.json';
import { evidenceChecklists, evidenceFor, parseChecklists } from '../../src/catalogue/evidence';
import { MAX_SUGGESTED, matchQualifications, resultItems } from '../../src/catalogue/quote-result';
import { repositoryCatalogue } from '../../src/catalogue/index';
import { matchCodes, resultFor } from '../../src/server/quote-result';

const { summaries } = repositoryCatalogue();

const codesOf = (matches: { course: { code: string } }[]) => matches.map((m) => m.course.code);

describe('evidence checklists (content/evidence-checklists.json)', () => {
  it('has a list for every category and only for real categories', () => {
    const slugs = categoriesJson.map((c) => c.slug).sort();
    expect(Object.keys(evidenceChecklists.categories).sort()).toEqual(slugs);
  });
  it('adds to courses of the catalogue only', () => {
    const codes = new Set(coursesJson.map((c) => c.code));
    expect(Object.keys(evidenceChecklists.courses).filter((code) => !codes.has(code))).toEqual([]);
  });
  it('gives every published course a checklist: its own additions, its category, then the common list', () => {
    for (const course of coursesJson)
      expect(evidenceFor(course).length).toBeGreaterThanOrEqual(evidenceChecklists.common.length + 2);
    const carpentry = evidenceFor({ code: 'CPC30220', category: 'civil-construction' });
    expect(carpentry[0]).toMatch(/framing/);
    expect(carpentry).toContain(evidenceChecklists.categories['civil-construction'][0]);
    expect(carpentry.at(-1)).toBe(evidenceChecklists.common.at(-1));
  });
  it('refuses a malformed file naming the field', () => {
    expect(() =>
      parseChecklists({ ...rawChecklists, categories: { 'Not A Slug': ['Payslips showing your role'] } }),
    ).toThrow(/categories/);
    expect(() => parseChecklists({ ...rawChecklists, common: [] })).toThrow(/common/);
    expect(() => parseChecklists({ ...rawChecklists, extra: 1 })).toThrow();
  });
});

describe('matchQualifications', () => {
  const notSure = (experience: string, selectedCategories: string[] = [], goals = '') =>
    codesOf(matchQualifications({ selectedCourses: [], selectedCategories, experience, goals }, summaries));
  const construction = new Set(summaries.filter((c) => c.category === 'civil-construction').map((c) => c.code));

  it('lists the chosen courses first, then confident matches of the text only', () => {
    const matches = matchQualifications(
      {
        selectedCourses: ['CPC30220'],
        selectedCategories: ['civil-construction'],
        experience: 'Concreting and formwork on house slabs',
        goals: '',
      },
      summaries,
    );
    expect(matches[0]).toMatchObject({ course: { code: 'CPC30220' }, selected: true });
    expect(codesOf(matches)).toContain('CPC30320');
    expect(matches.length).toBeLessThanOrEqual(1 + MAX_SUGGESTED);
    expect(matches.slice(1).every((m) => !m.selected)).toBe(true);
  });
  it('with "Not sure", matches the experience within the chosen category', () => {
    const codes = notSure('Ten years as a carpenter framing houses', ['civil-construction'], 'get my trade papers');
    expect(codes[0]).toBe('CPC30220');
    expect(codes.every((code) => construction.has(code))).toBe(true);
  });
  it('finds qualifications across categories from the text alone', () => {
    expect(notSure('hairdresser in a busy salon')).toContain('SHB30416');
    expect(notSure('childcare educator in a long day care room')[0]).toMatch(/^CHC[35]0125$/);
  });
  it('finding 1: an electrician ticking "Not sure" is suggested no construction trade (honest empty)', () => {
    expect(notSure('A grade electrician trained in UK, 12 years on commercial sites', ['civil-construction'])).toEqual(
      [],
    );
    expect(notSure('electrician', ['civil-construction'])).toEqual([]);
    expect(notSure('Sparky for 10 years, domestic and commercial wiring')).toEqual([]);
  });
  it("finding 1: a text that names nothing listed gives no suggestion, not the category's featured courses", () => {
    expect(notSure('hello', ['information-technology'])).toEqual([]);
    expect(notSure('real estate agent for 8 years', ['business-administration'])).toEqual([]);
  });
  it('finding 1: a personal care worker in a nursing home is offered aged care first', () => {
    const codes = notSure('personal care worker in a nursing home');
    expect(codes[0]).toBe('CHC33021');
    expect(codes).not.toContain('CHC40321');
    expect(notSure('carer')[0]).toBe('CHC33021');
  });
  it('finding 1: courses chosen explicitly are always shown, whatever the text says', () => {
    const matches = matchQualifications(
      { selectedCourses: ['BSB50120'], selectedCategories: [], experience: 'electrician', goals: '' },
      summaries,
    );
    expect(matches).toEqual([{ course: expect.objectContaining({ code: 'BSB50120' }), selected: true }]);
  });
  it('never lists a course twice and shows at most five chosen ones', () => {
    const chosen = summaries
      .filter((c) => c.category === 'civil-construction')
      .slice(0, 8)
      .map((c) => c.code);
    const matches = matchQualifications(
      { selectedCourses: chosen, selectedCategories: ['civil-construction'], experience: 'carpentry' },
      summaries,
    );
    expect(matches.filter((m) => m.selected)).toHaveLength(5);
    expect(new Set(codesOf(matches)).size).toBe(matches.length);
  });
});

describe('the result over the catalogue', () => {
  it('gives each match its checklist and what RPL cannot give (the regulatory requirements)', () => {
    const codes = matchCodes(repositoryCatalogue(), {
      selectedCourses: ['CPC30220'],
      selectedCategories: ['civil-construction'],
      experience: '',
      goals: '',
    });
    const [first] = resultFor(repositoryCatalogue(), codes, ['CPC30220']);
    expect(first).toMatchObject({ code: 'CPC30220', selected: true, categoryName: expect.any(String) });
    expect(first.evidence).toEqual(evidenceFor({ code: 'CPC30220', category: 'civil-construction' }));
    expect(first.notIncluded).toMatch(/white card/i);
  });
  it('leaves out codes no longer in the catalogue', () => {
    expect(resultFor(repositoryCatalogue(), ['ZZZ99999'], [])).toEqual([]);
  });
  it('builds items from matches with a lookup', () => {
    const course = summaries[0];
    expect(resultItems([{ course, selected: false }], () => undefined)[0]).toMatchObject({
      code: course.code,
      notIncluded: '',
    });
  });
});
