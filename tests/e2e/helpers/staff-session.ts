import { test as base, expect, type APIRequestContext } from '@playwright/test';
import { createStaff } from './accounts';

type SharedStaff = {
  account: Awaited<ReturnType<typeof createStaff>>;
  token: string;
  /** The user record the login API returned, as the login page stores it. */
  user: unknown;
};

/** The worker's shared session: made by the first test that asks for it, then kept for the worker's life. */
let shared: Promise<SharedStaff> | undefined;

async function signInOnce(newRequest: () => Promise<APIRequestContext>): Promise<SharedStaff> {
  const account = await createStaff('shared');
  const api = await newRequest();
  try {
    const answer = await api.post('/api/auth/login', {
      data: { username: account.username, password: account.password },
    });
    expect(answer.status(), await answer.text()).toBe(200);
    const { token, user } = (await answer.json()) as { token: string; user: unknown };
    return { account, token, user };
  } finally {
    await api.dispose();
  }
}

/**
 * For admin tests that do not exercise signing in: one admin account per worker, signed in once through the
 * login API, and every test's browser starts with that session in its storage (Playwright's storageState), so
 * `page.goto('/admin/...')` opens the page signed in. This saves each test an account, a password check on
 * the server and the login page; the sign-in rate limits only count failures, so one sign-in per worker
 * never meets them. The session is kept in this module rather than in a worker-scoped fixture, so these tests
 * share their worker (and its browser) with the other tests of their file instead of needing one of their own.
 *
 * Tests that sign in, sign out, change the password or revoke tokens (which would end the session for every
 * later test of the worker), or that need an account of their own (another role, or state kept per account
 * such as what is new since it last opened the inbox), keep using createStaff and signInWithForm.
 */
export const test = base.extend<{ staff: SharedStaff }>({
  staff: async ({ playwright, baseURL }, use) => {
    shared ??= signInOnce(() => playwright.request.newContext({ baseURL }));
    await use(
      await shared.catch((error: unknown) => {
        shared = undefined; // a failed sign-in is not kept: the next test tries again
        throw error;
      }),
    );
  },
  storageState: async ({ staff, baseURL }, use) =>
    use({
      cookies: [],
      origins: [
        {
          origin: new URL(baseURL!).origin,
          localStorage: [
            { name: 'token', value: staff.token },
            { name: 'user', value: JSON.stringify(staff.user) },
          ],
        },
      ],
    }),
});
