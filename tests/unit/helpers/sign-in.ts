/**
 * What the sign-in test files share: a fresh database (and local blob server) per file with the session secret
 * set, the password module with every check counted, accounts with unique names, and sign-in requests to the
 * handlers.
 *
 * Count password checks with (vi.mock must sit in the test file itself):
 *   const checks = vi.hoisted(() => ({ count: 0 }));
 *   vi.mock('../../src/server/passwords', async (importOriginal) =>
 *     (await import('./helpers/sign-in')).countingPasswords(await importOriginal(), checks));
 */
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import type { ROLES } from '../../../src/schemas/auth';
import { createUser } from '../../../src/server/users';
import { startStores } from './stores';

export type Handler = (request: Request, context: Context) => Promise<Response>;

/** The password of the accounts these tests sign in with. */
export const SIGN_IN_PASSWORD = 'the right password is long enough';

/** The password module with every `verifyPassword` call counted in `checks`. */
export function countingPasswords<T extends { verifyPassword: (password: string, stored: string) => Promise<boolean> }>(
  real: T,
  checks: { count: number },
): T {
  return {
    ...real,
    verifyPassword: (password: string, stored: string) => {
      checks.count++;
      return real.verifyPassword(password, stored);
    },
  };
}

/**
 * Registers the file's hooks: the session secret, a fresh database and local blob server for the whole file
 * (each test uses accounts of its own), and a quiet console (the functions log every refusal).
 */
export function signInSuite(secret: string) {
  let stores: Awaited<ReturnType<typeof startStores>>;
  beforeAll(async () => {
    process.env.JWT_SECRET = secret;
    stores = await startStores();
  });
  afterAll(() => stores.stop());
  beforeEach(() => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
}

let n = 0;
/** A username no other test of the run has used. */
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${n++}`;

/**
 * Creates an account with a unique name and SIGN_IN_PASSWORD (an admin unless `role` says otherwise; with
 * `withEmail`, the address `<username>@example.com` is stored on it); returns its username.
 */
export async function signInAccount(prefix: string, { role = 'admin', withEmail = false }: AccountOptions = {}) {
  const username = uniqueName(prefix);
  const email = withEmail ? `${username}@example.com` : undefined;
  await createUser({ username, firstName: 'Test', lastName: 'Owner', role, email, password: SIGN_IN_PASSWORD });
  return username;
}
type AccountOptions = { role?: (typeof ROLES)[number]; withEmail?: boolean };

/** A JSON POST to a function handler, as from the address `ip`. */
export const postJson = (handler: Handler, path: string, body: unknown, context: Partial<Context> & { ip: string }) =>
  handler(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    context as Context,
  );

/** A sign-in with `username` and `password` from the address `ip`. */
export const signInWith = (handler: Handler, username: string, password: string, ip: string, context = {}) =>
  postJson(handler, '/api/auth/login', { username, password }, { ...context, ip });
