import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { hashPassword, verifyPassword } from '../../src/server/passwords';
import { createUser, getUser, revokeSessions, setPassword, UserExistsError } from '../../src/server/users';
import { isRevoked, issueToken, readToken, tokenAudience, TOKEN_ISSUER } from '../../src/server/tokens';
import { authenticate } from '../../src/server/auth';
import { lockDuration, lockedFor, POLICIES, recordFailure, recordSuccess } from '../../src/server/throttle';
import loginHandler from '../../netlify/functions/auth-login.mts';
import sessionHandler from '../../netlify/functions/auth-session.mts';

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
let blobs: Awaited<ReturnType<typeof startStores>>;
let n = 0;
const uniqueName = () => `user${Date.now().toString(36)}${n++}`;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  process.env.JWT_SECRET = SECRET;
  blobs = await startStores();
});
afterAll(() => blobs.stop());

async function makeUser(password = PASSWORD) {
  const username = uniqueName();
  await createUser({ username, firstName: 'Jane', lastName: 'Citizen', role: 'admin', password });
  return username;
}

const login = (body: unknown, ip = '203.0.113.7') =>
  loginHandler(
    new Request('http://localhost/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { ip } as Context,
  );
const withToken = (path: string, token: string | null, method = 'GET') =>
  new Request(`http://localhost${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('password hashing (scrypt)', () => {
  it('stores a salted hash that verifies only the right password', async () => {
    const hash = await hashPassword('s3cret-password!');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain('s3cret');
    expect(await hashPassword('s3cret-password!')).not.toBe(hash);
    expect(await verifyPassword('s3cret-password!', hash)).toBe(true);
    expect(await verifyPassword('s3cret-password?', hash)).toBe(false);
  });

  it('never matches a malformed or weakened stored hash', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$2$1$1$c2FsdA$aGFzaA')).toBe(false);
  });
});

describe('staff accounts', () => {
  it('refuses to overwrite an existing account and rejects weak passwords', async () => {
    const username = await makeUser();
    await expect(
      createUser({ username, firstName: 'X', lastName: 'Y', role: 'admin', password: 'another long password' }),
    ).rejects.toBeInstanceOf(UserExistsError);
    await expect(
      createUser({ username: uniqueName(), firstName: 'X', lastName: 'Y', role: 'admin', password: 'short' }),
    ).rejects.toThrow(/at least 12/);
  });
});

describe('tokens (HS256 JWT)', () => {
  it('round-trips the username and carries issuer, audience and an 8 hour expiry', async () => {
    const token = await issueToken({ username: 'jane', validAfter: 0 });
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: 'jane', iss: TOKEN_ISSUER, aud: tokenAudience() });
    expect(payload.exp - payload.iat).toBe(8 * 3600);
    expect(await readToken(token)).toMatchObject({ username: 'jane' });
  });

  it('rejects expired, forged, unsigned, other-algorithm and other-audience tokens', async () => {
    const now = Date.now();
    const token = await issueToken({ username: 'jane', validAfter: 0 }, now);
    expect(await readToken(token, now + 8 * 3600_000 + 1000)).toBeNull();

    // Jane's claims, signed with the given algorithm and secret.
    const signed = (alg: string, secret: string, audience = tokenAudience()) =>
      new SignJWT({ ts: now, sid: crypto.randomUUID() })
        .setProtectedHeader({ alg })
        .setSubject('jane')
        .setIssuer(TOKEN_ISSUER)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));

    const forged = await signed('HS256', 'some-other-secret-that-is-long-enough-xyz');
    expect(await readToken(forged)).toBeNull();

    const unsigned = new UnsecuredJWT({ ts: now })
      .setSubject('jane')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(tokenAudience())
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    expect(await readToken(unsigned)).toBeNull();

    expect(await readToken(await signed('HS512', SECRET))).toBeNull();
    expect(await readToken(await signed('HS256', SECRET, 'someone-else'))).toBeNull();
    // The control: the same claims with our algorithm, secret and audience are accepted.
    expect(await readToken(await signed('HS256', SECRET))).toMatchObject({ username: 'jane' });
    expect(await readToken('not.a.token')).toBeNull();
  });

  it("refuses a token signed for a deploy preview, or for another address, even with production's secret", async () => {
    const netlify = globalThis as { Netlify?: { context?: { deploy?: { context?: string } } | null } };
    const inContext = async <T>(context: string, work: () => Promise<T>) => {
      const before = netlify.Netlify;
      netlify.Netlify = { ...before, context: { deploy: { context } } };
      try {
        return await work();
      } finally {
        netlify.Netlify = before;
      }
    };
    vi.stubEnv('URL', 'https://rpl.example');
    const preview = await inContext('deploy-preview', () => issueToken({ username: 'jane', validAfter: 0 }));
    const production = await inContext('production', () => issueToken({ username: 'jane', validAfter: 0 }));
    expect(await inContext('production', () => readToken(preview))).toBeNull();
    expect(await inContext('production', () => readToken(production))).toMatchObject({ username: 'jane' });
    expect(await inContext('deploy-preview', () => readToken(production))).toBeNull();
    vi.stubEnv('URL', 'https://another-site.example');
    expect(await inContext('production', () => readToken(production))).toBeNull();
    vi.unstubAllEnvs();
  });

  it('refuses to work without a long enough secret', async () => {
    process.env.JWT_SECRET = 'short';
    try {
      await expect(issueToken({ username: 'jane', validAfter: 0 })).rejects.toThrow(/JWT_SECRET/);
      const response = (await authenticate(withToken('/api/auth/verify', 'a.b.c.d.e.f.g'))) as {
        ok: false;
        response: Response;
      };
      expect(response.response.status).toBe(503);
    } finally {
      process.env.JWT_SECRET = SECRET;
    }
  });
});

describe('revocation', () => {
  it('logout ends the session of its token; a new login works again', async () => {
    const username = await makeUser();
    const before = await issueToken((await getUser(username))!);
    expect((await authenticate(withToken('/api/auth/verify', before))).ok).toBe(true);

    const logout = await sessionHandler(withToken('/api/auth/logout', before, 'POST'));
    expect(logout.status).toBe(200);
    expect((await authenticate(withToken('/api/auth/verify', before))).ok).toBe(false);
    expect((await sessionHandler(withToken('/api/auth/verify', before))).status).toBe(401);

    const after = await issueToken((await getUser(username))!);
    expect((await authenticate(withToken('/api/auth/verify', after))).ok).toBe(true);
  });

  it('a password reset signs the account out everywhere', async () => {
    const username = await makeUser();
    const token = await issueToken((await getUser(username))!);
    await setPassword(username, 'a brand new long password');
    const user = (await getUser(username))!;
    expect(isRevoked((await readToken(token))!, user)).toBe(true);
    expect(await verifyPassword('a brand new long password', user.passwordHash!)).toBe(true);
  });

  it('a token of a deleted or unknown account is refused', async () => {
    const token = await issueToken({ username: 'nobody-here', validAfter: 0 });
    expect((await authenticate(withToken('/api/auth/verify', token))).ok).toBe(false);
  });

  it('revoking twice in the same millisecond still moves the line forward', async () => {
    const username = await makeUser();
    const first = await revokeSessions(username);
    const second = await revokeSessions(username);
    expect(second).toBeGreaterThan(first);
  });
});

describe('lockout', () => {
  it('grows from 30 seconds by doubling and stops at 15 minutes', () => {
    expect(lockDuration(4, POLICIES.pair)).toBe(0);
    expect(lockDuration(5, POLICIES.pair)).toBe(30_000);
    expect(lockDuration(6, POLICIES.pair)).toBe(60_000);
    expect(lockDuration(9, POLICIES.pair)).toBe(480_000);
    expect(lockDuration(50, POLICIES.pair)).toBe(15 * 60_000);
    expect(lockDuration(10_000, POLICIES.ip)).toBe(60 * 60_000);
  });

  it('locks one account from one address after five failures, not other addresses or accounts', async () => {
    const username = uniqueName();
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 5; i++) await recordFailure(username, '198.51.100.1', t0 + i);
    expect(await lockedFor(username, '198.51.100.1', t0 + 10)).toBeGreaterThan(29_000);
    expect(await lockedFor(username, '198.51.100.2', t0 + 10)).toBe(0);
    expect(await lockedFor(uniqueName(), '198.51.100.1', t0 + 10)).toBe(0);
    // Locks end.
    expect(await lockedFor(username, '198.51.100.1', t0 + 31_000)).toBe(0);
  });

  it('forgets failures after an hour without any', async () => {
    const username = uniqueName();
    const t0 = Date.UTC(2026, 0, 2);
    for (let i = 0; i < 4; i++) await recordFailure(username, '198.51.100.3', t0);
    await recordFailure(username, '198.51.100.3', t0 + 61 * 60_000);
    expect(await lockedFor(username, '198.51.100.3', t0 + 61 * 60_000)).toBe(0);
  });

  it('a distributed attack locks the account, but never for an address it signed in from before', async () => {
    const username = uniqueName();
    const t0 = Date.UTC(2026, 0, 3);
    await recordSuccess(username, '192.0.2.50');
    // Every address guesses at once.
    await Promise.all(
      Array.from({ length: POLICIES.account.threshold }, (_, i) =>
        recordFailure(username, `10.0.${i >> 8}.${i & 255}`, t0),
      ),
    );
    expect(await lockedFor(username, '10.9.9.9', t0 + 1)).toBeGreaterThan(0);
    expect(await lockedFor(username, '192.0.2.50', t0 + 1)).toBe(0);
  }, 30_000);
});

describe('POST /api/auth/login', () => {
  it('answers {token, user, message} for the right password and hides the hash', async () => {
    const username = await makeUser();
    const response = await login({ username: username.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      token: expect.any(String),
      user: { username, firstName: 'Jane', lastName: 'Citizen', role: 'admin' },
    });
    expect(JSON.stringify(body)).not.toContain('scrypt');
    expect((await authenticate(withToken('/x', body.token))).ok).toBe(true);
  });

  it('gives the same answer for a wrong password and an unknown user', async () => {
    const username = await makeUser();
    const wrong = await login({ username, password: 'not the password' }, '203.0.113.20');
    const unknown = await login({ username: uniqueName(), password: 'not the password' }, '203.0.113.20');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("answers 'Please fill in all fields' for blanks and 400 for junk, without counting a failure", async () => {
    const blank = await login({ username: '  ', password: '' });
    expect(blank.status).toBe(400);
    expect((await blank.json()).message).toBe('Please fill in all fields');
    const junk = await loginHandler(
      new Request('http://localhost/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"username":',
      }),
      { ip: '1.2.3.4' } as Context,
    );
    expect(junk.status).toBe(400);
    const huge = await login({ username: 'x', password: 'y'.repeat(10_000) });
    expect(huge.status).toBe(413);
  });

  it('after five wrong passwords even the right one is refused with 429 until the lock ends', async () => {
    const username = await makeUser();
    const ip = '203.0.113.99';
    for (let i = 0; i < 5; i++) expect((await login({ username, password: `wrong ${i}` }, ip)).status).toBe(401);
    const locked = await login({ username, password: PASSWORD }, ip);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await locked.json()).message).toMatch(/Too many failed sign-in attempts/);
    // The owner on another address is not locked out.
    expect((await login({ username, password: PASSWORD }, '203.0.113.100')).status).toBe(200);
  });
});

describe('every admin endpoint needs a valid token', () => {
  beforeEach(() => {
    process.env.JWT_SECRET = SECRET;
  });
  it('verify and logout answer 401 without one', async () => {
    for (const [path, method] of [
      ['/api/auth/verify', 'GET'],
      ['/api/auth/logout', 'POST'],
    ] as const) {
      const response = await sessionHandler(withToken(path, null, method));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
    }
  });
});

describe('address-wide lockout', () => {
  it('locks an address that fails across many accounts, but not the shared loopback address', async () => {
    const t0 = Date.UTC(2026, 0, 4);
    // One guess per account, all at once.
    await Promise.all(
      Array.from({ length: POLICIES.ip.threshold }, () => [
        recordFailure(uniqueName(), '198.51.100.200', t0),
        recordFailure(uniqueName(), '127.0.0.1', t0),
      ]).flat(),
    );
    expect(await lockedFor(uniqueName(), '198.51.100.200', t0 + 1)).toBeGreaterThan(0);
    expect(await lockedFor(uniqueName(), '127.0.0.1', t0 + 1)).toBe(0);
  }, 30_000);
});
