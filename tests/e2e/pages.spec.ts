import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { ONCE } from './helpers/viewports';
import AxeBuilder from '@axe-core/playwright';

const pages = [
  { path: '/', heading: /Turn your experience into a nationally recognised qualification/ },
  { path: '/about', heading: /Your skills deserve to be recognised/ },
  { path: '/how-rpl-works', heading: /nationally recognised qualification/ },
  { path: '/faq', heading: 'Frequently Asked Questions' },
  { path: '/privacy-policy', heading: 'Privacy Policy' },
  { path: '/terms-conditions', heading: 'Terms & Conditions' },
];

for (const { path, heading } of pages) {
  test(`${path} renders with zero axe violations`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page).toHaveTitle(/RPL Pathways/);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
  });
}

test('an unknown address shows the 404 page with ways back', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('main').getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});

test('pages send strict security headers with a CSP that allows no inline script', ONCE, async ({ request }) => {
  for (const path of ['/', '/about', '/no-such-page']) {
    const response = await request.get(path);
    const headers = response.headers();
    const csp = headers['content-security-policy'];
    expect(csp, path).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(headers['strict-transport-security']).toContain('max-age=');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
  }
});

test('no page logs a CSP violation or script error', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  for (const { path } of pages) await page.goto(path, { waitUntil: 'networkidle' });
  expect(problems).toEqual([]);
});

test('old category addresses redirect permanently to /category/{slug}', ONCE, async ({ request }) => {
  for (const old of ['/categories/health-fitness', '/courses/category/health-fitness']) {
    const response = await request.get(old, { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toMatch(/\/category\/health-fitness$/);
  }
});

test('the FAQ keeps one answer open at a time and works from the keyboard', async ({ page }) => {
  await page.goto('/faq');
  const items = page.locator('details.faq__item');
  await expect(items).toHaveCount(20);
  const first = items.nth(0).locator('summary');
  const second = items.nth(1).locator('summary');
  await first.click();
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await second.click();
  await expect(items.nth(1)).toHaveAttribute('open', '');
  await expect(items.nth(0)).not.toHaveAttribute('open', '');
  await second.click();
  await expect(items.nth(1)).not.toHaveAttribute('open', '');
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await page.keyboard.press('Space');
  await expect(items.nth(0)).not.toHaveAttribute('open', '');
});

test('the privacy policy has 20 numbered sections and the dates', async ({ page }) => {
  await page.goto('/privacy-policy');
  await expect(page.locator('.legal__body h2')).toHaveCount(20);
  await expect(page.locator('.legal__body h2').last()).toContainText('20.');
  await expect(page.getByText('Effective: 22 July 2025 · Last updated: 26 November 2026')).toBeVisible();
});

test('the terms state the not-an-RTO disclaimer', async ({ page }) => {
  await page.goto('/terms-conditions');
  await expect(page.getByRole('main')).toContainText(
    'is not a registered training organisation (RTO) and does not issue qualifications',
  );
});

/** Published qualifications: the About page counts them from the catalogue. */
const COURSES = (JSON.parse(readFileSync(new URL('../../content/courses.json', import.meta.url), 'utf8')) as unknown[])
  .length;

test('about statistics count up once when scrolled into view', async ({ page }) => {
  // A short window, so the statistics start below it at every width.
  await page.setViewportSize({ width: page.viewportSize()!.width, height: 480 });
  await page.goto('/about');
  const figure = page.locator(`[data-count-to="${COURSES}"]`);
  expect((await figure.boundingBox())?.y).toBeGreaterThan(480);
  await expect(figure).toHaveText('0');
  await figure.scrollIntoViewIfNeeded();
  await expect(figure).not.toHaveText('0');
  await expect(figure).toHaveText(String(COURSES), { timeout: 5000 });
});

test('finding 4: About counts qualifications and industries from the catalogue and shows no unsourced rate', async ({
  page,
}) => {
  await page.goto('/about');
  const stats = page.getByRole('region', { name: 'Our results' });
  await expect(stats.getByText('Qualifications Offered')).toBeVisible();
  await expect(stats.locator(`[data-count-to="${COURSES}"]`)).toHaveCount(1);
  await expect(stats.locator('[data-count-to="11"]')).toHaveCount(1);
  await expect(page.getByText('We support people in eleven industries')).toBeVisible();
  // Shipped off until staff give a source visitors can see.
  await expect(stats.getByText('Success Rate')).toBeHidden();
  await expect(stats.getByText('Client Satisfaction')).toBeHidden();
  await expect(stats).not.toContainText('50+');
});

test('how RPL works lists the six benefits, the skills check and every industry', async ({ page }) => {
  await page.goto('/how-rpl-works');
  await expect(page.locator('.icon-card')).toHaveCount(6);
  await expect(page.getByRole('heading', { name: 'Take The FREE 60 Second Skills Check Now!!' })).toBeVisible();
  await expect(page.locator('.skills-cta a')).toHaveAttribute('href', '/free-quote');
  await expect(page.locator('.industry')).toHaveCount(11);
});

test('no page breaks its own Content-Security-Policy (every inline script and style is allowed by hash)', async ({
  page,
}) => {
  test.setTimeout(90_000); // eleven pages, each with every island woken
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`,
      );
    });
  });
  for (const path of [
    '/',
    '/about',
    '/faq',
    '/courses',
    '/category/civil-construction',
    '/courses/CPC30220',
    '/search?search=diploma',
    '/contact',
    '/free-quote',
    '/admin/login',
    '/no-such-page',
  ]) {
    await page.goto(path, { waitUntil: 'networkidle' });
    // Wake the islands that hydrate on interaction, so their code runs under the policy too, and wait
    // until every island on the page has hydrated (Astro drops the ssr attribute then).
    await page.mouse.move(5, 5);
    await page.keyboard.press('Tab');
    await page.locator('astro-island[client="interaction"]').evaluateAll((islands) => {
      for (const island of islands) island.dispatchEvent(new Event('pointerover'));
    });
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
  }
  expect(violations).toEqual([]);
});
