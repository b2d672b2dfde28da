/**
 * Issue (staff accounts): an optional second factor by authenticator app, with recovery codes, for
 * administrators. Through the browser: an administrator sets it up on the Account screen from the key the
 * screen shows (as an app would after scanning the QR code), keeps the recovery codes, and from then on signs
 * in with password and code; a recovery code works in the same field; turning it off needs the password.
 */
import { test, expect, type Page } from '@playwright/test';
import { createStaff, signInWithForm } from './helpers/accounts';
import { axeViolations, untilStill } from './helpers/still';
import { codeAt } from '../../src/server/second-factor.ts';
import { ONCE } from './helpers/viewports';

const STEP_MS = 30_000;

async function signInWithCode(page: Page, account: { username: string; password: string }, code: string) {
  await page.goto('/admin/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  const field = page.getByLabel('Authentication code');
  await expect(field).toBeFocused();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  await field.fill(code);
  await page.getByRole('button', { name: 'Login' }).click();
}

test(
  'issue: an administrator sets up an authenticator app, then signs in with a code or a recovery code',
  ONCE,
  async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const admin = await createStaff('tfa-admin', 'admin');
    await signInWithForm(page, admin, '/admin/account');
    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await expect(card).toContainText('Off.');
    await card.getByLabel('Current password').fill('not my password at all');
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(card.getByText('Your current password is not correct.')).toBeVisible();
    await card.getByLabel('Current password').fill(admin.password);
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const key = ((await card.locator('.tfa-key').textContent()) ?? '').replace(/\s/g, '');
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    expect(await axeViolations(page)).toEqual([]);
    await untilStill(page);
    await page.screenshot({ path: testInfo.outputPath('second-factor-setup.png'), fullPage: true });

    // A wrong code first, then the app's code (of the step before, so the sign-in below gets a newer one).
    await card.getByLabel('6-digit code').fill('000000');
    await card.getByRole('button', { name: 'Turn on' }).click();
    await expect(card.getByText('That code is not right.')).toBeVisible();
    await card.getByLabel('6-digit code').fill(codeAt(key, admin.username, Date.now() - STEP_MS));
    await card.getByRole('button', { name: 'Turn on' }).click();
    const codes = card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recovery = (await codes.allTextContents()).map((text) => text.trim());
    await page.screenshot({ path: testInfo.outputPath('second-factor-recovery.png'), fullPage: true });
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await expect(card).toContainText('10 recovery codes left.');

    // Signing in now asks for the code after the password.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await signInWithCode(page, admin, codeAt(key, admin.username, Date.now()));
    await page.waitForURL('**/admin/dashboard');

    // A recovery code works once in the same field.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await signInWithCode(page, admin, recovery[0]);
    await page.waitForURL('**/admin/dashboard');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await signInWithCode(page, admin, recovery[0]);
    await expect(page.getByRole('alert')).toHaveText(
      'That code is not right. Enter the newest code from your authenticator app.',
    );
    await untilStill(page);
    await page.screenshot({ path: testInfo.outputPath('second-factor-login.png'), fullPage: true });

    // Turned off with the password: the password alone signs in again.
    await page.getByLabel('Authentication code').fill(recovery[1]);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/admin/dashboard');
    await page.goto('/admin/account');
    await expect(card).toContainText('8 recovery codes left.');
    await card.getByLabel('Current password').fill('not my password at all');
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expect(card.getByText('Your current password is not correct.')).toBeVisible();
    await card.getByLabel('Current password').fill(admin.password);
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expect(card).toContainText('Off.');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await signInWithForm(page, admin);
  },
);

test('the two-step card is not offered to editors', ONCE, async ({ page }) => {
  const editor = await createStaff('tfa-editor', 'editor');
  await signInWithForm(page, editor, '/admin/account');
  await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Two-step sign-in' })).toHaveCount(0);
});
