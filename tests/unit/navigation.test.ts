import { describe, expect, it } from 'vitest';
import { isActive, mainNav, quickLinks } from '../../src/lib/navigation';
import { searchHref } from '../../src/lib/search-url';

describe('main navigation', () => {
  it('has the five links in order', () => {
    expect(mainNav.map((l) => l.href)).toEqual(['/', '/courses', '/about', '/contact', '/how-rpl-works']);
  });
  it('highlights Home only on the home page', () => {
    expect(isActive('/', '/')).toBe(true);
    expect(isActive('/', '/about')).toBe(false);
  });
  it('highlights Courses on course, category and search pages', () => {
    for (const path of ['/courses', '/courses/BSB50120', '/category/health-fitness', '/search']) {
      expect(isActive('/courses', path)).toBe(true);
    }
    expect(isActive('/courses', '/coursesx')).toBe(false);
  });
  it('ignores a trailing slash', () => {
    expect(isActive('/about', '/about/')).toBe(true);
  });
  it('matches pre-rendered file names too', () => {
    expect(isActive('/about', '/about.html')).toBe(true);
    expect(isActive('/', '/index.html')).toBe(true);
  });
  it('lists the footer quick links in order', () => {
    expect(quickLinks.map((l) => l.href)).toEqual([
      '/courses',
      '/about',
      '/faq',
      '/privacy-policy',
      '/terms-conditions',
      '/blog',
    ]);
  });
});

describe('search address', () => {
  it('does nothing for blank or whitespace-only input', () => {
    expect(searchHref('')).toBeNull();
    expect(searchHref('   \t ')).toBeNull();
  });
  it('trims and encodes the term', () => {
    expect(searchHref('  aged care & disability ')).toBe('/search?search=aged+care+%26+disability');
  });
  it('adds the category and level filters when given', () => {
    expect(searchHref(' ', { category: 'civil-construction', level: 'Diploma' })).toBe(
      '/search?category=civil-construction&level=Diploma',
    );
  });
});
