import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { openLocalData } from '../../../scripts/lib/local-data.ts';
import { createUser } from '../../../src/server/users.ts';
import { rememberAccount } from './run-accounts';

/**
 * Creates a staff account in the local blob store the test server uses (the same folder, through the
 * same code as `npm run users`), so each test signs in with its own account and lockouts never collide.
 */
export async function createStaff(prefix = 'e2e', role: 'admin' | 'editor' = 'admin') {
  const username = `${prefix}-${randomBytes(5).toString('hex')}`;
  const password = randomBytes(12).toString('base64url');
  const target = await openLocalData({});
  try {
    await createUser({ username, firstName: 'Test', lastName: 'Editor', role, password });
    rememberAccount(username);
  } finally {
    await target.close();
  }
  return { username, password, firstName: 'Test', lastName: 'Editor' };
}

type Account = { username: string; password: string };

/** Signs in through the login form and waits for `next` (the dashboard unless another page is asked for). */
export async function signInWithForm(page: Page, account: Account, next?: string) {
  await page.goto(next ? `/admin/login?next=${encodeURIComponent(next)}` : '/admin/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`**${next ?? '/admin/dashboard'}`);
}

/** A new staff account signed in through the login API: its token and the user record the API returns. */
export async function staffSession(request: APIRequestContext, prefix: string, role: 'admin' | 'editor' = 'admin') {
  const account = await createStaff(prefix, role);
  const answer = await request.post('/api/auth/login', {
    data: { username: account.username, password: account.password },
  });
  expect(answer.status()).toBe(200);
  const { token, user } = (await answer.json()) as { token: string; user: unknown };
  return { token, user, account, auth: { authorization: `Bearer ${token}` } };
}
