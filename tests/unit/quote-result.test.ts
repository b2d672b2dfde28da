import { describe, expect, it } from 'vitest';
import coursesJson from '../../content/courses.json';
import categoriesJson from '../../content/categories.json';
import rawChecklists from '../../content/evidence-checklists.json';
import { evidenceChecklists, evidenceFor, parseChecklists } from '../../src/lib/evidence';
import { keywords, matchQualifications, rankByText, resultItems, stem } from '../../src/lib/quote-result';
import { summaries } from '../../src/server/catalogue';
import { matchCodes, resultFor } from '../../src/server/quote-result';

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

describe('keywords', () => {
  it('drops filler, numbers and short words, and stems the rest', () => {
    expect(keywords('I have worked as a carpenter for 12 years on building sites')).toEqual([
      'carpent',
      'build',
      'site',
    ]);
    expect(stem('plumber')).toBe('plumb');
    expect(stem('hairdressing')).toBe('hairdress');
  });
  it('reads everyday words for catalogue terms', () => {
    expect(keywords('childcare educator')).toContain('childhood');
    expect(keywords('security guard at venues')).toContain('security');
  });
});

describe('matchQualifications', () => {
  it('lists the chosen courses first, then fills up to three from the text', () => {
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
    expect(matches).toHaveLength(3);
    expect(matches.slice(1).every((m) => !m.selected)).toBe(true);
  });
  it('with "Not sure", matches the experience within the chosen category', () => {
    const matches = matchQualifications(
      {
        selectedCourses: [],
        selectedCategories: ['civil-construction'],
        experience: 'Ten years as a carpenter framing houses',
        goals: 'get my trade papers',
      },
      summaries,
    );
    expect(codesOf(matches)[0]).toBe('CPC30220');
    expect(matches.every((m) => m.course.category === 'civil-construction')).toBe(true);
  });
  it('finds qualifications across categories from the text alone', () => {
    expect(
      codesOf(
        matchQualifications(
          { selectedCourses: [], selectedCategories: [], experience: 'hairdresser in a busy salon' },
          summaries,
        ),
      ),
    ).toContain('SHB30416');
    expect(
      codesOf(
        matchQualifications(
          { selectedCourses: [], selectedCategories: [], experience: 'childcare educator in a long day care room' },
          summaries,
        ),
      )[0],
    ).toMatch(/^CHC[35]0125$/);
  });
  it("falls back to the category's featured courses when the text says nothing useful", () => {
    const matches = matchQualifications(
      { selectedCourses: [], selectedCategories: ['information-technology'], experience: 'hello' },
      summaries,
    );
    expect(matches.length).toBeGreaterThan(0);
    expect(matches.every((m) => m.course.category === 'information-technology')).toBe(true);
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
    expect(matches).toHaveLength(5);
    expect(new Set(codesOf(matches)).size).toBe(5);
  });
  it('ranks by text only within the pool it is given', () => {
    expect(rankByText('carpentry', [])).toEqual([]);
  });
});

describe('the result over the catalogue', () => {
  it('gives each match its checklist and what RPL cannot give (the regulatory requirements)', () => {
    const codes = matchCodes({
      selectedCourses: ['CPC30220'],
      selectedCategories: ['civil-construction'],
      experience: '',
      goals: '',
    });
    const [first] = resultFor(codes, ['CPC30220']);
    expect(first).toMatchObject({ code: 'CPC30220', selected: true, categoryName: expect.any(String) });
    expect(first.evidence).toEqual(evidenceFor({ code: 'CPC30220', category: 'civil-construction' }));
    expect(first.notIncluded).toMatch(/white card/i);
  });
  it('leaves out codes no longer in the catalogue', () => {
    expect(resultFor(['ZZZ99999'], [])).toEqual([]);
  });
  it('builds items from matches with a lookup', () => {
    const course = summaries[0];
    expect(resultItems([{ course, selected: false }], () => undefined)[0]).toMatchObject({
      code: course.code,
      notIncluded: '',
    });
  });
});
