/**
 * Issue: staff accounts in the admin. Through the browser: an administrator invites a person, the person sets
 * their password from the e-mailed link and signs in, the administrator changes their role and deactivates
 * them (their open session ends at once). The Account screen: own name, sessions, "End", and Logout ending
 * this device only. The invitation mail is read from the mail the local site kept (its database's outbox).
 */
import { test, expect, type Browser, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { keptMailTo } from './helpers/outbox.ts';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createStaff, signInWithForm } from './helpers/accounts';
import { axeViolations, untilStill } from './helpers/still';
import { ONCE } from './helpers/viewports';

/** Full-page pictures of the screens, to look at after a run (inside the project's own test output). */
const SHOTS = join(process.cwd(), 'test-results', 'screens', 'users');

/** The invitation link sent to `email`, once it is in the outbox. */
async function invitationLink(email: string): Promise<string> {
  for (const mail of await keptMailTo(email, 'staff-invite-')) {
    const link = /https?:\/\/\S+\/admin\/accept-invite#token=[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
    if (link) return new URL(link).pathname + new URL(link).hash;
  }
  return '';
}

async function shot(page: Page, name: string) {
  await untilStill(page);
  const width = page.viewportSize()?.width ?? 0;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
}

async function signedInPage(browser: Browser, account: { username: string; password: string }, next?: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithForm(page, account, next);
  return page;
}

test('issue: invite -> set password -> sign in -> role change -> deactivate', ONCE, async ({ page, browser }) => {
  // Four people's screens, two accessibility scans and two full-page pictures of a list that grows with every
  // account the suite creates: a minute is not enough on a busy two-core machine.
  test.setTimeout(120_000);
  const admin = await createStaff('users-admin', 'admin');
  await signInWithForm(page, admin, '/admin/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');

  const email = `invitee-${randomBytes(4).toString('hex')}@example.com`;
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('First name').fill('Ivy');
  await page.getByLabel('Last name').fill('Invitee');
  await page.getByLabel('Role', { exact: true }).selectOption('editor');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const sent = page.getByRole('status').filter({ hasText: `Invitation sent to ${email}.` });
  await expect(sent).toBeVisible();
  const username = /Their username is (\S+)\./.exec((await sent.textContent()) ?? '')![1];
  const row = page.getByRole('row', { name: new RegExp(`Ivy Invitee.*${username}`) });
  // The list is read again after the invitation: every account of the store, more with each test that made one.
  await expect(row.getByText('Invited', { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, 'users');

  // The invited person opens the link and chooses a password (a too short one first).
  let link = '';
  await expect.poll(async () => (link = await invitationLink(email))).not.toBe('');
  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(link);
  await invitee.getByLabel('New password (at least 12 characters)').fill('short');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByRole('alert')).toHaveText('Passwords must be at least 12 characters');
  expect(await axeViolations(invitee)).toEqual([]);
  await shot(invitee, 'accept-invite');
  await invitee.getByLabel('New password (at least 12 characters)').fill('ivy chose this password');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByRole('status')).toHaveText(`Your password is set. Log in with your username ${username}.`);
  expect(invitee.url()).not.toContain('token=');
  // The link works once (opened again from the mail, in a new tab).
  const again = await invitee.context().newPage();
  await again.goto(link);
  await again.getByLabel('New password (at least 12 characters)').fill('another chosen password');
  await again.getByRole('button', { name: 'Set password' }).click();
  await expect(again.getByRole('alert')).toHaveText(
    'This invitation link is invalid, used or expired. Ask an administrator to invite you again.',
  );
  await again.close();

  // Sign in as the new editor: no Users link, the Users page is not for the role.
  await signInWithForm(invitee, { username, password: 'ivy chose this password' });
  await expect(invitee.getByRole('link', { name: 'Account' })).toBeVisible();
  await expect(invitee.getByRole('link', { name: 'Users' })).toHaveCount(0);

  // The administrator makes them an admin: their next page shows Users.
  await page.reload();
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await row.getByLabel('Role of Ivy Invitee').selectOption('admin');
  await expect(page.getByText('Ivy Invitee: Administrator, active.')).toBeVisible();
  // The page draws from the stored session at once and checks it with the server behind it; both that check
  // and the list must have answered, or the deactivation below would end the session while the page still
  // asks, and send it to the login page on its own.
  const verified = invitee.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/verify');
  await invitee.goto('/admin/users');
  await expect(invitee.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(invitee.getByTestId('not-for-role')).toHaveCount(0);
  expect((await verified).status()).toBe(200);
  await expect(invitee.getByRole('row', { name: new RegExp(`Ivy Invitee.*${username}`) })).toBeVisible();

  // Deactivated: the open session ends at once, and sign-in is refused.
  await row.getByRole('button', { name: 'Deactivate Ivy Invitee' }).click();
  await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();
  await invitee.goto('/admin/account');
  await invitee.waitForURL('**/admin/login**');
  await invitee.getByLabel('Username').fill(username);
  await invitee.getByLabel('Password', { exact: true }).fill('ivy chose this password');
  await invitee.getByRole('button', { name: 'Login' }).click();
  await expect(invitee.getByRole('alert')).toHaveText(
    'This account has been deactivated. Ask an administrator if you need access again.',
  );

  // Delete with confirmation.
  await row.getByRole('button', { name: 'Delete Ivy Invitee' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Delete the account of Ivy Invitee (${username})? This cannot be undone.`);
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});

test(
  'issue: the Account screen renames, lists sessions, ends another one; Logout ends this device only',
  ONCE,
  async ({ page, browser }) => {
    const editor = await createStaff('users-own', 'editor');
    const other = await signedInPage(browser, editor);
    await signInWithForm(page, editor, '/admin/account');
    await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();

    await page.getByLabel('First name').fill('Renata');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText('Your name has been saved.')).toBeVisible();
    await expect(page.locator('.admin-user__name')).toHaveText('Renata Editor');

    const sessions = page.getByRole('list', { name: 'Your sessions' });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await expect(sessions.getByText('(this device)')).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'account');

    await sessions.getByRole('button', { name: /^End the session/ }).click();
    await expect(page.getByText('The session has ended.')).toBeVisible();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await other.goto('/admin/dashboard');
    await other.waitForURL('**/admin/login**');

    // Logout here leaves a third device signed in.
    const third = await signedInPage(browser, editor);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await third.goto('/admin/account');
    await expect(third.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
    // Sign out everywhere ends it too.
    await third.getByRole('button', { name: 'Sign out everywhere' }).click();
    await third.waitForURL('**/admin/login');
    await third.goto('/admin/dashboard');
    await third.waitForURL('**/admin/login?next=%2Fadmin%2Fdashboard');
  },
);
