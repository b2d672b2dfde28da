import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { listActivity } from '../../src/server/activity';
import settingsHandler from '../../netlify/functions/site-settings.mts';

/** `npm start`'s local build hook: records each build it is asked for and says it is building. */
const builds: { path: string; secret: string | undefined }[] = [];
let hook: Server;
let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';
/** The hook refuses the next build asked for (a build hook that is down). */
let failNextBuild = false;

beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  token = await signedInStaff({ username: 'settings-rebuild', firstName: 'Rae', lastName: 'Builder' });
  hook = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.method === 'POST') {
      builds.push({ path: request.url ?? '', secret: request.headers['x-local-secret'] as string | undefined });
      if (failNextBuild) {
        failNextBuild = false;
        response.statusCode = 500;
      }
      response.end('{}');
      return;
    }
    response.end(JSON.stringify({ state: 'building', startedAt: new Date().toISOString() }));
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('LOCAL_BUILD_HOOK_URL', `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`);
  vi.stubEnv('LOCAL_BUILD_HOOK_TOKEN', 'local-secret');
  vi.stubEnv('BUILD_HOOK_URL', '');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  hook.close();
  await stores.stop();
});
beforeEach(async () => {
  builds.length = 0;
  await stores.engine.exec('TRUNCATE site_settings, site_settings_versions, rebuild_requests');
});

const call = (path: string, init: RequestInit = {}) =>
  settingsHandler(
    new Request(`http://localhost${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    }),
  );

/** Saves a new phone number while the build hook is down; answers the settings as stored, the rebuild failed. */
async function savedWithFailedRebuild(phone: string) {
  const loaded = await (await call('/api/admin/site-settings')).json();
  failNextBuild = true;
  const first = await call('/api/admin/site-settings', {
    method: 'POST',
    body: JSON.stringify({ ...loaded, contactInfo: { ...loaded.contactInfo, phone } }),
  });
  expect((await first.json()).rebuild).toMatchObject({ state: 'failed' });
  return await (await call('/api/admin/site-settings')).json();
}

describe('a settings save rebuilds the pages as a catalogue save does', () => {
  it('finding 5: a settings save asks the local build hook for a rebuild and says when the change will show', async () => {
    const loaded = await (await call('/api/admin/site-settings')).json();
    const answer = await call('/api/admin/site-settings', {
      method: 'POST',
      body: JSON.stringify({ ...loaded, contactInfo: { ...loaded.contactInfo, phone: '02 5550 2222' } }),
    });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(builds).toEqual([{ path: '/build', secret: 'local-secret' }]);
    expect(body.rebuild).toMatchObject({ state: 'requested', requestedBy: 'settings-rebuild' });
    expect(body.note).toMatch(/when the rebuild below is live/);
    expect(body.note).not.toMatch(/at once/);

    // The settings screen follows the same rebuild the catalogue screens show.
    const status = await call('/api/admin/site-settings/rebuild');
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ state: 'building', requestedBy: 'settings-rebuild' });
  });

  it('a save that changes nothing stores nothing, asks for no rebuild and logs nothing', async () => {
    const start = await (await call('/api/admin/site-settings')).json();
    const first = await call('/api/admin/site-settings', {
      method: 'POST',
      body: JSON.stringify({ ...start, contactInfo: { ...start.contactInfo, phone: '02 5550 3333' } }),
    });
    expect(first.status).toBe(200);
    expect(builds).toHaveLength(1);
    const loaded = await (await call('/api/admin/site-settings')).json();
    const entries = async () => (await listActivity({ offset: 0, limit: 1 })).total;
    const logged = await entries();
    expect(logged).toBeGreaterThan(0);
    const versions = async () =>
      (await stores.engine.query('SELECT version FROM site_settings_versions ORDER BY version')).rows;
    const kept = await versions();

    const again = await call('/api/admin/site-settings', { method: 'POST', body: JSON.stringify(loaded) });
    expect(again.status).toBe(200);
    const body = await again.json();
    expect(body.message).toBe('Settings saved successfully!');
    expect(body.note).toBe('Nothing had changed, so the public pages were not rebuilt.');
    expect(body.rebuild).toBeUndefined();
    expect(body.settings.version).toBe(loaded.version);
    expect(builds).toHaveLength(1);
    expect(await entries()).toBe(logged);
    expect(await versions()).toEqual(kept);
    expect((await (await call('/api/admin/site-settings')).json()).version).toBe(loaded.version);

    // The same content over a newer version is still the conflict it was.
    const stale = await call('/api/admin/site-settings', {
      method: 'POST',
      body: JSON.stringify({ ...loaded, version: loaded.version - 1 }),
    });
    expect(stale.status).toBe(409);
  });

  it('a save of staff notes only (a claim source, the reply-to address) is stored and logged, and rebuilds nothing', async () => {
    const loaded = await (await call('/api/admin/site-settings')).json();
    const source = 'Client survey of 2026, checked by the office manager';
    const answer = await call('/api/admin/site-settings', {
      method: 'POST',
      body: JSON.stringify({
        ...loaded,
        contactInfo: { ...loaded.contactInfo, replyTo: 'office@example.com' },
        claims: { ...loaded.claims, successRate: { ...loaded.claims.successRate, source } },
      }),
    });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.rebuild).toBeUndefined();
    expect(body.note).toMatch(/^Only staff notes changed .* so they were not rebuilt\.$/);
    expect(builds).toEqual([]);
    const saved = await (await call('/api/admin/site-settings')).json();
    expect(saved.version).toBe(loaded.version + 1);
    expect(saved.claims.successRate.source).toBe(source);
    expect(saved.contactInfo.replyTo).toBe('office@example.com');
    expect((await listActivity({ offset: 0, limit: 1 })).total).toBeGreaterThan(0);

    // The next change visitors see rebuilds as before.
    const visible = await call('/api/admin/site-settings', {
      method: 'POST',
      body: JSON.stringify({ ...saved, contactInfo: { ...saved.contactInfo, phone: '02 5550 5555' } }),
    });
    expect((await visible.json()).rebuild).toMatchObject({ state: 'requested' });
    expect(builds).toHaveLength(1);
  });

  it('a save of staff notes only still retries a rebuild that failed', async () => {
    const saved = await savedWithFailedRebuild('02 5550 6666');
    const again = await call('/api/admin/site-settings', {
      method: 'POST',
      body: JSON.stringify({ ...saved, contactInfo: { ...saved.contactInfo, replyTo: 'office@example.com' } }),
    });
    const body = await again.json();
    expect(body.rebuild).toMatchObject({ state: 'requested' });
    expect(body.note).toMatch(/when the rebuild below is live/);
    expect(builds).toHaveLength(2);
  });

  it('a save that changes nothing still retries a rebuild that failed', async () => {
    const saved = await savedWithFailedRebuild('02 5550 4444');
    const again = await call('/api/admin/site-settings', { method: 'POST', body: JSON.stringify(saved) });
    const body = await again.json();
    expect(body.rebuild).toMatchObject({ state: 'requested' });
    expect(body.note).toMatch(/when the rebuild below is live/);
    expect(builds).toHaveLength(2);
    expect((await (await call('/api/admin/site-settings')).json()).version).toBe(saved.version);
  });

  it('finding 5: the rebuild status route takes GET only', async () => {
    const answer = await call('/api/admin/site-settings/rebuild', { method: 'POST', body: '{}' });
    expect(answer.status).toBe(405);
    expect(builds).toEqual([]);
  });
});
