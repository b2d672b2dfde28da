import { defineConfig } from 'vitest/config';

/**
 * Test files that only call pure code: no blob server, no mocked modules, no environment variables, no
 * DOM and nothing left running. They share one worker and its module cache (isolate: false), which saves
 * a worker start and a fresh import of the catalogue per file. Every other file, and any new one, runs in
 * a worker of its own; list a file here only if it stays that pure.
 */
const PURE = [
  'blog-sanitize',
  'blog-schema',
  'catalogue-api',
  'catalogue-content',
  'catalogue-integrity',
  'category-icons',
  'content',
  'copy-consistency',
  'course-search',
  'dates',
  'inquiry-schema',
  'launch-readiness',
  'malformed-escapes',
  'motion',
  'navigation',
  'quote-preselect',
  'quote-result',
  'request-layer',
  'search-recall',
  'search-terms',
  'security-headers',
  'site-settings',
].map((name) => `tests/unit/${name}.test.ts`);

export default defineConfig({
  test: {
    environment: 'node',
    restoreMocks: true,
    projects: [
      { extends: true, test: { name: 'pure', include: PURE, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ['tests/unit/**/*.test.{ts,tsx}'], exclude: PURE } },
    ],
  },
});
