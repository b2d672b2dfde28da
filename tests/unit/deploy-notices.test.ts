/**
 * A failed production build shows as failed in the admin: Netlify runs the site's deploy event handlers
 * (netlify/functions/deploy-events.mts) when a deploy starts, goes live or fails, and the rebuild status a save
 * asked for reads what they kept.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeployFailedEvent } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { db, sql } from '../../src/platform/database';
import { rebuildStatus, requestRebuild } from '../../src/server/rebuild';
import events from '../../netlify/functions/deploy-events.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  stores = await startStores();
});
afterAll(() => stores.stop());
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** The event Netlify hands the handlers, as its types describe it. */
const event = (id: string, context: string, errorMessage: string | null = null): DeployFailedEvent => ({
  deploy: {
    id,
    siteId: 'site',
    buildId: null,
    state: errorMessage ? 'error' : 'ready',
    errorMessage,
    url: 'https://rpl.example',
    sslUrl: 'https://rpl.example',
    permalinkUrl: `https://${id}--rpl.netlify.app`,
    adminUrl: 'https://app.netlify.com/projects/rpl',
    context,
    branch: 'main',
    commitRef: null,
    commitUrl: null,
    commitMessage: null,
    committer: null,
    title: null,
    createdAt: new Date().toISOString(),
    publishedAt: null,
    time: null,
    manual: false,
    framework: 'astro',
  },
  site: { id: 'site', name: 'rpl', url: 'https://rpl.example', adminUrl: 'https://app.netlify.com/projects/rpl' },
});
const kept = async () => (await db().query<{ n: number }>(sql`SELECT count(*)::int AS n FROM deploy_events`))[0].n;

describe("Netlify's deploy events", () => {
  it("shows a rebuild a save asked for as building, then failed with Netlify's reason", async () => {
    vi.stubEnv('BUILD_HOOK_URL', 'https://api.netlify.com/build_hooks/rehearsal');
    vi.stubGlobal('fetch', async () => new Response('', { status: 200 }));
    await requestRebuild('settings-admin', 'deploy-that-took-the-save');
    expect((await rebuildStatus('deploy-that-took-the-save')).state).toBe('requested');
    await events.deployBuilding!(event('def456', 'production'));
    expect((await rebuildStatus('deploy-that-took-the-save')).state).toBe('building');
    // A preview's news is not production's.
    await events.deploySucceeded!(event('aaa111', 'deploy-preview'));
    expect((await rebuildStatus('deploy-that-took-the-save')).state).toBe('building');
    await events.deployFailed!(event('def456', 'production', 'Build script returned non-zero exit code: 2'));
    expect(await rebuildStatus('deploy-that-took-the-save')).toMatchObject({
      state: 'failed',
      message: 'Build script returned non-zero exit code: 2',
    });
    // The next save's build goes live.
    await requestRebuild('settings-admin', 'deploy-that-took-the-save');
    await events.deploySucceeded!(event('fed789', 'production'));
    expect((await rebuildStatus('deploy-that-took-the-save')).state).toBe('live');
    expect(await kept()).toBe(3);
  });

  it('keeps nothing of a deploy id that is not one', async () => {
    const before = await kept();
    await events.deployFailed!(event("x'); DROP TABLE deploy_events; --", 'production', 'no'));
    expect(await kept()).toBe(before);
  });
});
