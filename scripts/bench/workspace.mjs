// A throwaway copy of the project for the bench: its own build output, its own .env and its own local
// blob store, so a developer's data, build and running server are never touched. node_modules is
// linked, not copied.
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT = fileURLToPath(new URL('../..', import.meta.url));

/** Top-level entries never copied: dependencies, outputs, local state and secrets. */
const SKIP = new Set([
  'node_modules',
  '.git',
  '.netlify',
  '.astro',
  'dist',
  '.env',
  'test-results',
  'playwright-report',
  'coverage',
  'screenshots',
  '.local',
]);

export async function makeWorkspace(label) {
  const dir = await mkdtemp(join(tmpdir(), `rpl-bench-${label}-`));
  await cp(PROJECT, dir, {
    recursive: true,
    filter: (source) => {
      const path = relative(PROJECT, source);
      return path === '' || !SKIP.has(path.split(sep)[0]);
    },
  });
  await symlink(join(PROJECT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
