/**
 * docs/routes.md is the map a newcomer reads: it names every address the functions declare (their
 * `config.path`), every scheduled function and every admin page, and names no API address that does not exist.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const routesDoc = readFileSync(join(root, 'docs/routes.md'), 'utf8');
const functionsDir = join(root, 'netlify/functions');

/** `/api/x/:id/y` and `/api/x/{anything}/y` both become `/api/x/{}/y`; a query string is dropped. */
const shape = (path: string) =>
  path
    .split('?')[0]
    .replace(/:[A-Za-z]+/g, '{}')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\/$/, '');

interface Declared {
  name: string;
  paths: string[];
  schedule?: string;
}

async function declared(): Promise<Declared[]> {
  const files = readdirSync(functionsDir).filter((file) => file.endsWith('.mts'));
  return Promise.all(
    files.map(async (file) => {
      // A function that only the platform calls (deploy events) has no config at all.
      const { config = {} } = (await import(join(functionsDir, file))) as {
        config?: { path?: string | string[]; schedule?: string };
      };
      const paths = config.path === undefined ? [] : [config.path].flat();
      return { name: basename(file, '.mts'), paths, schedule: config.schedule };
    }),
  );
}

/** Every address written in backticks in the doc (a cell may hold several, separated by commas). */
const documented = new Set(
  [...routesDoc.matchAll(/`(\/[^`\s]*)`/g)].map((match) => shape(match[1])).filter((path) => path !== ''),
);

describe('docs/routes.md matches the code', () => {
  it('names every path a function declares', async () => {
    const missing = (await declared()).flatMap((fn) =>
      fn.paths.filter((path) => !documented.has(shape(path))).map((path) => `${path} (${fn.name})`),
    );
    expect(missing).toEqual([]);
  });

  it('names every scheduled function, and every function without an address', async () => {
    const scheduled = (await declared()).filter((fn) => fn.schedule || fn.paths.length === 0);
    expect(scheduled.length).toBeGreaterThan(0);
    expect(scheduled.map((fn) => fn.name).filter((name) => !routesDoc.includes(`\`${name}\``))).toEqual([]);
  });

  it('names no API address that no function declares', async () => {
    const real = new Set((await declared()).flatMap((fn) => fn.paths.map(shape)));
    const stale = [...documented].filter((path) => path.startsWith('/api/') && !real.has(path));
    expect(stale).toEqual([]);
  });

  it('names every admin page', () => {
    const pages = readdirSync(join(root, 'src/pages/admin'))
      .filter((file) => file.endsWith('.astro'))
      .map((file) => `/admin/${basename(file, '.astro')}`);
    expect(pages.filter((page) => !documented.has(page))).toEqual([]);
  });
});
