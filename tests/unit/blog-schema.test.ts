import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BlogInputSchema } from '../../src/schemas/blog';
import { AddedFactsSchema } from '../../src/schemas/catalogue';

const base = { title: 'A post', excerpt: 'An excerpt.', content: '<p>Hello world</p>' };
const messages = (input: Record<string, unknown>) => {
  const result = v.safeParse(BlogInputSchema, { ...base, ...input });
  return result.success ? [] : result.issues.map((issue) => issue.message);
};

describe('finding 10: blog fields refuse NUL and lone surrogates; blank-looking text counts as empty', () => {
  const textFields = [
    'title',
    'excerpt',
    'author',
    'featuredImageAlt',
    'category',
    'metaTitle',
    'metaDescription',
  ] as const;

  it.each(textFields)('%s refuses a NUL character', (field) => {
    expect(messages({ [field]: 'Hello\u0000world' }).length).toBeGreaterThan(0);
  });

  it.each(textFields)('%s refuses a lone surrogate', (field) => {
    expect(messages({ [field]: 'Hello \ud800 world' }).length).toBeGreaterThan(0);
    expect(messages({ [field]: 'Hello \udc00' }).length).toBeGreaterThan(0);
  });

  it('content, tags and keywords refuse NUL and lone surrogates too', () => {
    expect(messages({ content: '<p>Hello\u0000</p>' }).length).toBeGreaterThan(0);
    expect(messages({ content: '<p>Hello \udbff</p>' }).length).toBeGreaterThan(0);
    expect(messages({ tags: ['ok', 'bad\u0000'] }).length).toBeGreaterThan(0);
    expect(messages({ seoKeywords: ['\ud83d'] }).length).toBeGreaterThan(0);
  });

  it('keeps well-formed text, emoji included', () => {
    expect(messages({ title: 'Tradies 👷 and RPL', excerpt: 'Ça va — 日本語', tags: ['👍'] })).toEqual([]);
  });

  it('title, excerpt and content of only whitespace or control characters are empty, with the required messages', () => {
    expect(messages({ title: '\u0001\u0002 \t\u007f' })).toContain('Title is required');
    expect(messages({ excerpt: '\u200b\u0003\u00a0' })).toContain('Excerpt is required');
    expect(messages({ content: '<p>\u0001 \u0008</p>' })).toContain('Content is required');
    expect(messages({ content: '\u0005\u0006' })).toContain('Content is required');
  });
});

describe('finding 6: impossible dates are refused with a clear message', () => {
  const REAL =
    /^The publish time is not a real date and time: use a day that exists \(not 30 February\) in the years 2000 to 9999$/;

  it.each([
    '2026-02-30T10:00:00.000Z',
    '2026-02-29T10:00Z',
    '2026-04-31T09:30+10:00',
    '0000-01-01T00:00:00.000Z',
    '1999-12-31T23:59Z',
    '2026-05-01T24:00Z',
    '2026-05-01T10:60Z',
    '2026-05-01T10:00:60Z',
    '2026-05-01T10:00+24:00',
  ])('finding 6: publishAt %s is refused', (publishAt) => {
    const found = messages({ publishAt });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(REAL);
  });

  it('finding 6: real times are kept, as UTC, while 30 February is not', () => {
    expect(messages({ publishAt: '2026-02-30T10:00Z' })[0]).toMatch(REAL);
    for (const [publishAt, stored] of [
      ['2028-02-29T09:00:00.000Z', '2028-02-29T09:00:00.000Z'],
      ['2026-03-01T10:00+10:00', '2026-03-01T00:00:00.000Z'],
      ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
    ]) {
      const result = v.safeParse(BlogInputSchema, { ...base, publishAt });
      expect(result.success, publishAt).toBe(true);
      expect(result.output).toMatchObject({ publishAt: stored });
    }
    expect(messages({ publishAt: 'tomorrow' })).toEqual(['The publish time must be a date and time']);
  });

  it('finding 6: a qualification checked on 30 February or in year 0 is refused too', () => {
    const facts = {
      title: 'Certificate III in Test Carpentry',
      level: 'Certificate III',
      category: 'civil-construction',
      source: 'https://training.gov.au/Training/Details/CPC39999',
    };
    expect(v.safeParse(AddedFactsSchema, { ...facts, checkedOn: '2026-11-20' }).success).toBe(true);
    for (const checkedOn of ['2026-02-30', '0000-01-01', '0999-05-05']) {
      const result = v.safeParse(AddedFactsSchema, { ...facts, checkedOn });
      expect(result.success, checkedOn).toBe(false);
      expect(result.issues?.[0]?.message).toMatch(/^Not a real calendar date/);
    }
  });
});
