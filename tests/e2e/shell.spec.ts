import { test, expect, type Page } from '@playwright/test';

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1440) <= 768;

test.describe('header', () => {
  test('highlights the active link and offers Free Quote', { tag: '@desktop-only' }, async ({ page }) => {
    await page.goto('/about');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Home', 'Courses', 'About Us', 'Contact Us', 'How RPL Works']);
    await expect(nav.getByRole('link', { name: 'About Us' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Free Quote' })).toHaveAttribute(
      'href',
      '/free-quote',
    );
  });

  test('desktop top strip shows the e-mail, hours and social links', { tag: '@desktop-only' }, async ({ page }) => {
    await page.goto('/');
    const strip = page.locator('.top-strip');
    await expect(strip.getByRole('link', { name: 'support@rplpathways.com.au' })).toHaveAttribute(
      'href',
      'mailto:support@rplpathways.com.au',
    );
    await expect(strip).toContainText('Mon - Sat: 8:00 am - 7:00 pm');
    for (const name of ['Facebook', 'Instagram', 'YouTube']) {
      await expect(strip.getByRole('link', { name: new RegExp(name) })).toHaveAttribute('target', '_blank');
    }
  });

  test('shows Dashboard only when a stored session exists', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await page.evaluate(() => {
      localStorage.setItem('token', 'a.b.c');
      localStorage.setItem('user', JSON.stringify({ firstName: 'Sam' }));
    });
    await page.reload();
    if (isPhone(page)) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
        'href',
        '/admin/dashboard',
      );
    } else {
      await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).first()).toBeVisible();
    }
  });
});

test.describe('search modal', () => {
  test('opens, traps focus, closes on Escape and returns focus', async ({ page }) => {
    await page.goto('/about');
    const trigger = page.getByRole('button', { name: 'Search qualifications' });
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: 'Find Your Qualification' });
    await expect(dialog).toBeVisible();
    const input = dialog.getByPlaceholder('Search for your qualification here...');
    await expect(input).toBeFocused();
    await expect(dialog).toContainText('Enter a qualification name, code or keyword to find relevant courses');
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          () => !!document.activeElement?.closest('dialog') || document.activeElement === document.body,
        ),
      ).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });

  test('blank input does nothing; a term goes to /search trimmed', async ({ page }) => {
    await page.goto('/faq');
    await page.getByRole('button', { name: 'Search qualifications' }).click();
    const dialog = page.getByRole('dialog', { name: 'Find Your Qualification' });
    const input = dialog.getByPlaceholder('Search for your qualification here...');
    await input.fill('    ');
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/faq$/);
    await input.fill('  aged care  ');
    // Enter from the keyboard, not locator.press: the island can wake and swap the field between Playwright
    // finding it and pressing, and then the locator waits for a field the navigation has already taken away.
    await expect(input).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/search\?search=aged\+care$/);
  });

  test('a click on the backdrop or the close button closes it', async ({ page }) => {
    await page.goto('/');
    const trigger = page.getByRole('button', { name: 'Search qualifications' });
    const dialog = page.getByRole('dialog', { name: 'Find Your Qualification' });
    await trigger.click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, (page.viewportSize()?.height ?? 700) - 5);
    await expect(dialog).toBeHidden();
    await trigger.click();
    await dialog.getByRole('button', { name: 'Close search' }).click();
    await expect(dialog).toBeHidden();
  });
});

test.describe('mobile menu', () => {
  test('slides in with the links, Free Quote and Follow Us; locks scrolling; closes on navigation', {
    tag: '@phone-only',
  }, async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('navigation').getByRole('link')).toHaveText([
      'Home',
      'Courses',
      'About Us',
      'Contact Us',
      'How RPL Works',
    ]);
    await expect(menu.getByRole('link', { name: 'Free Quote' })).toBeVisible();
    await expect(menu.getByText('Follow Us')).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
    await menu.getByRole('link', { name: 'About Us' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
  });

  test('closes with its close button and Escape, releasing the scroll lock', { tag: '@phone-only' }, async ({
    page,
  }) => {
    await page.goto('/faq');
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.classList.contains('is-locked'))).toBe(false);
  });
});

test.describe('footer', () => {
  test('shows contact details, quick links and a copyright line to the admin login', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('navigation', { name: 'Quick links' }).getByRole('link')).toHaveText([
      'Courses',
      'About Us',
      'FAQ',
      'Privacy Policy',
      'Terms & Conditions',
      'Blog',
    ]);
    await expect(footer.getByRole('link', { name: '(02) 5550 1234' })).toHaveAttribute('href', 'tel:0255501234');
    await expect(footer.getByRole('link', { name: '0491 570 156' })).toBeVisible();
    await expect(footer).toContainText('200 Gilchrist Dr, Campbelltown NSW 2560');
    const copyright = footer.getByRole('link', { name: new RegExp(`© ${new Date().getFullYear()} RPL Pathways`) });
    await expect(copyright).toHaveAttribute('href', '/admin/login');
    await expect(footer).toContainText('not a registered training organisation');
  });
});

test.describe('scrolling helpers', () => {
  test('back-to-top appears after 300px and returns to the top; the progress bar follows the scroll', async ({
    page,
  }) => {
    await page.goto('/privacy-policy');
    const button = page.getByRole('button', { name: 'Back to top' });
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 250));
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 1200));
    // On a phone it steps aside while it would cover text, so there the state is what appears.
    if (test.info().project.name === 'phone')
      await expect(page.locator('[data-back-to-top]')).toHaveClass(/\bis-visible\b/);
    else await expect(button).toBeVisible();
    const bar = page.locator('[data-scroll-progress]');
    await expect.poll(() => bar.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a)).toBeGreaterThan(0);
    await page.locator('[data-back-to-top]').evaluate((el: HTMLButtonElement) => el.click());
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 3000 }).toBe(0);
    await expect(button).toBeHidden();
  });

  test('an in-page link scrolls its target below the fixed header', async ({ page }) => {
    await page.goto('/privacy-policy');
    const link = page.locator('.legal__toc a').nth(9);
    const id = (await link.getAttribute('href'))!.slice(1);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`#${id}$`));
    await expect
      .poll(() => page.evaluate((i) => Math.round(document.getElementById(i)!.getBoundingClientRect().top), id), {
        timeout: 3000,
      })
      .toBe(120);
  });
});

test.describe('page loading overlay', () => {
  test('shows the logo after an internal navigation, then goes away', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-page-loader]')).toBeHidden();
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.locator('html')).not.toHaveClass(/is-arriving/, { timeout: 3000 });
    await expect(page.locator('[data-page-loader]')).toBeHidden();
  });

  test('never appears on a first visit, nor for visitors who prefer reduced motion', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).not.toHaveClass(/is-arriving/);
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.locator('html')).not.toHaveClass(/is-arriving/);
    await context.close();
  });
});
