/**
 * Sign-in hardening: the lockout cannot be raced, and answer times do not reveal which accounts exist.
 * Races between function instances run against the model of the platform's conditional writes
 * (helpers/platform-blobs.ts); everything else against a real local blob server.
 */
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SIGN_IN_PASSWORD as PASSWORD, signInAccount, signInSuite, signInWith } from './helpers/sign-in';
import { inInstance, platformModel } from './helpers/platform-blobs';
import { POLICIES } from '../../src/server/throttle';
import loginHandler from '../../netlify/functions/auth-login.mts';

vi.mock('@netlify/blobs', async (importOriginal) =>
  (await import('./helpers/platform-blobs')).mockBlobsModule(await importOriginal()),
);

/** Every password check the sign-in makes, counted. */
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/passwords', async (importOriginal) =>
  (await import('./helpers/sign-in')).countingPasswords(await importOriginal(), checks),
);

signInSuite('login-hardening-secret-that-is-long-enough-0123');

const login = ({ username, password }: { username: string; password: string }, ip: string) =>
  signInWith(loginHandler, username, password, ip);

describe('finding 3: the lockout can be raced', () => {
  beforeEach(() => {
    platformModel.active = true;
    platformModel.reset();
  });
  afterAll(() => {
    platformModel.active = false;
  });

  it('30 parallel wrong guesses from one address, spread over instances, check at most the policy number of passwords', async () => {
    const username = await signInAccount('hard');
    checks.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        inInstance(`instance-${i % 6}`, () => login({ username, password: `wrong guess ${i}` }, '198.51.100.77')),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 401 || s === 429),
      statuses.join(','),
    ).toBe(true);
    expect(checks.count).toBeLessThanOrEqual(POLICIES.pair.threshold);
    expect(statuses.filter((s) => s === 401).length).toBe(checks.count);
    // Once the guesses have settled the pair is locked: even the right password is refused unchecked.
    checks.count = 0;
    expect(
      (await inInstance('instance-9', () => login({ username, password: PASSWORD }, '198.51.100.77'))).status,
    ).toBe(429);
    expect(checks.count).toBe(0);
  }, 60_000);

  it('under load no answer is a 500; a counter write that cannot land refuses the attempt (429) without checking the password', async () => {
    const username = await signInAccount('hard');
    checks.count = 0;
    platformModel.refuseWrites = (store) => store === 'throttle';
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        inInstance(`instance-${i % 3}`, () =>
          login({ username, password: i === 0 ? PASSWORD : `wrong ${i}` }, `198.51.100.${80 + i}`),
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 429));
    expect(checks.count).toBe(0);
    for (const answer of answers) expect((await answer.json()).message).toMatch(/Please try again/);
  }, 60_000);

  it('many addresses guessing one account at once each keep their own limit (no lost updates)', async () => {
    const username = await signInAccount('hard');
    checks.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        inInstance(`instance-${i % 5}`, () => login({ username, password: `wrong ${i}` }, `203.0.113.${i % 4}`)),
      ),
    );
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expect(checks.count).toBeLessThanOrEqual(4 * POLICIES.pair.threshold);
    // Every checked failure was counted on the account: no update was lost.
    const account = [...platformModel.backends.get('throttle')!.entries()].find(([key]) => key.startsWith('account-'))!;
    expect(JSON.parse(account[1].data).failures).toBe(checks.count);
  }, 60_000);
});
