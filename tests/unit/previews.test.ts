/**
 * Deploy previews and branch deploys never touch production's files: their stores belong to their own deploy.
 * (Records are safe already: each deploy preview gets a branch of the database.) And a staff token signed in one
 * of them is refused by production (tests/unit/auth.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStores } from './helpers/stores';
import { fileStore } from '../../src/platform/blobs';
import { deployContext, isPreview } from '../../src/platform/site';

type NetlifyGlobal = { Netlify?: { context?: { deploy?: { context?: string } } | null } };
const netlify = globalThis as NetlifyGlobal;

/** Runs `work` as a request of a deploy in the given context would. */
async function inContext<T>(context: string, work: () => Promise<T>): Promise<T> {
  const before = netlify.Netlify;
  netlify.Netlify = { ...before, context: { deploy: { context } } };
  try {
    return await work();
  } finally {
    netlify.Netlify = before;
  }
}

let stores: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  stores = await startStores();
});
afterAll(() => stores.stop());

describe('files of previews and of production stay apart', () => {
  it('knows the context of the request it serves', async () => {
    expect(await inContext('deploy-preview', async () => [deployContext(), isPreview()])).toEqual([
      'deploy-preview',
      true,
    ]);
    expect(await inContext('branch-deploy', async () => isPreview())).toBe(true);
    expect(await inContext('production', async () => isPreview())).toBe(false);
  });

  it("a preview reads none of production's evidence, and what it writes never reaches production", async () => {
    const key = 'chunk/0123456789abcdef0123456789abcdef/0';
    await inContext('production', () => fileStore('evidence').set(key, 'production evidence'));
    expect(await inContext('production', () => fileStore('evidence').get(key))).toBe('production evidence');

    expect(await inContext('deploy-preview', () => fileStore('evidence').get(key))).toBeNull();
    await inContext('deploy-preview', () => fileStore('evidence').set(key, 'preview evidence'));
    expect(await inContext('deploy-preview', () => fileStore('evidence').get(key))).toBe('preview evidence');
    expect(await inContext('production', () => fileStore('evidence').get(key))).toBe('production evidence');
  });
});
