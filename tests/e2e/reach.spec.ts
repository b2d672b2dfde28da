import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/**
 * A worker on a phone reaches the search and a person at once: the header search answers the first tap before
 * any script has loaded, and the phone number is one tap away, on targets a thumb can hit.
 */

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1440) <= 768;
/** Every bundled script, with or without the deploy's `?dpl=` query (a glob ending in .js misses those). */
const BUNDLED_SCRIPT = /\/_astro\/[^?#]*\.js(?:[?#]|$)/;

/** The business phone as the footer shows it (from the site settings), and its tel: address. */
async function sitePhone(page: Page) {
  const phone = (await page.locator('footer a[data-setting="contactInfo.phone"]').textContent())?.trim() ?? '';
  expect(phone).not.toBe('');
  return { phone, href: `tel:${phone.replace(/[^\d+]/g, '')}` };
}

test.describe('header search before and after its island loads', () => {
  test('finding 4: the dialog opens on the first tap with no script loaded, and typing works at once', async ({
    page,
  }) => {
    // Every bundled script (the island, React, the site script) answers nothing.
    await page.route(BUNDLED_SCRIPT, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );
    await page.goto('/about');
    const trigger = page.getByRole('button', { name: 'Search qualifications' });
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: 'Find Your Qualification' });
    await expect(dialog).toBeVisible();
    const input = dialog.getByPlaceholder('Search for your qualification here...');
    await expect(input).toBeFocused();
    await page.keyboard.type('forklift');
    await expect(input).toHaveValue('forklift');
    await expect(dialog).toContainText('Enter a qualification name, code or keyword to find relevant courses');
    await expect(dialog).toContainText('Try: carpenter, aged care, forklift');
    // Escape clears the search field first (the browser's own behaviour), then closes the dialog and gives the
    // focus back to the icon, still without any script.
    await page.keyboard.press('Escape');
    await expect(input).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });

  test('finding 4: the island wakes into the open dialog and keeps what was typed', async ({ page }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(BUNDLED_SCRIPT, async (route) => {
      await held;
      await route.continue();
    });
    // The page's own module scripts are held too, so the document never reaches DOMContentLoaded meanwhile.
    await page.goto('/about', { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Search qualifications' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Your Qualification' });
    const input = dialog.getByPlaceholder('Search for your qualification here...');
    await expect(input).toBeFocused();
    await page.keyboard.type('carpenter');
    release();
    await expect(page.locator('astro-island[component-url*="SearchModal"]')).not.toHaveAttribute('ssr');
    await expect(input).toHaveValue('carpenter');
    const matches = dialog.getByRole('list', { name: 'Matching qualifications' });
    await expect(matches.getByRole('link').first()).toHaveAttribute('href', '/courses/CPC30220');
    await expect(dialog).toBeVisible();
  });

  test('finding 4: the modal says there is no match as you type, with the phone and the free quote', async ({
    page,
  }) => {
    await page.goto('/faq');
    const { phone, href } = await sitePhone(page);
    await page.getByRole('button', { name: 'Search qualifications' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Your Qualification' });
    await dialog.getByPlaceholder('Search for your qualification here...').pressSequentially('underwater basket');
    const none = dialog.getByRole('status');
    await expect(none).toContainText('No qualification matches “underwater basket” yet.');
    await expect(none.getByRole('link', { name: 'get a free quote' })).toHaveAttribute(
      'href',
      '/free-quote?search=underwater+basket',
    );
    await expect(none.getByRole('link', { name: phone })).toHaveAttribute('href', href);
    // Still on the page: nothing was submitted.
    await expect(page).toHaveURL(/\/faq$/);
    const results = await new AxeBuilder({ page }).include('dialog.search-modal').withTags(AXE_TAGS).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});

test.describe('a phone in reach', () => {
  test('finding 5: every phone and e-mail link is at least 44 x 44 px to tap', async ({ page }) => {
    for (const path of ['/', '/contact', '/free-quote', '/about', '/courses/CPC30220', '/search?search=zzzqqq']) {
      await page.goto(path);
      if (isPhone(page)) {
        // The mobile menu's call button counts too.
        await page.getByRole('button', { name: 'Open menu' }).click();
        await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
      }
      const links = page.locator('a[href^="tel:"], a[href^="mailto:"]');
      await expect(links.first()).toBeAttached();
      const small: string[] = [];
      for (const link of await links.all()) {
        if (!(await link.isVisible())) continue;
        const box = await link.boundingBox();
        if (!box || box.width < 44 || box.height < 44)
          small.push(`${path} ${await link.getAttribute('href')} ${box?.width}x${box?.height}`);
      }
      expect(small).toEqual([]);
    }
  });

  test('finding 5: a call button sits in the phone header, the mobile menu and the home hero', {
    tag: '@phone-only',
  }, async ({ page }) => {
    await page.goto('/');
    const { phone, href } = await sitePhone(page);
    const call = page
      .getByRole('banner')
      .getByRole('link', { name: `Call ${phone}` })
      .first();
    await expect(call).toBeVisible();
    await expect(call).toHaveAttribute('href', href);
    await expect(page.locator('.hero').getByRole('link', { name: `Call ${phone}` })).toHaveAttribute('href', href);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: `Call ${phone}` }),
    ).toHaveAttribute('href', href);
  });

  test('finding 5: the desktop top strip shows the phone number beside the e-mail', { tag: '@desktop-only' }, async ({
    page,
  }) => {
    await page.goto('/');
    const { phone, href } = await sitePhone(page);
    const strip = page.locator('.top-strip');
    await expect(strip.getByRole('link', { name: phone })).toHaveAttribute('href', href);
    await expect(strip.getByRole('link', { name: 'support@rplpathways.com.au' })).toBeVisible();
  });

  test('finding 5: /contact shows the number and the hours above the form', async ({ page }) => {
    await page.goto('/contact');
    const { phone, href } = await sitePhone(page);
    const call = page.locator('.contact__call');
    await expect(call.getByRole('link', { name: phone })).toHaveAttribute('href', href);
    await expect(call).toContainText('Mon - Sat: 8:00 am - 7:00 pm');
    const callBox = await call.boundingBox();
    const formBox = await page.locator('.contact__form form').first().boundingBox();
    expect(callBox && formBox && callBox.y + callBox.height <= formBox.y).toBe(true);
    const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
