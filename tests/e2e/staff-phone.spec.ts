import { expect, type Locator, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { axeViolations, untilStill } from './helpers/still';
import { test } from './helpers/staff-session';
import { storeInquiry } from './helpers/inquiries';

/**
 * The staff screens whose workflows run once, at desktop width (users.spec, second-factor.spec, inbox-replies.spec):
 * at 360 px each screen still fits the width, passes an accessibility scan and shows its controls where a thumb
 * reaches them. The workflows' rules do not depend on the screen; what a phone can break is the layout.
 */
const SCREENS = join(process.cwd(), 'test-results', 'screens', 'phone');
const eventually = expect.configure({ timeout: 20_000 });

/** Nothing wider than the screen: no sideways scroll, and each control given lies inside the width. */
async function fitsTheWidth(page: Page, controls: Locator[]) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(width);
  for (const control of controls) {
    await control.scrollIntoViewIfNeeded();
    const box = await control.boundingBox();
    expect(box, `${control} has a box`).not.toBeNull();
    expect(box!.x, `${control} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${control} ends on screen`).toBeLessThanOrEqual(width + 0.5);
  }
}

async function look(page: Page, name: string) {
  expect(await axeViolations(page)).toEqual([]);
  await untilStill(page);
  await mkdir(SCREENS, { recursive: true });
  await page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true });
}

test.describe('staff screens on a phone', { tag: '@phone-only' }, () => {
  test('users: the list and the invitation form fit 360 px', async ({ page }) => {
    await page.goto('/admin/users');
    await eventually(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await eventually(page.getByRole('row').nth(1)).toBeVisible();
    await fitsTheWidth(page, [
      page.getByLabel('E-mail'),
      page.getByLabel('First name'),
      page.getByLabel('Role', { exact: true }),
      page.getByRole('button', { name: 'Send invitation' }),
    ]);
    await look(page, 'users');
  });

  test('account: sessions and the authenticator set-up fit 360 px', async ({ page, staff }) => {
    await page.goto('/admin/account');
    await eventually(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
    const sessions = page.getByRole('list', { name: 'Your sessions' });
    await eventually(sessions.getByText('(this device)')).toHaveCount(1);
    await fitsTheWidth(page, [page.getByRole('button', { name: 'Save name' }), sessions]);
    await look(page, 'account');

    // The set-up shows its code and key but turns nothing on until a code is confirmed.
    const card = page.getByRole('region', { name: 'Two-step sign-in' });
    await card.getByLabel('Current password').fill(staff.account.password);
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await eventually(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    await fitsTheWidth(page, [
      card.getByRole('img', { name: 'QR code for your authenticator app' }),
      card.locator('.tfa-key'),
      card.getByLabel('6-digit code'),
      card.getByRole('button', { name: 'Turn on' }),
    ]);
    await look(page, 'second-factor-setup');
  });

  test('inbox: an inquiry with its reply form and follow-up fits 360 px', async ({ page }) => {
    const email = `phone-screens-${Date.now()}@example.com`;
    await storeInquiry({ firstName: 'Phoebe', lastName: 'Screens', email });
    await page.goto(`/admin/inquiries?q=${encodeURIComponent(email)}`);
    const item = page.locator('.inbox-item');
    await eventually(item).toHaveCount(1);
    await item.getByRole('button', { name: /Details, notes and assignment/ }).click();
    const form = item.getByRole('form', { name: 'Write a reply' });
    await eventually(form.getByLabel('Start from a template')).toBeVisible();
    await form.getByLabel('Start from a template').selectOption({ label: 'Quote sent' });
    await eventually(form.getByTestId('reply-preview')).toContainText('Hi Phoebe,');
    await fitsTheWidth(page, [
      form.getByLabel('Subject'),
      form.getByTestId('reply-preview'),
      form.getByRole('button', { name: 'Send reply' }),
      item.getByLabel('Follow up on'),
      item.getByRole('button', { name: 'Save follow-up' }),
    ]);
    await look(page, 'inquiry-reply');
  });
});
