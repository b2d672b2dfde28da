/**
 * Finding 4: an attacker could keep the owner out. After 100 failures over 20 addresses the account is
 * locked account-wide; the owner's correct password from a new address then gets a one-time sign-in
 * link by e-mail (to the address stored on the account), and staff can unlock the account with the
 * users CLI. Runs against a real local blob server; mail goes to the local outbox store.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startBlobs } from './helpers/blobs';
import { createUser, getUser, setEmail, setPassword } from '../../src/server/users';
import { dataStore } from '../../src/server/blobs';
import { authenticate } from '../../src/server/auth';
import { lockedFor, POLICIES, recordFailure, unlockAccount } from '../../src/server/throttle';
import { LINK_INVALID, LINK_LIFETIME_MS, LINK_SENT, redeemSignInLink } from '../../src/server/sign-in-links';
import loginHandler from '../../netlify/functions/auth-login.mts';
import linkHandler from '../../netlify/functions/auth-link.mts';

const PASSWORD = 'the owner password is long';
let n = 0;
const uniqueName = () => `owner${Date.now().toString(36)}${n++}`;
let blobs: Awaited<ReturnType<typeof startBlobs>>;

beforeAll(async () => {
  process.env.JWT_SECRET = 'owner-lockout-secret-that-is-long-enough-0123456';
  delete process.env.RESEND_API_KEY;
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

const post = (handler: typeof loginHandler, path: string, body: unknown, ip: string) =>
  handler(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { ip } as Context,
  );
const login = (username: string, password: string, ip: string) =>
  post(loginHandler, '/api/auth/login', { username, password }, ip);
const redeem = (token: string, ip: string) => post(linkHandler, '/api/auth/link', { token }, ip);

/** The attack of the finding: the account-wide threshold of failures, spread over 20 addresses guessing at once. */
async function lockAccountFromTwentyAddresses(username: string) {
  await Promise.all(
    Array.from({ length: 20 }, async (_, address) => {
      for (let i = address; i < POLICIES.account.threshold; i += 20)
        await recordFailure(username, `10.20.${address}.1`);
    }),
  );
  expect(await lockedFor(username, '198.18.0.1')).toBeGreaterThan(0);
}

async function linkMailsTo(address: string) {
  const { blobs: entries } = await dataStore('outbox').list({ prefix: 'sign-in-link-' });
  const mails = await Promise.all(
    entries.map(
      ({ key }) =>
        dataStore('outbox').get(key, { type: 'json' }) as Promise<{ to: string; text: string; kind: string }>,
    ),
  );
  return mails.filter((mail) => mail.to === address);
}
const tokenIn = (text: string) => /\?link=([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? '';

describe('finding 4: an attacker can keep the owner out', () => {
  it('the correct password from a new address gets a one-time sign-in link by e-mail, which signs in once', async () => {
    const username = uniqueName();
    const email = `${username}@example.com`;
    await createUser({ username, firstName: 'Olive', lastName: 'Owner', role: 'admin', email, password: PASSWORD });
    await lockAccountFromTwentyAddresses(username);

    const answer = await login(username, PASSWORD, '198.18.0.1');
    expect(answer.status).toBe(429);
    expect((await answer.json()).message).toBe(LINK_SENT);
    const mails = await vi.waitFor(async () => {
      const found = await linkMailsTo(email);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(mails[0].kind).toBe('sign-in-link');
    const token = tokenIn(mails[0].text);
    expect(token).not.toBe('');
    // Only its hash is stored.
    const { blobs: stored } = await dataStore('sessions').list({ prefix: 'sign-in-link/' });
    expect(stored.some(({ key }) => key.includes(token))).toBe(false);

    const signedIn = await redeem(token, '198.18.0.1');
    expect(signedIn.status).toBe(200);
    const body = await signedIn.json();
    expect(body.user).toMatchObject({ username, role: 'admin' });
    expect(JSON.stringify(body.user)).not.toContain(email);
    expect(
      (await authenticate(new Request('http://localhost/x', { headers: { authorization: `Bearer ${body.token}` } })))
        .ok,
    ).toBe(true);

    // Single use.
    const again = await redeem(token, '198.18.0.1');
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe(LINK_INVALID);
    // The address it was redeemed from is now trusted: the password alone works there.
    expect((await login(username, PASSWORD, '198.18.0.1')).status).toBe(200);
  }, 60_000);

  it('a wrong password under the lock gets the same answer and never sends a mail', async () => {
    const username = uniqueName();
    const email = `${username}@example.com`;
    await createUser({ username, firstName: 'Olive', lastName: 'Owner', role: 'admin', email, password: PASSWORD });
    await lockAccountFromTwentyAddresses(username);
    for (let i = 0; i < 3; i++) {
      const answer = await login(username, `a wrong guess ${i}`, '198.18.1.1');
      expect(answer.status).toBe(429);
      expect((await answer.json()).message).toBe(LINK_SENT);
    }
    expect(await linkMailsTo(email)).toEqual([]);
    // The address's own limit still applies past the account lock: five wrong guesses lock the pair,
    // and then even the right password is refused without a link.
    for (let i = 3; i < POLICIES.pair.threshold; i++) await login(username, `a wrong guess ${i}`, '198.18.1.1');
    const locked = await login(username, PASSWORD, '198.18.1.1');
    expect(locked.status).toBe(429);
    expect((await locked.json()).message).toMatch(/Too many failed sign-in attempts/);
    expect(await linkMailsTo(email)).toEqual([]);
  }, 60_000);

  it('links expire, are bound to the account, and a password reset cancels them', async () => {
    const username = uniqueName();
    const email = `${username}@example.com`;
    await createUser({ username, firstName: 'Olive', lastName: 'Owner', role: 'admin', email, password: PASSWORD });
    await lockAccountFromTwentyAddresses(username);
    await login(username, PASSWORD, '198.18.2.1');
    await login(username, PASSWORD, '198.18.2.2');
    const tokens = await vi.waitFor(async () => {
      const found = (await linkMailsTo(email)).map((mail) => tokenIn(mail.text));
      expect(found).toHaveLength(2);
      return found;
    });
    expect(await redeemSignInLink(tokens[0], Date.now() + LINK_LIFETIME_MS + 1)).toBeNull();
    await setPassword(username, 'a brand new long password');
    expect((await redeem(tokens[1], '198.18.2.2')).status).toBe(400);
    expect((await redeem('A'.repeat(43), '198.18.2.2')).status).toBe(400);
    expect((await redeem('not a token', '198.18.2.2')).status).toBe(400);
  }, 60_000);

  it('without an e-mail address the lock holds; a staff unlock (users CLI) lets the owner in', async () => {
    const username = uniqueName();
    await createUser({ username, firstName: 'Olive', lastName: 'Owner', role: 'admin', password: PASSWORD });
    await lockAccountFromTwentyAddresses(username);
    const refused = await login(username, PASSWORD, '198.18.3.1');
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/Too many failed sign-in attempts/);

    expect(await unlockAccount(username)).toBeGreaterThan(0);
    expect(await lockedFor(username, '10.20.0.1')).toBe(0);
    expect((await login(username, PASSWORD, '198.18.3.1')).status).toBe(200);
  }, 60_000);

  it('accounts take an optional e-mail address (create --email, set-email)', async () => {
    const username = uniqueName();
    await createUser({ username, firstName: 'Eve', lastName: 'Mail', role: 'editor', password: PASSWORD });
    expect((await getUser(username))!.email).toBeUndefined();
    await setEmail(username, ' Eve@Example.com ');
    expect((await getUser(username))!.email).toBe('eve@example.com');
    await expect(setEmail(username, 'not an address')).rejects.toThrow(/valid e-mail/);
    await setEmail(username, null);
    expect((await getUser(username))!.email).toBeUndefined();
  });
});
