import { statfsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * The blob-backed tests start local blob servers in temporary folders and write, rename and delete thousands of
 * small files there. Where the system has a memory file system with room to spare (/dev/shm on Linux), those
 * folders go there: on this machine's disk the unit tests spent a quarter of their CPU time in the kernel, and
 * about 13 CPU-seconds less (of 254) in memory. A TMPDIR set by the caller is kept; the test processes inherit it.
 */
function memoryTmpdir(): string | undefined {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    return bavail * bsize >= 2 ** 30 ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}
const inMemory = process.env.TMPDIR ? undefined : memoryTmpdir();
if (inMemory) process.env.TMPDIR = inMemory;

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
    // Builds the migrated database template once per set of migrations (tests/unit/helpers/database.ts).
    globalSetup: ['tests/unit/helpers/database-setup.ts'],
    projects: [
      { extends: true, test: { name: 'pure', include: PURE, isolate: false } },
      {
        extends: true,
        // Files with a database of their own: a statement crosses the loopback to it, and while the site builds
        // beside the unit tests (scripts/test-all.sh) a slow one is not a failure.
        test: { name: 'isolated', include: ['tests/unit/**/*.test.{ts,tsx}'], exclude: PURE, testTimeout: 15_000 },
      },
    ],
  },
});
