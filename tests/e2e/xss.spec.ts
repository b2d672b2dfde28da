import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { HTML_PAYLOADS, MARKDOWN_PAYLOADS, SHORT_PAYLOADS } from '../fixtures/xss-payloads';
import { exerciseAndInspect, fragmentPage, renderAndCheck, watchForXss } from './helpers/xss';
import { staffSession } from './helpers/accounts';
import { ONCE as once } from './helpers/viewports';

/**
 * Known XSS payloads through every place the site renders someone else's text, loaded in chromium:
 * nothing may run. Each check is made twice where it matters: on the real page (with its CSP, where a
 * CSP violation also counts as a failure: the payload reached the page) and with the same HTML served
 * without any CSP, so the sanitising or escaping alone is what is tested.
 *
 * Surfaces: the search page (the query is rendered on the server), the staff inbox (visitor-written
 * names and messages), and blog posts written in HTML and in Markdown (through
 * the API to the public page, and every payload alone through the server's renderer).
 */

test('the harness sees payloads run when nothing sanitises them (self-test)', once, async ({ page }) => {
  const raw = HTML_PAYLOADS.filter((p) => p.raw);
  const report = await renderAndCheck(
    page,
    '/__xss-harness/raw',
    fragmentPage(raw.map((p) => p.html).join('\n')),
    '#content',
  );
  const fired = new Set(report.fired.map((f) => f.replace(/^(alert|dialog):/, '')));
  const missed = raw.filter((p) => !fired.has(p.id)).map((p) => p.id);
  expect(missed, 'payloads marked raw that the harness did not see run').toEqual([]);
  expect(report.dangerous.length).toBeGreaterThan(raw.length);
});

async function checkSearch(page: Page, request: APIRequestContext, html: string) {
  const path = `/search?search=${encodeURIComponent(html)}`;
  // The real page, with its CSP.
  const report = await watchForXss(page);
  const response = await page.goto(path, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  await exerciseAndInspect(page);
  const real = await report();
  // The same HTML without CSP: the escaping alone must hold.
  const body = await (await request.get(path)).text();
  const bare = await renderAndCheck(page, `/__xss-harness/search-${Math.random().toString(36).slice(2)}`, body);
  return { real, bare };
}

// The payloads in three tests, so both workers can share them.
const SEARCH_GROUPS = 3;
for (let group = 0; group < SEARCH_GROUPS; group++) {
  const payloads = SHORT_PAYLOADS.filter((_, index) => index % SEARCH_GROUPS === group);
  test(
    `search: payloads in the query are shown as text, never run (${group + 1} of ${SEARCH_GROUPS})`,
    once,
    async ({ page, request }) => {
      test.setTimeout(120_000); // two page loads per payload
      for (const payload of payloads) {
        const { real, bare } = await checkSearch(page, request, payload.html);
        expect(real.fired, payload.id).toEqual([]);
        expect(real.violations, `${payload.id}: reached the page, stopped only by CSP`).toEqual([]);
        expect(bare.fired, payload.id).toEqual([]);
        expect(bare.dangerous, payload.id).toEqual([]);
      }
    },
  );
}

test('search: a query with markup is really shown, as text', once, async ({ page }) => {
  await page.goto(`/search?search=${encodeURIComponent('<b>bold</b>')}`);
  await expect(page.getByText('<b>bold</b>').first()).toBeVisible();
});

async function signInAs(page: Page, request: APIRequestContext) {
  const { token, user } = await staffSession(request, 'xss');
  await page.addInitScript(
    ([t, u]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('user', u);
    },
    [token, JSON.stringify(user)] as const,
  );
  return token;
}

test(
  "staff inbox: a visitor's names and message full of payloads are shown as text",
  once,
  async ({ page, request }) => {
    test.setTimeout(120_000);
    const email = `xss-${Date.now()}@example.com`;
    const names = SHORT_PAYLOADS.filter((p) => p.html.length <= 60 && !/[\r\n]/.test(p.html));
    const message = HTML_PAYLOADS.map((p) => p.html)
      .join('\n')
      .slice(0, 5000);
    const sent = await request.post('/api/email/contact', {
      data: {
        firstName: names[0].html,
        lastName: names[2].html,
        email,
        phone: '0400 123 456',
        message,
        website: '',
        elapsedMs: 8000,
      },
    });
    expect(sent.status()).toBe(200);
    await signInAs(page, request);

    const report = await watchForXss(page);
    await page.goto('/admin/inquiries');
    const item = page.locator('.inbox-item').filter({ hasText: email });
    await expect(item).toBeVisible();
    await expect(item).toContainText(HTML_PAYLOADS[0].html);
    const dangerousReal = await exerciseAndInspect(page, '.inbox-item');
    const real = await report();
    expect(real.fired).toEqual([]);
    expect(real.violations).toEqual([]);
    expect(dangerousReal).toEqual([]);

    // The admin page's HTML without CSP: the app renders the same data, and React's escaping alone must hold.
    const shell = await (await request.get('/admin/inquiries')).text();
    const bare = await renderAndCheck(page, '/__xss-harness/admin/inquiries', shell, 'main');
    await expect(page.locator('.inbox-item').filter({ hasText: email })).toBeVisible();
    expect(bare.fired).toEqual([]);
    expect(await exerciseAndInspect(page, '.inbox-item')).toEqual([]);
  },
);

/* ---------- Blog ---------- */

const SANITIZER = new URL('../../src/server/sanitize.ts', import.meta.url);

test.describe('blog posts', once, () => {
  test('every payload alone through the server renderer (HTML and Markdown)', async ({ page }) => {
    test.setTimeout(180_000);
    const { renderContent } = (await import(SANITIZER.href)) as {
      renderContent: (content: string, type: 'html' | 'markdown') => Promise<string>;
    };
    const cases = [
      ...HTML_PAYLOADS.map((p) => ({ ...p, type: 'html' as const })),
      ...HTML_PAYLOADS.map((p) => ({ ...p, type: 'markdown' as const })),
      ...MARKDOWN_PAYLOADS.map((p) => ({ ...p, type: 'markdown' as const })),
    ];
    const rendered = await Promise.all(
      cases.map(async (c) => `<section data-case="${c.type}:${c.id}">${await renderContent(c.html, c.type)}</section>`),
    );
    const report = await renderAndCheck(page, '/__xss-harness/renderer', fragmentPage(rendered.join('\n')), '#content');
    expect(report.fired).toEqual([]);
    expect(report.dangerous).toEqual([]);
  });

  test('posts full of payloads, published and read on the public page', async ({ page, request }) => {
    test.setTimeout(180_000);
    expect((await request.get('/api/blogs')).status(), 'the public blog list').toBe(200);
    const token = await signInAs(page, request);
    const slugs: string[] = [];
    const ids: string[] = [];
    // Other suites read the newest published posts: these are deleted again however the test ends.
    try {
      for (const [contentType, payloads] of [
        ['html', HTML_PAYLOADS],
        ['markdown', [...MARKDOWN_PAYLOADS, ...HTML_PAYLOADS]],
      ] as const) {
        const created = await request.post('/api/blogs', {
          headers: { Authorization: `Bearer ${token}` },
          data: {
            title: `XSS check ${contentType} ${Date.now()} <img src=x onerror=__xss('title')>`,
            excerpt: `<svg onload=__xss('excerpt')>`,
            content: payloads.map((p) => p.html).join('\n\n'),
            contentType,
            author: `<script>__xss('author')</script>`,
            tags: [`<img src=x onerror=__xss('tag')>`],
            isPublished: true,
          },
        });
        expect(created.status(), await created.text()).toBeLessThan(300);
        const { blog } = await created.json();
        slugs.push(blog.slug);
        ids.push(blog._id);
      }
      for (const slug of slugs) {
        for (const path of [`/blog/${slug}`, '/blog']) {
          const report = await watchForXss(page);
          expect((await page.goto(path))?.status()).toBe(200);
          await page.waitForLoadState('networkidle');
          await exerciseAndInspect(page);
          const real = await report();
          expect(real.fired, path).toEqual([]);
          expect(real.violations, `${path}: reached the page, stopped only by CSP`).toEqual([]);
          const bare = await renderAndCheck(
            page,
            `/__xss-harness${path}`,
            await (await request.get(path)).text(),
            'main',
          );
          expect(bare.fired, path).toEqual([]);
        }
        const article = await renderAndCheck(
          page,
          `/__xss-harness/article/${slug}`,
          await (await request.get(`/blog/${slug}`)).text(),
          'article',
        );
        expect(article.dangerous, slug).toEqual([]);
      }
    } finally {
      for (const id of ids) {
        const deleted = await request.delete(`/api/blogs/${id}`, { headers: { Authorization: `Bearer ${token}` } });
        expect(deleted.status(), `deleting the payload post ${id}`).toBeLessThan(300);
      }
    }
  });
});
