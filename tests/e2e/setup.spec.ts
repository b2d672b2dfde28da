/**
 * The first-owner page (/admin/setup). The local site has owners already and no SETUP_SECRET, so it shows that
 * setup is done; its form is shown by answering the page's first question as a new site would, and what the form
 * sends still goes to the real server, which refuses it while setup is switched off.
 */
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { ONCE } from './helpers/viewports';
import { axeViolations } from './helpers/still';

test('the setup page says the site has an owner already, with a way to log in, and passes axe', async ({ page }) => {
  await page.goto('/admin/setup');
  await expect(page.getByText('This site already has an owner.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to login' })).toHaveAttribute('href', '/admin/login');
  await expect(page.getByLabel(/Setup secret/)).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
});

test('on a new site the form asks for the secret and the account, and says plainly when setup is off', async ({
  page,
}) => {
  await page.route('**/api/auth/setup', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { enabled: true, done: false } }) : route.fallback(),
  );
  await page.goto('/admin/setup');
  await page.getByLabel(/Setup secret/).fill('s'.repeat(40));
  await page.getByLabel('Username').fill('newowner');
  await page.getByLabel('First name').fill('Nora');
  await page.getByLabel('Last name').fill('Owner');
  await page.getByLabel(/E-mail/).fill('nora@example.com');
  await page.getByLabel(/Password/).fill('a long enough password');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Create the owner' }).click();
  await expect(page.getByRole('alert')).toContainText('Setup is not enabled on this site.');
});

test('the smoke check of a deployed site passes against this one', ONCE, async ({ baseURL }) => {
  // scripts/smoke.mjs is what docs/deploy.md gives an owner to check a live site; it only reads.
  const run = spawnSync(process.execPath, ['scripts/smoke.mjs', baseURL!, '--json'], { encoding: 'utf8' });
  const report = JSON.parse(run.stdout.slice(0, run.stdout.lastIndexOf('}') + 1));
  expect(report.results.filter((result: { ok: boolean }) => !result.ok)).toEqual([]);
  expect(report.passed).toBeGreaterThan(10);
  expect(run.status).toBe(0);
});
