/**
 * Sign-in hardening: the lockout cannot be raced. The sign-in counters are rows of `sign_in_counters`, each
 * attempt reserved and settled in a transaction that holds them locked, so a burst of parallel sign-ins
 * through the real login handler queues in the database and never checks more passwords than the policy
 * allows, nor loses a count.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { SIGN_IN_PASSWORD as PASSWORD, signInAccount, signInSuite, signInWith } from './helpers/sign-in';
import { db, sql } from '../../src/platform/database';
import { FORGET_AFTER_MS, POLICIES, recordFailure, recordSuccess, unlockAccount } from '../../src/server/throttle';
import loginHandler from '../../netlify/functions/auth-login.mts';
import retention from '../../netlify/functions/activity-retention.mts';

/** Every password check the sign-in makes, counted. */
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/passwords', async (importOriginal) =>
  (await import('./helpers/sign-in')).countingPasswords(await importOriginal(), checks),
);

signInSuite('login-hardening-secret-that-is-long-enough-0123');

const login = (username: string, password: string, ip: string) => signInWith(loginHandler, username, password, ip);
const messageOf = async (answer: Response) => ((await answer.clone().json()) as { message: string }).message;

/** The counter rows of the sign-in throttle. */
async function counters() {
  return db().query<{ key: string; failures: number }>(sql`SELECT key, failures FROM sign_in_counters ORDER BY key`);
}
/** The key of an account's own counter (its username's hash, as the throttle makes it). */
const accountKey = (username: string) => `account-${createHash('sha256').update(username).digest('hex').slice(0, 40)}`;

describe('parallel sign-ins queue in the database', () => {
  it('60 parallel wrong passwords for one account from one address check exactly five passwords; the rest are refused', async () => {
    const username = await signInAccount('burst');
    checks.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(username, `wrong guess ${i}`, '198.51.100.7')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(checks.count, statuses.join(',')).toBe(POLICIES.pair.threshold);
    expect(statuses.filter((status) => status === 401)).toHaveLength(POLICIES.pair.threshold);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - POLICIES.pair.threshold);
    for (const answer of answers.filter((a) => a.status === 429))
      expect(await messageOf(answer)).toMatch(/Too many failed sign-in attempts|busy/);
    // Every checked password was counted: the pair is locked now, and even the right one is refused unchecked.
    checks.count = 0;
    expect((await login(username, PASSWORD, '198.51.100.7')).status).toBe(429);
    expect(checks.count).toBe(0);
  }, 60_000);

  it('the same burst with the right password arriving in the middle: still five checks, and the right one is refused too', async () => {
    const username = await signInAccount('burst');
    checks.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(username, i === 30 ? PASSWORD : `wrong guess ${i}`, '198.51.100.8')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(checks.count, statuses.join(',')).toBe(POLICIES.pair.threshold);
    expect(statuses.filter((status) => status === 401)).toHaveLength(POLICIES.pair.threshold);
    expect(statuses[30]).toBe(429);
    expect(statuses.filter((status) => status === 200)).toEqual([]);
  }, 60_000);

  it('many addresses guessing one account at once each keep their own limit, and the account counts every check', async () => {
    const username = await signInAccount('spread');
    checks.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(username, `wrong ${i}`, `203.0.113.${i % 4}`)),
    );
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(checks.count).toBe(4 * POLICIES.pair.threshold);
    // No update was lost: the account-wide counter holds one failure per password checked.
    const account = (await counters()).filter((row) => row.key === accountKey(username));
    expect(account.map((row) => row.failures)).toEqual([checks.count]);
  }, 60_000);

  it('a counter that cannot be written refuses the attempt (429 busy) without checking the password, never a 500', async () => {
    const username = await signInAccount('down');
    await db().query(sql`
      CREATE FUNCTION refuse_counter_writes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'sign_in_counters is not writable'; END $$`);
    await db().query(sql`
      CREATE TRIGGER refuse_counter_writes BEFORE INSERT OR UPDATE ON sign_in_counters
      FOR EACH ROW EXECUTE FUNCTION refuse_counter_writes()`);
    try {
      checks.count = 0;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => login(username, i === 0 ? PASSWORD : `wrong ${i}`, `198.51.100.${80 + i}`)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 429));
      expect(checks.count).toBe(0);
      for (const answer of answers) expect(await messageOf(answer)).toMatch(/Please try again/);
    } finally {
      await db().query(sql`DROP TRIGGER refuse_counter_writes ON sign_in_counters`);
      await db().query(sql`DROP FUNCTION refuse_counter_writes()`);
    }
    expect((await login(username, PASSWORD, '198.51.100.80')).status).toBe(200);
  }, 60_000);

  it('attempts in flight recorded in the wrong shape count as none: the right password signs in', async () => {
    const username = await signInAccount('odd');
    expect((await login(username, 'a wrong guess', '198.51.100.10')).status).toBe(401);
    await db().query(sql`UPDATE sign_in_counters SET pending = '[{"id": 7}, "x"]'::jsonb`);
    const answer = await login(username, PASSWORD, '198.51.100.10');
    expect(answer.status, await answer.clone().text()).toBe(200);
  }, 30_000);
});

describe('unlocking and forgetting', () => {
  it('a staff unlock clears every address of the account (one statement) and keeps the addresses it is trusted from', async () => {
    const username = await signInAccount('unlock');
    const other = await signInAccount('unlock');
    await recordSuccess(username, '192.0.2.60');
    for (const ip of ['198.51.100.20', '198.51.100.21'])
      for (let i = 0; i < POLICIES.pair.threshold; i++) await recordFailure(username, ip);
    for (let i = 0; i < POLICIES.pair.threshold; i++) await recordFailure(other, '198.51.100.20');
    expect((await login(username, PASSWORD, '198.51.100.21')).status).toBe(429);

    // Two pair counters (and the trusted address's, cleared by its success) plus the account's own.
    expect(await unlockAccount(username)).toBe(4);
    expect((await login(username, PASSWORD, '198.51.100.21')).status).toBe(200);
    const trusted = await db().query<{ trusted: string[] }>(
      sql`SELECT trusted FROM sign_in_counters WHERE key = ${accountKey(username)}`,
    );
    expect(trusted.map((row) => row.trusted.length)).toEqual([2]);
    // The other account stays locked at that address.
    expect((await login(other, PASSWORD, '198.51.100.20')).status).toBe(429);
  }, 60_000);

  it('the daily run deletes counters nobody has failed on for an hour, but not locks in force or trusted addresses', async () => {
    const username = await signInAccount('forget');
    await recordSuccess(username, '192.0.2.70');
    const hourAgo = Date.now() - FORGET_AFTER_MS - 60_000;
    await recordFailure(username, '198.51.100.30', hourAgo);
    for (let i = 0; i < POLICIES.pair.threshold; i++) await recordFailure(username, '198.51.100.31');
    // The old failure's rows were last written an hour ago too.
    await db().query(sql`
      UPDATE sign_in_counters SET updated_at = now() - interval '2 hours' WHERE last_failure_at = ${hourAgo}`);
    const before = (await counters()).map((row) => row.key);
    await retention();
    const after = (await counters()).map((row) => row.key);
    const gone = before.filter((key) => !after.includes(key));
    expect(gone).toHaveLength(2); // the old pair and address counters
    expect(gone.every((key) => key.startsWith('pair-') || key.startsWith('ip-'))).toBe(true);
    // The lock in force and the account with its trusted address are kept.
    expect((await login(username, PASSWORD, '198.51.100.31')).status).toBe(429);
    expect(after).toContain(accountKey(username));
  }, 60_000);
});
