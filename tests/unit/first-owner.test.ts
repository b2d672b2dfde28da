/**
 * The first owner of a new site without a developer's machine: /api/auth/setup with the setup secret from the
 * site's environment. Attacks: setup after an owner exists, a wrong secret, setups at once, setup switched off.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { db, sql } from '../../src/platform/database';
import { getUser } from '../../src/server/users';
import { verifyPassword } from '../../src/server/passwords';
import { config } from '../../netlify/functions/auth-setup.mts';
import handler from '../../netlify/functions/auth-setup.mts';
import { SETUP_DONE, SETUP_NOT_ENABLED, SETUP_WRONG_SECRET } from '../../src/schemas/staff';

const SECRET = 'the-setup-secret-of-this-site-0123456789abcdef';
let stores: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  stores = await startStores();
});
afterAll(() => stores.stop());
afterEach(() => vi.unstubAllEnvs());

const owner = (overrides: Record<string, unknown> = {}) => ({
  secret: SECRET,
  username: 'first-owner',
  firstName: 'Olive',
  lastName: 'Owner',
  email: 'olive@example.com',
  password: 'a long owner password 2026',
  ...overrides,
});
const setup = (body: unknown) =>
  handler(
    new Request('http://localhost/api/auth/setup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
const state = async () => (await handler(new Request('http://localhost/api/auth/setup'))).json();
const accounts = async () => (await db().query<{ n: number }>(sql`SELECT count(*)::int AS n FROM staff`))[0].n;

describe('the first owner', () => {
  it('is refused while setup is switched off (no secret, or a short one), and says how to switch it on', async () => {
    expect(await state()).toEqual({ enabled: false, done: false });
    const off = await setup(owner());
    expect(off.status).toBe(404);
    expect((await off.json()).message).toBe(SETUP_NOT_ENABLED);
    vi.stubEnv('SETUP_SECRET', 'too-short');
    expect((await setup(owner({ secret: 'too-short' }))).status).toBe(404);
    expect(await accounts()).toBe(0);
  });

  it('refuses a wrong secret and bad input, storing nothing', async () => {
    vi.stubEnv('SETUP_SECRET', SECRET);
    expect(await state()).toEqual({ enabled: true, done: false });
    for (const secret of ['', 'x', `${SECRET}x`, SECRET.slice(0, -1)]) {
      const answer = await setup(owner({ secret }));
      expect(answer.status, secret).toBe(secret ? 403 : 400);
      if (secret) expect((await answer.json()).message).toBe(SETUP_WRONG_SECRET);
    }
    expect((await setup(owner({ password: 'short' }))).status).toBe(400);
    expect((await setup(owner({ email: 'not an address' }))).status).toBe(400);
    expect((await setup(owner({ username: '../admin' }))).status).toBe(400);
    expect(await accounts()).toBe(0);
  });

  it('makes exactly one owner from setups sent at once, and refuses every later one for good', async () => {
    vi.stubEnv('SETUP_SECRET', SECRET);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => setup(owner({ username: `owner-${n}`, email: `owner${n}@example.com` }))),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await accounts()).toBe(1);
    const made = await answers.find((answer) => answer.status === 201)!.json();
    const user = await getUser(made.username);
    expect(user).toMatchObject({ role: 'admin', active: true });
    expect(await verifyPassword('a long owner password 2026', user!.passwordHash!)).toBe(true);
    expect(await state()).toEqual({ enabled: true, done: true });
    // Later, with the right secret and a fresh name: refused.
    const later = await setup(owner({ username: 'late-owner', email: 'late@example.com' }));
    expect(later.status).toBe(409);
    expect((await later.json()).message).toBe(SETUP_DONE);
    expect(await accounts()).toBe(1);
  });

  it('is rate limited by the platform per address', () => {
    expect(config).toMatchObject({
      path: '/api/auth/setup',
      rateLimit: { windowLimit: 5, aggregateBy: ['ip', 'domain'] },
    });
  });
});
