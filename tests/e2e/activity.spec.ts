import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { test } from './helpers/staff-session';

/**
 * Issue 26, item 4: the activity log at /admin/activity lists who saved what, with the old and new values, and
 * filters by kind. The test changes a staff-only settings note (the success-rate claim's source) and puts it back.
 * It runs in the site-wide project, one at a time with the other tests that save the settings (playwright.config.ts):
 * any other settings save in between would be a real conflict for whichever test saved second.
 */

type Settings = { version: number; claims: { successRate: { source: string } } } & Record<string, unknown>;

async function authOf(page: Page) {
  return { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` };
}

/** Saves the settings with the success-rate source changed; answers the source it replaced. */
async function saveSource(request: APIRequestContext, headers: Record<string, string>, source: string) {
  const answer = await request.get('/api/admin/site-settings', { headers });
  expect(answer.status()).toBe(200);
  const { updatedAt, updatedBy, ...settings } = (await answer.json()) as Settings & {
    updatedAt?: string;
    updatedBy?: string;
  };
  const before = settings.claims.successRate.source;
  const saved = await request.post('/api/admin/site-settings', {
    headers,
    data: { ...settings, claims: { ...settings.claims, successRate: { ...settings.claims.successRate, source } } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return before;
}

test(
  'finding 4: a settings change is listed with its old and new values, and the kind filter narrows the list',
  { tag: '@site-wide' },
  async ({ page, staff }, testInfo) => {
    await page.goto('/admin/activity');
    await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
    const headers = await authOf(page);
    const source = `Client survey, activity check ${Date.now().toString(36)}`;
    const first = `${source} (first)`;
    const old = await saveSource(page.request, headers, first);
    await saveSource(page.request, headers, source);
    try {
      const post = await page.request.post('/api/blogs', {
        headers,
        data: { title: `Activity filter ${Date.now().toString(36)}`, excerpt: 'E', content: '<p>C</p>' },
      });
      expect(post.status()).toBe(201);
      const { blog } = (await post.json()) as { blog: { _id: string; title: string } };

      await page.reload();
      const settingsEntry = page
        .getByTestId('activity-entry')
        .filter({ hasText: 'Site settings: updated' })
        .filter({ hasText: source })
        .first();
      await expect(settingsEntry).toBeVisible();
      await expect(settingsEntry).toContainText(`${staff.account.firstName} ${staff.account.lastName}`);
      const change = settingsEntry.locator('li').filter({ hasText: 'claims › success rate › source' });
      await expect(change.locator('del')).toHaveText(first);
      await expect(change.locator('ins')).toHaveText(source);
      const postEntry = page.getByTestId('activity-entry').filter({ hasText: `${blog.title}: created` });
      await expect(postEntry).toBeVisible();

      await page.screenshot({ path: testInfo.outputPath('activity-1440.png'), fullPage: true });

      // Kind: Posts leaves the settings entry out, Settings the post's.
      await page.getByLabel('Kind').selectOption({ label: 'Posts' });
      await expect(postEntry).toBeVisible();
      await expect(settingsEntry).toHaveCount(0);
      for (const chip of await page.getByTestId('activity-entry').locator('.admin-chip').allTextContents())
        expect(chip).toBe('Posts');
      await page.getByLabel('Kind').selectOption({ label: 'Settings' });
      await expect(settingsEntry).toBeVisible();
      await expect(postEntry).toHaveCount(0);

      // At phone width the entries become cards, with nothing wider than the screen.
      await page.setViewportSize({ width: 360, height: 780 });
      await expect(settingsEntry).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: testInfo.outputPath('activity-360.png'), fullPage: true });

      await page.request.delete(`/api/blogs/${blog._id}`, { headers });
    } finally {
      await saveSource(page.request, headers, old);
    }
  },
);
