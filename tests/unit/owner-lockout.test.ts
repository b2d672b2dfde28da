/**
 * Finding 4: an attacker could keep the owner out. After 100 failures over 20 addresses the account is
 * locked account-wide; the owner's correct password from a new address then gets a one-time sign-in
 * link by e-mail (to the address stored on the account), and staff can unlock the account with the
 * users CLI. Runs against a fresh database and a real local blob server; mail goes to the outbox table.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import {
  SIGN_IN_PASSWORD as PASSWORD,
  postJson,
  signInAccount,
  signInSuite,
  signInWith,
  uniqueName,
} from './helpers/sign-in';
import { getUser, setEmail, setPassword } from '../../src/server/users';
import { outboxMessages } from './helpers/outbox';
import { db, sql } from '../../src/platform/database';
import { authenticate } from '../../src/server/auth';
import { addressScope, lockedFor, POLICIES, recordFailure, unlockAccount } from '../../src/server/throttle';
import { LINK_INVALID, LINK_LIFETIME_MS, LINK_SENT, redeemSignInLink } from '../../src/server/sign-in-links';
import loginHandler from '../../netlify/functions/auth-login.mts';
import linkHandler from '../../netlify/functions/auth-link.mts';

/** Every password check the sign-in makes, counted. */
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/passwords', async (importOriginal) =>
  (await import('./helpers/sign-in')).countingPasswords(await importOriginal(), checks),
);

signInSuite('owner-lockout-secret-that-is-long-enough-0123456');
beforeAll(() => {
  delete process.env.RESEND_API_KEY;
});

/** Work a function hands to the platform to finish after answering (context.waitUntil). */
const background: Promise<unknown>[] = [];
const waitUntil = (work: Promise<unknown>) => background.push(work);
const login = (username: string, password: string, ip: string) =>
  signInWith(loginHandler, username, password, ip, { waitUntil } as Partial<Context>);
const backgroundDone = async () => {
  while (background.length) await Promise.all(background.splice(0));
};
const redeem = (token: string, ip: string) =>
  postJson(linkHandler, '/api/auth/link', { token }, { ip, waitUntil } as Partial<Context> & { ip: string });

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
  return (await outboxMessages()).filter(
    (mail) => mail.idempotencyKey.startsWith('sign-in-link-') && mail.to === address,
  );
}
const tokenIn = (text: string) => /\?link=([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? '';

describe('finding 4: an attacker can keep the owner out', () => {
  it('the correct password from a new address gets a one-time sign-in link by e-mail, which signs in once', async () => {
    const username = await signInAccount('owner', { withEmail: true });
    const email = `${username}@example.com`;
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
    const stored = await db().query<{ row: string }>(sql`SELECT l::text AS row FROM staff_links l`);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some(({ row }) => row.includes(token))).toBe(false);

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
    const username = await signInAccount('owner', { withEmail: true });
    const email = `${username}@example.com`;
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
    const username = await signInAccount('owner', { withEmail: true });
    const email = `${username}@example.com`;
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
    const username = await signInAccount('owner');
    await lockAccountFromTwentyAddresses(username);
    const refused = await login(username, PASSWORD, '198.18.3.1');
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe(LINK_SENT);

    expect(await unlockAccount(username)).toBeGreaterThan(0);
    expect(await lockedFor(username, '10.20.0.1')).toBe(0);
    expect((await login(username, PASSWORD, '198.18.3.1')).status).toBe(200);
  }, 60_000);

  it('accounts take an optional e-mail address (create --email, set-email)', async () => {
    const username = await signInAccount('owner', { role: 'editor' });
    expect((await getUser(username))!.email).toBeUndefined();
    await setEmail(username, ' Eve@Example.com ');
    expect((await getUser(username))!.email).toBe('eve@example.com');
    await expect(setEmail(username, 'not an address')).rejects.toThrow(/valid e-mail/);
    await setEmail(username, null);
    expect((await getUser(username))!.email).toBeUndefined();
  });
});

describe('finding 3: the owner-lockout path leaks and can be worked around', () => {
  it('finding 3: every locked state answers the same text after the same work (one password check)', async () => {
    const withEmail = await signInAccount('owner', { withEmail: true });
    const withoutEmail = await signInAccount('owner');
    const unknown = uniqueName('owner');
    for (const username of [withEmail, withoutEmail, unknown]) await lockAccountFromTwentyAddresses(username);

    const cases = [
      ['account with e-mail, right password', withEmail, PASSWORD],
      ['account with e-mail, wrong password', withEmail, 'a wrong guess'],
      ['account without e-mail, right password', withoutEmail, PASSWORD],
      ['account without e-mail, wrong password', withoutEmail, 'a wrong guess'],
      ['unknown account', unknown, PASSWORD],
    ] as const;
    const seen = new Map<string, { status: number; message: string; checks: number }>();
    for (const [label, username, password] of cases) {
      checks.count = 0;
      const answer = await login(username, password, `198.18.4.${seen.size + 1}`);
      seen.set(label, { status: answer.status, message: (await answer.json()).message, checks: checks.count });
    }
    await backgroundDone();
    // The same answer and the same work (exactly one scrypt check: the account's hash or the decoy) in every case.
    for (const [label, outcome] of seen) expect(outcome, label).toEqual({ status: 429, message: LINK_SENT, checks: 1 });
  }, 60_000);

  it("finding 3: a correct password while locked does not reset the address's counter", async () => {
    const username = await signInAccount('owner', { withEmail: true });
    await lockAccountFromTwentyAddresses(username);
    checks.count = 0;
    // An attacker who knows candidates interleaves the right password to reset the address's limit.
    for (let i = 0; i < 12; i++) await login(username, i % 3 === 2 ? PASSWORD : `candidate ${i}`, '198.18.5.1');
    await backgroundDone();
    expect(checks.count).toBe(POLICIES.pair.threshold);
    const last = await login(username, PASSWORD, '198.18.5.1');
    expect(last.status).toBe(429);
    expect((await last.json()).message).toMatch(/Too many failed sign-in attempts/);
  }, 60_000);

  it('finding 3: two addresses in one IPv6 /64 share a counter; IPv4-mapped IPv6 counts as the IPv4 address', async () => {
    const username = await signInAccount('owner');
    for (let i = 0; i < POLICIES.pair.threshold; i++)
      expect((await login(username, `wrong ${i}`, `2001:db8:5:6::${i + 1}`)).status).toBe(401);
    checks.count = 0;
    const fresh = await login(username, PASSWORD, '2001:db8:5:6:abcd:ef01:2345:6789');
    expect(fresh.status).toBe(429);
    expect((await fresh.json()).message).toMatch(/Too many failed sign-in attempts/);
    expect(checks.count).toBe(0);
    // Another /64 is another client.
    expect((await login(username, PASSWORD, '2001:db8:5:7::1')).status).toBe(200);

    const other = await signInAccount('owner');
    for (let i = 0; i < POLICIES.pair.threshold; i++) await login(other, `wrong ${i}`, '203.0.113.50');
    for (const mapped of ['::ffff:203.0.113.50', '::ffff:cb00:7132'])
      expect((await login(other, PASSWORD, mapped)).status, mapped).toBe(429);
    expect((await login(other, PASSWORD, '203.0.113.51')).status).toBe(200);

    expect(addressScope('2001:db8:5:6::1')).toBe(addressScope('2001:0DB8:0005:0006:ffff:1:2:3'));
    expect(addressScope('2001:db8:5:6::1')).not.toBe(addressScope('2001:db8:5:7::1'));
    expect(addressScope('::ffff:203.0.113.50')).toBe('203.0.113.50');
    expect(addressScope('::ffff:cb00:7132')).toBe('203.0.113.50');
    expect(addressScope('fe80::1%eth0')).toBe(addressScope('fe80::2'));
    expect(addressScope('unknown')).toBe('unknown');
  }, 60_000);

  it('finding 3: a 4th link request in 15 minutes sends no mail and answers the same', async () => {
    const username = await signInAccount('owner', { withEmail: true });
    const email = `${username}@example.com`;
    await lockAccountFromTwentyAddresses(username);
    const messages = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const answer = await login(username, PASSWORD, `198.18.6.${i + 1}`);
      expect(answer.status).toBe(429);
      messages.add((await answer.json()).message);
      await backgroundDone();
      expect(await linkMailsTo(email)).toHaveLength(Math.min(i + 1, 3));
    }
    expect([...messages]).toEqual([LINK_SENT]);
  }, 60_000);

  it('finding 3: six right passwords from six addresses at once send exactly three links', async () => {
    const username = await signInAccount('owner', { withEmail: true });
    const email = `${username}@example.com`;
    await lockAccountFromTwentyAddresses(username);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => login(username, PASSWORD, `198.18.7.${i + 1}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 429));
    await backgroundDone();
    expect(await linkMailsTo(email)).toHaveLength(3);
  }, 60_000);
});
