/**
 * Finding 6: a failed sign-in must not tell which usernames exist, by its text or its time, even on the
 * first request a new function instance answers. Kept apart from the other sign-in tests because each
 * sample re-imports the login function as a fresh instance would (mocked modules would be reused).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { createUser } from '../../src/server/users';

const PASSWORD = 'correct horse battery staple';
let n = 0;
const uniqueName = () => `time${Date.now().toString(36)}${n++}`;

let stores: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  process.env.JWT_SECRET = 'login-timing-secret-that-is-long-enough-012345';
  stores = await startStores();
});
afterAll(() => stores.stop());

describe('finding 6: login timing tells which usernames exist', () => {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  it('the decoy hash has the same scrypt parameters as real hashes', async () => {
    const { DECOY_HASH, HASH_DEFAULTS, hashPassword } = await import('../../src/server/passwords');
    const prefix = (hash: string) => hash.split('$').slice(0, 4).join('$');
    expect(prefix(DECOY_HASH)).toBe(prefix(await hashPassword('any password at all')));
    expect(prefix(DECOY_HASH)).toBe(`scrypt$${HASH_DEFAULTS.N}$${HASH_DEFAULTS.r}$${HASH_DEFAULTS.p}`);
  });

  it('unknown and known usernames fail alike in text and time, even on a fresh instance', async () => {
    const SAMPLES = 15;
    const times = { known: [] as number[], unknown: [] as number[] };
    const bodies = new Set<string>();
    for (let i = 0; i < SAMPLES; i++) {
      // Each sample is a new function instance: nothing computed by an earlier request is reused.
      // A fresh known account per sample, so both names meet counters in the same state (none yet).
      const known = uniqueName();
      await createUser({ username: known, firstName: 'Time', lastName: 'Keeper', role: 'admin', password: PASSWORD });
      vi.resetModules();
      // The new instance's database module is a new copy too: it reaches the same database.
      (await import('../../src/platform/database')).setDatabase(stores.db);
      const { default: handler } = await import('../../netlify/functions/auth-login.mts');
      const attempt = async (kind: 'known' | 'unknown') => {
        const username = kind === 'known' ? known : uniqueName();
        const request = new Request('http://localhost/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: 'a wrong password' }),
        });
        const started = performance.now();
        const response = await handler(request, { ip: `192.0.2.${i + 1}` } as Context);
        times[kind].push(performance.now() - started);
        expect(response.status).toBe(401);
        bodies.add(await response.text());
      };
      // Alternate the order so warm-up and load spikes fall on both sides.
      for (const kind of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) await attempt(kind);
    }
    expect(bodies.size).toBe(1);
    // The time of one scrypt check on this machine now: a difference of one hash (the decoy built on
    // first use) must show, noise of a loaded machine must not.
    const { DECOY_HASH, verifyPassword } = await import('../../src/server/passwords');
    const hashTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await verifyPassword('a wrong password', DECOY_HASH);
      hashTimes.push(performance.now() - started);
    }
    const [k, u, h] = [median(times.known), median(times.unknown), median(hashTimes)];
    expect(
      Math.abs(u - k),
      `medians: known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms, one hash ${h.toFixed(1)} ms`,
    ).toBeLessThan(0.5 * h);
  }, 120_000);
});
