/**
 * Attacks on staff session tokens against the real admin handlers: every staff-only endpoint must
 * answer 401 (with WWW-Authenticate and a JSON message) and write nothing, for tokens that are expired,
 * forged, unsigned (alg=none), signed with another algorithm (HS384/HS512/RS256 confusion), issued for
 * another issuer or audience, missing a required claim or session, revoked by logout or a password reset, or
 * belonging to an account that no longer exists. Each attack token differs from a valid one in exactly
 * one respect, and that valid one is shown to work first, so a pass means the difference was caught.
 */
import { createHmac, generateKeyPairSync, randomUUID, sign as rsaSign } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  changedStores,
  fakeContext,
  fillRoute,
  handlerFor,
  snapshotBlobs,
  startInspectableBlobs,
  type LocalBlobs,
} from './helpers/hostile';
import { startDatabase, type TestDatabase } from './helpers/database';
import { writeMark } from './helpers/staff';
import { createUser, getUser, recordSession, setPassword } from '../../src/server/users';
import { issueToken, tokenAudience, TOKEN_ISSUER } from '../../src/server/tokens';
import { db, sql } from '../../src/platform/database';
import { storeContactInquiry } from './helpers/inquiries';
import { defaultSiteSettings } from '../../src/lib/site-settings';

const SECRET = 'token-attack-secret-that-is-long-enough-0123456789';
const VICTIM = 'token-victim';
const PASSWORD = 'the victim password is long';
let blobs: LocalBlobs;
let database: TestDatabase;
let inquiryId = '';
/** The session the hand-made tokens belong to (recorded on the account, as a sign-in would). */
const VICTIM_SID = randomUUID();

/** Every staff-only endpoint; the blog's are checked as soon as they exist. */
const ADMIN_CALLS: { route: string; method: string; body?: unknown; params?: () => Record<string, string> }[] = [
  { route: '/api/auth/verify', method: 'GET' },
  { route: '/api/auth/logout', method: 'POST' },
  { route: '/api/auth/logout-everywhere', method: 'POST' },
  { route: '/api/admin/users', method: 'GET' },
  { route: '/api/admin/me', method: 'GET' },
  { route: '/api/admin/me/sessions', method: 'GET' },
  { route: '/api/admin/dashboard-stats', method: 'GET' },
  { route: '/api/admin/launch-readiness', method: 'GET' },
  { route: '/api/admin/site-settings', method: 'GET' },
  { route: '/api/admin/site-settings', method: 'POST', body: defaultSiteSettings },
  { route: '/api/admin/inquiries', method: 'GET' },
  { route: '/api/admin/inquiries/export.csv', method: 'GET' },
  { route: '/api/admin/inquiry-exports', method: 'POST' },
  { route: '/api/admin/site-settings/rebuild', method: 'GET' },
  {
    route: '/api/admin/inquiries/:id',
    method: 'PATCH',
    body: { status: 'handled' },
    params: () => ({ id: inquiryId }),
  },
  { route: '/api/blogs', method: 'POST', body: { title: 'T', excerpt: 'E', content: '<p>C</p>' } },
  { route: '/api/blogs/admin/all', method: 'GET' },
  {
    route: '/api/blogs/:slug',
    method: 'PUT',
    body: { title: 'T', excerpt: 'E', content: '<p>C</p>', version: 1 },
    params: () => ({ slug: '00000000-0000-4000-8000-000000000000' }),
  },
  { route: '/api/blogs/:slug', method: 'DELETE', params: () => ({ slug: '00000000-0000-4000-8000-000000000000' }) },
  { route: '/api/blogs/admin/publish-due', method: 'POST' },
  { route: '/api/blogs/admin/:id/revisions', method: 'GET', params: () => ({ id: '0'.repeat(32) }) },
  {
    route: '/api/blogs/admin/:id/revisions',
    method: 'POST',
    body: { revision: 1, version: 1 },
    params: () => ({ id: '0'.repeat(32) }),
  },
  { route: '/api/upload/image', method: 'POST' },
  { route: '/api/uploads', method: 'GET' },
];
const present = ADMIN_CALLS.filter((call) => handlerFor(call.route));
const missing = ADMIN_CALLS.filter((call) => !handlerFor(call.route));

async function call(entry: (typeof ADMIN_CALLS)[number], authorization: string | null, query = '') {
  const params = entry.params?.() ?? {};
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== null) headers.authorization = authorization;
  const request = new Request(`http://localhost${fillRoute(entry.route, params)}${query}`, {
    method: entry.method,
    headers,
    body: entry.body === undefined ? undefined : JSON.stringify(entry.body),
  });
  return (await handlerFor(entry.route)!.handler(request, fakeContext(params))) as Response;
}

/* ---------- Hand-made tokens: one valid claim set, changed in exactly one respect ---------- */

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const { privateKey: rsaKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

interface Mint {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  omit?: string[];
  /** How the token is signed: an HMAC algorithm with a secret, RSA, or not at all. */
  signing?: { hmac: 'sha256' | 'sha384' | 'sha512'; secret: string } | 'rs256' | 'none';
  nowMs?: number;
}

function mint({ header = {}, claims = {}, omit = [], signing, nowMs = Date.now() }: Mint = {}): string {
  const now = Math.floor(nowMs / 1000);
  const payload: Record<string, unknown> = {
    ts: nowMs,
    sub: VICTIM,
    iss: TOKEN_ISSUER,
    aud: tokenAudience(),
    iat: now,
    exp: now + 3600,
    jti: VICTIM_SID,
    sid: VICTIM_SID,
    ...claims,
  };
  for (const name of omit) delete payload[name];
  const how = signing ?? { hmac: 'sha256', secret: SECRET };
  const alg = how === 'none' ? 'none' : how === 'rs256' ? 'RS256' : `HS${how.hmac.slice(3)}`;
  const input = `${b64({ alg, typ: 'JWT', ...header })}.${b64(payload)}`;
  if (how === 'none') return `${input}.`;
  if (how === 'rs256') return `${input}.${rsaSign('sha256', Buffer.from(input), rsaKey).toString('base64url')}`;
  return `${input}.${createHmac(how.hmac, how.secret).update(input).digest('base64url')}`;
}

const flipLast = (token: string) => token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
const HOUR = 3600_000;

/** Each differs from mint() (a valid token) in one respect. */
const ATTACKS: [string, () => string][] = [
  ['expired an hour ago', () => mint({ claims: { exp: Math.floor(Date.now() / 1000) - 3600 } })],
  ['expired one second ago', () => mint({ claims: { exp: Math.floor(Date.now() / 1000) - 1 } })],
  [
    'issued 9 hours ago with the real 8-hour lifetime',
    () =>
      mint({ nowMs: Date.now() - 9 * HOUR, claims: { exp: Math.floor((Date.now() - 9 * HOUR) / 1000) + 8 * 3600 } }),
  ],
  ['not valid before next hour (nbf)', () => mint({ claims: { nbf: Math.floor(Date.now() / 1000) + 3600 } })],
  [
    'forged: signed with another secret',
    () => mint({ signing: { hmac: 'sha256', secret: 'attacker-secret-that-is-also-long-enough-xyz' } }),
  ],
  ['forged: signature bytes changed', () => flipLast(mint())],
  [
    'forged: payload changed after signing (sub=admin)',
    () => {
      const [h, , s] = mint().split('.');
      return `${h}.${b64({ ts: Date.now(), sub: 'admin', iss: TOKEN_ISSUER, aud: tokenAudience(), iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 })}.${s}`;
    },
  ],
  ['forged: signature removed', () => `${mint().split('.').slice(0, 2).join('.')}.`],
  ['alg=none, unsigned', () => mint({ signing: 'none' })],
  [
    'alg=None (case variant), unsigned',
    () => {
      const [, p] = mint().split('.');
      return `${b64({ alg: 'None', typ: 'JWT' })}.${p}.`;
    },
  ],
  [
    'alg=none header on a correctly signed token',
    () => {
      const [, p, s] = mint().split('.');
      return `${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}`;
    },
  ],
  ['alg confusion: HS512 with the real secret', () => mint({ signing: { hmac: 'sha512', secret: SECRET } })],
  ['alg confusion: HS384 with the real secret', () => mint({ signing: { hmac: 'sha384', secret: SECRET } })],
  ['alg confusion: RS256 with an attacker key', () => mint({ signing: 'rs256' })],
  ['alg confusion: RS256 header, HMAC-SHA256 signature with the real secret', () => mint({ header: { alg: 'RS256' } })],
  ['wrong issuer', () => mint({ claims: { iss: 'https://evil.example' } })],
  ['wrong audience', () => mint({ claims: { aud: 'some-other-app' } })],
  ['audience list without ours', () => mint({ claims: { aud: ['a', 'b'] } })],
  ['missing exp', () => mint({ omit: ['exp'] })],
  ['missing iat', () => mint({ omit: ['iat'] })],
  ['missing sub', () => mint({ omit: ['sub'] })],
  ['missing issuer', () => mint({ omit: ['iss'] })],
  ['missing audience', () => mint({ omit: ['aud'] })],
  ['missing issue time in ms (ts)', () => mint({ omit: ['ts'] })],
  ['ts as a string', () => mint({ claims: { ts: String(Date.now()) } })],
  ['exp as a string', () => mint({ claims: { exp: String(Math.floor(Date.now() / 1000) + 3600) } })],
  ['unknown critical header', () => mint({ header: { crit: ['x-unknown'], 'x-unknown': 1 } })],
  [
    'jku/kid pointing at an attacker key set',
    () =>
      mint({
        header: { jku: 'https://evil.example/jwks.json', kid: 'evil' },
        signing: { hmac: 'sha256', secret: 'attacker-secret-that-is-also-long-enough-xyz' },
      }),
  ],
  ['sub of an account that does not exist', () => mint({ claims: { sub: 'nobody-at-all' } })],
  ['sub with path traversal', () => mint({ claims: { sub: '../users/token-victim' } })],
  ['sub as an object', () => mint({ claims: { sub: { $ne: null } } })],
  ['issued before the account was created (ts = 0)', () => mint({ claims: { ts: 0 } })],
  ['missing session id (sid)', () => mint({ omit: ['sid'] })],
  ['a session id the account does not have', () => mint({ claims: { sid: randomUUID() } })],
];

beforeAll(async () => {
  process.env.JWT_SECRET = SECRET;
  [blobs, database] = await Promise.all([startInspectableBlobs(), startDatabase()]);
  await createUser({ username: VICTIM, firstName: 'Vic', lastName: 'Tim', role: 'admin', password: PASSWORD });
  await recordSession(VICTIM, VICTIM_SID, 'Test device', Date.now());
  inquiryId = (await storeContactInquiry({ firstName: 'A', lastName: 'B', email: 'a@example.com' })).id;
});
afterAll(() => Promise.all([blobs?.stop(), database?.stop()]));

/** The files (blob folder) and the database's write mark as they are now, to prove a request wrote nothing. */
async function snapshot() {
  return { files: await snapshotBlobs(blobs.directory), mark: await writeMark() };
}
/** The blob stores a request changed since the snapshot, and 'database' if it wrote any row. */
async function changesSince(before: Awaited<ReturnType<typeof snapshot>>) {
  const database = (await writeMark()) === before.mark ? [] : ['database'];
  return [...changedStores(before.files, await snapshotBlobs(blobs.directory)), ...database];
}
beforeEach(() => {
  process.env.JWT_SECRET = SECRET;
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

async function expectRefusedEverywhere(authorization: string | null, query = '') {
  for (const entry of present) {
    const before = await snapshot();
    const response = await call(entry, authorization, query);
    const where = `${entry.method} ${entry.route}`;
    expect(response.status, where).toBe(401);
    expect(response.headers.get('www-authenticate'), where).toMatch(/^Bearer/);
    expect((await response.json()).message, where).toMatch(/log in/i);
    expect(await changesSince(before), where).toEqual([]);
  }
}

describe('forged and malformed tokens', () => {
  it('a hand-made token with the valid claim set is accepted by every admin endpoint (the control)', async () => {
    expect(present.length).toBeGreaterThanOrEqual(8);
    for (const entry of present.filter((e) => !e.route.startsWith('/api/auth/logout'))) {
      const response = await call(entry, `Bearer ${mint()}`);
      expect(response.status, `${entry.method} ${entry.route}`).not.toBe(401);
    }
  });

  it.each(ATTACKS)('%s: 401 from every admin endpoint, nothing written', async (_name, make) => {
    await expectRefusedEverywhere(`Bearer ${make()}`);
  });

  it('no token, a bearer that is not a token, another scheme, or a token in the query string: 401', async () => {
    const token = mint();
    await expectRefusedEverywhere(null);
    await expectRefusedEverywhere('Bearer not-a-real-token-at-all');
    await expectRefusedEverywhere(`Basic ${Buffer.from(`${VICTIM}:${PASSWORD}`).toString('base64')}`);
    await expectRefusedEverywhere(`Token ${token}`);
    await expectRefusedEverywhere(`Bearer ${token} ${token}`);
    await expectRefusedEverywhere(null, `?token=${token}&access_token=${token}`);
  });

  it('without a configured secret nothing is accepted (503, never 200)', async () => {
    const token = mint();
    process.env.JWT_SECRET = '';
    for (const entry of present) {
      const response = await call(entry, `Bearer ${token}`);
      expect([401, 503], `${entry.method} ${entry.route}`).toContain(response.status);
    }
  });
});

describe('revoked tokens', { timeout: 20_000 }, () => {
  const login = async (username: string, password: string) => {
    const handler = handlerFor('/api/auth/login')!.handler;
    const response = (await handler(
      new Request('http://localhost/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      }),
      fakeContext({}, '198.51.100.77'),
    )) as Response;
    expect(response.status).toBe(200);
    return (await response.json()).token as string;
  };
  const newAccount = async (name: string) => {
    await createUser({ username: name, firstName: 'Rev', lastName: 'Oked', role: 'editor', password: PASSWORD });
    return name;
  };
  const verify = (token: string) => call(ADMIN_CALLS[0], `Bearer ${token}`);

  it('after logout, the token is refused by every admin endpoint, while another device stays signed in', async () => {
    const name = await newAccount('revoked-by-logout');
    const other = await login(name, PASSWORD);
    const token = await login(name, PASSWORD);
    expect((await verify(token)).status).toBe(200);
    const logout = await call(ADMIN_CALLS[1], `Bearer ${token}`);
    expect(logout.status).toBe(200);
    await expectRefusedEverywhere(`Bearer ${token}`);
    expect((await verify(other)).status).toBe(200);
    // Signing in again works.
    expect((await verify(await login(name, PASSWORD))).status).toBe(200);
  });

  it('after sign out everywhere, every token of the account is refused by every admin endpoint', async () => {
    const name = await newAccount('revoked-everywhere');
    const older = await login(name, PASSWORD);
    const token = await login(name, PASSWORD);
    const everywhere = await call(ADMIN_CALLS[2], `Bearer ${token}`);
    expect(everywhere.status).toBe(200);
    await expectRefusedEverywhere(`Bearer ${token}`);
    await expectRefusedEverywhere(`Bearer ${older}`);
    expect((await verify(await login(name, PASSWORD))).status).toBe(200);
  });

  it('after a password reset, the old token is refused everywhere', async () => {
    const name = await newAccount('revoked-by-reset');
    const token = await login(name, PASSWORD);
    expect((await verify(token)).status).toBe(200);
    await setPassword(name, 'a completely new long password');
    await expectRefusedEverywhere(`Bearer ${token}`);
  });

  it('a token of a deleted account is refused everywhere', async () => {
    const name = await newAccount('deleted-account');
    const token = await login(name, PASSWORD);
    expect((await verify(token)).status).toBe(200);
    await db().query(sql`DELETE FROM staff WHERE username = ${name}`);
    expect(await getUser(name)).toBeNull();
    await expectRefusedEverywhere(`Bearer ${token}`);
  });

  it('a token issued by the real code but expired is refused', async () => {
    const user = (await getUser(VICTIM))!;
    const token = await issueToken(user, Date.now() - 8 * HOUR - 1000);
    await expectRefusedEverywhere(`Bearer ${token}`);
  });
});

describe('the admin endpoints under attack', () => {
  it('all exist, so every one of them is checked above', () => {
    expect(missing.map((c) => `${c.method} ${c.route}`)).toEqual([]);
  });
});
