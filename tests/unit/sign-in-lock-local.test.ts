/**
 * Finding 10: parallel wrong sign-ins on the local site checked more passwords than the limit, and a
 * counter left empty made the right password "busy" for ever and crashed the staff unlock. Runs against a
 * real local blob server, the one the local site uses. Each simulated function instance is a fresh copy of
 * the login module (its own module state, as each worker thread of the local site has), in one process.
 */
import { describe, expect, it, vi } from 'vitest';
import { type Handler, SIGN_IN_PASSWORD as PASSWORD, signInAccount, signInSuite, signInWith } from './helpers/sign-in';
import { dataStore } from '../../src/server/blobs';
import { POLICIES, unlockAccount } from '../../src/server/throttle';

/** Every password check the sign-in makes, counted (across all module copies). */
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/passwords', async (importOriginal) =>
  (await import('./helpers/sign-in')).countingPasswords(await importOriginal(), checks),
);

signInSuite('sign-in-lock-local-secret-long-enough-0123456');

/** A new function instance: the login module and everything it imports evaluated afresh. */
async function freshInstance(): Promise<Handler> {
  vi.resetModules();
  return (await import('../../netlify/functions/auth-login.mts')).default as Handler;
}
const login = signInWith;

/** Every sign-in counter of the store, overwritten with `text`. */
async function damageCounters(text: string) {
  const { blobs: entries } = await dataStore('throttle').list();
  for (const { key } of entries) await dataStore('throttle').set(key, text);
  return entries.length;
}

describe('finding 10: parallel wrong sign-ins and damaged counters on the local site', () => {
  it('finding 10: 12 parallel wrong sign-ins, each in its own instance, check at most 5 passwords', async () => {
    const username = await signInAccount('local');
    const instances: Handler[] = [];
    for (let i = 0; i < 12; i++) instances.push(await freshInstance());
    checks.count = 0;
    const answers = await Promise.all(
      instances.map((handler, i) => login(handler, username, `wrong guess ${i}`, '198.51.100.9')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.every((status) => status === 401 || status === 429),
      statuses.join(','),
    ).toBe(true);
    expect(checks.count, statuses.join(',')).toBeLessThanOrEqual(POLICIES.pair.threshold);
    expect(statuses.filter((status) => status === 401)).toHaveLength(checks.count);
  }, 60_000);

  it.each([
    ['empty', ''],
    ['cut short (not JSON)', '{"failures": 3, "lastF'],
    ['of the wrong shape', '{"failures":"many","lockedUntil":null}'],
  ])(
    'finding 10: a counter that is %s counts as absent: the right password signs in, not "busy"',
    async (_, text) => {
      const handler = await freshInstance();
      const username = await signInAccount('local');
      expect((await login(handler, username, 'a wrong guess', '198.51.100.10')).status).toBe(401);
      expect(await damageCounters(text)).toBeGreaterThan(0);
      const answer = await login(handler, username, PASSWORD, '198.51.100.10');
      expect(answer.status, await answer.clone().text()).toBe(200);
      // And the damaged counters are rewritten whole by the next attempts.
      expect((await login(handler, username, 'another wrong guess', '198.51.100.10')).status).toBe(401);
    },
    30_000,
  );

  it('finding 10: unlock repairs empty counters of a locked account', async () => {
    const handler = await freshInstance();
    const username = await signInAccount('local');
    for (let i = 0; i < POLICIES.pair.threshold; i++) await login(handler, username, `wrong ${i}`, '198.51.100.11');
    expect((await login(handler, username, PASSWORD, '198.51.100.11')).status).toBe(429);
    await damageCounters('');
    expect(await unlockAccount(username)).toBeGreaterThan(0);
    const answer = await login(handler, username, PASSWORD, '198.51.100.11');
    expect(answer.status, await answer.clone().text()).toBe(200);
  }, 30_000);
});
