import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { rebuildStatus } from '../../src/server/rebuild';

/** The local build hook of `npm start`, answering its status with whatever the test sets. */
let hookStatus: Record<string, unknown> = { state: 'idle' };
let hook: Server;
let stores: Awaited<ReturnType<typeof startStores>>;

beforeAll(async () => {
  stores = await startStores();
  hook = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(hookStatus));
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('LOCAL_BUILD_HOOK_URL', `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`);
  vi.stubEnv('LOCAL_BUILD_HOOK_TOKEN', 'secret');
  vi.stubEnv('BUILD_HOOK_URL', '');
});
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  vi.unstubAllEnvs();
  hook.close();
  await stores.stop();
});

/** A rebuild asked for at `requestedAt`, newer than any asked for before. */
const requestAt = (requestedAt: string) =>
  stores.engine.query(
    `INSERT INTO rebuild_requests (requested_at, requested_by, via, outcome) VALUES ($1, 'sam', 'local', 'started')`,
    [requestedAt],
  );

describe('the state of the latest local rebuild', () => {
  it('follows the newest request', async () => {
    await stores.engine.query(
      `INSERT INTO rebuild_requests (requested_at, requested_by, via, outcome)
       VALUES ('2026-11-23T09:00:00Z', 'kim', 'build-hook', 'failed')`,
    );
    expect(await rebuildStatus()).toMatchObject({ state: 'failed', requestedBy: 'kim' });
    await requestAt('2026-11-23T10:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T10:00:05.000Z') });
    hookStatus = { state: 'building', startedAt: '2026-11-23T10:00:01.000Z' };
    expect(await rebuildStatus()).toMatchObject({ state: 'building', requestedBy: 'sam' });
  });

  it('is building, then live once a build that started after the request has finished', async () => {
    await requestAt('2026-11-23T10:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T10:00:05.000Z') });
    hookStatus = { state: 'building', startedAt: '2026-11-23T10:00:01.000Z' };
    expect(await rebuildStatus()).toMatchObject({ state: 'building' });
    hookStatus = { state: 'live', startedAt: '2026-11-23T10:00:01.000Z', finishedAt: '2026-11-23T10:01:00.000Z' };
    expect(await rebuildStatus()).toMatchObject({ state: 'live', finishedAt: '2026-11-23T10:01:00.000Z' });
  });

  it('stays requested while an earlier build finishes, for a minute', async () => {
    await requestAt('2026-11-23T10:00:00.000Z');
    hookStatus = { state: 'live', startedAt: '2026-11-23T09:59:00.000Z', finishedAt: '2026-11-23T10:00:02.000Z' };
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T10:00:30.000Z') });
    expect(await rebuildStatus()).toMatchObject({ state: 'requested' });
  });

  it('says the request was lost when the server restarted before the build ran', async () => {
    await requestAt('2026-11-23T10:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T10:00:10.000Z') });
    hookStatus = { state: 'idle' };
    expect(await rebuildStatus()).toMatchObject({
      state: 'failed',
      requestedBy: 'sam',
      message: 'the local server was restarted before it ran',
    });
    // No build since the request, and a minute has passed: lost too.
    hookStatus = { state: 'live', startedAt: '2026-11-23T09:59:00.000Z', finishedAt: '2026-11-23T09:59:58.000Z' };
    vi.setSystemTime(new Date('2026-11-23T10:01:30.000Z'));
    expect(await rebuildStatus()).toMatchObject({ state: 'failed' });
  });

  it('is queued, not failed, while a save waits behind a rebuild that was already running', async () => {
    await requestAt('2026-11-23T10:00:00.000Z');
    // The earlier build started before this save and runs past the minute after it.
    hookStatus = { state: 'building', startedAt: '2026-11-23T09:59:30.000Z', queued: true };
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T10:01:30.000Z') });
    expect(await rebuildStatus()).toMatchObject({ state: 'queued', requestedBy: 'sam' });
    // It ended; ours is next in line.
    hookStatus = {
      state: 'live',
      startedAt: '2026-11-23T09:59:30.000Z',
      finishedAt: '2026-11-23T10:01:40.000Z',
      queued: true,
    };
    vi.setSystemTime(new Date('2026-11-23T10:01:41.000Z'));
    expect(await rebuildStatus()).toMatchObject({ state: 'queued' });
    hookStatus = { state: 'building', startedAt: '2026-11-23T10:01:41.000Z', queued: false };
    expect(await rebuildStatus()).toMatchObject({ state: 'building' });
  });
});
