import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BlogInputSchema } from '../../src/schemas/blog';

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
