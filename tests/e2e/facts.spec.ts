import { test, expect, type APIRequestContext } from '@playwright/test';
import { createStaff, signInWithForm, staffSession } from './helpers/accounts';
import { axeViolations } from './helpers/still';
import type { SiteSettings } from '../../src/schemas/site-settings';

/**
 * Facts staff own in site settings: claims switched off disappear from the public pages at once, and
 * course pages name the partner RTO once one is entered. Settings are site-wide, so this runs once,
 * serially and after every other test (the 'site-wide' project in playwright.config.ts), and puts back whatever was saved before.
 */
// Several saves, page loads and axe runs per test on a shared machine.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.describe('facts staff own', () => {
  let saved: unknown;
  let token = '';
  const settingsApi = (request: APIRequestContext) => ({
    read: async () =>
      (await (
        await request.get('/api/admin/site-settings', { headers: { authorization: `Bearer ${token}` } })
      ).json()) as SiteSettings,
    /** Saves on top of whatever is stored now (settings saves carry the version they replace). */
    save: async (data: unknown) => {
      const { version } = (await (
        await request.get('/api/admin/site-settings', { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { version: number };
      return request.post('/api/admin/site-settings', {
        headers: { authorization: `Bearer ${token}` },
        data: { ...(data as object), version },
      });
    },
  });

  test.beforeAll(async ({ request }) => {
    token = (await staffSession(request, 'facts')).token;
    const {
      updatedAt: _a,
      updatedBy: _b,
      ...settings
    } = (await settingsApi(request).read()) as Record<string, unknown>;
    saved = settings;
  });

  test.afterAll(async ({ request }) => {
    if (saved) await settingsApi(request).save(saved);
  });

  test('a claim switched off in settings disappears from the About page, and comes back when switched on', async ({
    page,
  }) => {
    const account = await createStaff('claims');
    await signInWithForm(page, account);
    await expect(page.getByRole('heading', { name: 'Ready to launch?' })).toBeVisible();
    await expect(page.getByTestId('launch-readiness').getByText('No partner RTO is entered')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.goto('/admin/settings');
    const success = page.getByRole('group', { name: 'Success rate (About page)' });
    // Outcome rates ship switched off; staff switch one on with a source visitors can see.
    await expect(success.getByLabel('Show on the site')).not.toBeChecked();
    await success.getByLabel('Show on the site').check();
    await success.getByLabel('Source note').fill('Client records, checked November 2026');
    await success.getByLabel('Source shown to visitors').fill('Based on 40 client files closed in 2026');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved successfully!' }).first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.goto('/about');
    const stats = page.getByRole('region', { name: 'Our results' });
    await expect(stats.getByText('Success Rate')).toBeVisible();
    await expect(stats.getByText('Based on 40 client files closed in 2026')).toBeVisible();
    await expect(stats.getByText('Industries', { exact: true })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);

    await page.goto('/admin/settings');
    await page.getByRole('group', { name: 'Success rate (About page)' }).getByLabel('Show on the site').uncheck();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved successfully!' }).first()).toBeVisible();
    await page.goto('/about');
    await expect(page.getByRole('region', { name: 'Our results' }).getByText('Success Rate')).toBeHidden();
  });

  test('the completion time goes from every page with its switch and never breaks across lines', async ({
    page,
    request,
  }) => {
    const settings = settingsApi(request);
    const current = await settings.read();
    await page.goto('/about');
    const figure = page.locator('.note__big');
    await expect(figure).toHaveText('4-8 weeks');
    expect(await figure.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
    const off = {
      ...current,
      claims: { ...current.claims, completionTime: { ...current.claims.completionTime, enabled: false } },
    };
    expect((await settings.save(off)).status()).toBe(200);
    for (const path of ['/about', '/faq', '/free-quote', '/']) {
      await page.goto(path);
      // innerText leaves out what is hidden; the refresh script hides the claim once the settings arrive.
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, which leaves out hidden text on purpose
      await expect.poll(() => page.locator('main').innerText()).not.toContain('4-8 weeks');
    }
  });

  test('finding 5: a course page names a partner RTO only when it lists the qualification, else offers the quote', async ({
    page,
    request,
  }) => {
    const settings = settingsApi(request);
    const current = await settings.read();
    const none = { ...current, partnerRtos: [] };
    expect((await settings.save(none)).status()).toBe(200);
    await page.goto('/courses/CPC30220');
    const provider = page.getByTestId('course-provider');
    await expect(provider).toContainText('No partner RTO is listed for this qualification yet');
    await expect(page.locator('footer')).toContainText('named in your written quote');

    // An RTO that lists nothing is named on no course page and in no JSON-LD.
    const rto = { legalName: 'Example Skills Institute Pty Ltd', code: '45678', categories: [], courses: [] };
    expect((await settings.save({ ...current, partnerRtos: [rto] })).status()).toBe(200);
    await page.reload();
    await expect(provider).toContainText('No partner RTO is listed for this qualification yet');
    await expect(provider).not.toContainText('Example Skills Institute');
    await expect(provider.getByRole('link', { name: 'ask us in a free quote' })).toHaveAttribute(
      'href',
      '/free-quote?course=CPC30220',
    );

    const withRto = { ...current, partnerRtos: [{ ...rto, courses: ['CPC30220'] }] };
    expect((await settings.save(withRto)).status()).toBe(200);
    await page.reload();
    const link = provider.getByRole('link', { name: 'Example Skills Institute Pty Ltd (RTO 45678)' });
    await expect(link).toHaveAttribute('href', 'https://training.gov.au/Organisation/Details/45678');
    await expect(page.locator('footer')).toContainText('Example Skills Institute Pty Ltd (RTO 45678)');
    expect(await axeViolations(page)).toEqual([]);
    // A qualification the RTO does not list still says none is listed.
    await page.goto('/courses/BSB50420');
    await expect(page.getByTestId('course-provider')).toContainText(
      'No partner RTO is listed for this qualification yet',
    );

    // An unknown qualification is refused with the field named.
    const unknown = await settings.save({ ...current, partnerRtos: [{ ...rto, courses: ['ZZZ99999'] }] });
    expect(unknown.status()).toBe(400);
    expect(await unknown.json()).toMatchObject({ errors: [{ field: 'partnerRtos.0.courses.0' }] });

    // A bad RTO code is refused with the field named.
    const bad = await settings.save({ ...current, partnerRtos: [{ ...rto, code: '123' }] });
    expect(bad.status()).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ field: 'partnerRtos.0.code' }] });
  });
});
