import { test, expect, type Page } from '@playwright/test';
import { ONCE } from './helpers/viewports';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as signedIn } from './helpers/staff-session';

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Opens an admin page with the worker's shared staff session (see helpers/staff-session.ts). */
const openSignedIn = (page: Page, path: string) => page.goto(path);

/** Opens the new-post dialog and fills its title and excerpt. */
async function newPost(page: Page, title: string, excerpt: string) {
  await page.getByRole('button', { name: 'New Blog Post' }).click();
  const modal = page.getByRole('dialog', { name: 'Create New Blog Post' });
  await modal.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await modal.getByLabel('Excerpt').fill(excerpt);
  return modal;
}

async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`);
}

/** Titles of the sample posts `npm start` seeds (content/blog-seed/*.md). */
const SEEDED_TITLES = readdirSync('content/blog-seed')
  .filter((name) => name.endsWith('.md'))
  .map((name) => /^title:\s*"?(.*?)"?\s*$/m.exec(readFileSync(join('content/blog-seed', name), 'utf8'))?.[1]);

/**
 * A seeded sample post, from the public API. Other suites publish posts of their own while these tests
 * run (the XSS suite's are full of payloads and have no headings), so the newest post is not a fixed thing.
 */
async function firstPublished(request: import('@playwright/test').APIRequestContext) {
  const list = await (await request.get('/api/blogs?limit=50')).json();
  const seeded = (list.blogs as { slug: string; title: string }[]).find((post) => SEEDED_TITLES.includes(post.title));
  expect(seeded, 'a seeded sample post is published').toBeTruthy();
  return seeded!;
}

test.describe('public blog', () => {
  test('/blog lists published posts with zero axe violations, cached at the CDN', async ({ page, request }) => {
    const post = await firstPublished(request);
    const response = await page.goto('/blog');
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['netlify-cdn-cache-control']).toContain('durable');
    expect(headers['netlify-cache-tag']).toContain('blog-list');
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog');
    const card = page.locator('.blog-card').filter({ hasText: post.title });
    await expect(card).toBeVisible();
    expect(await card.locator('.tag').count()).toBeLessThanOrEqual(3);
    expect(await axe(page)).toEqual([]);
  });

  test('a post page shows everything with zero axe violations, and counts the view', async ({ page, request }) => {
    const post = await firstPublished(request);
    const before = (await (await request.get(`/api/blogs/${post.slug}`)).json()).views;
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    // The page and the public API are cached at the CDN, so the count they show may lag; the view
    // call answers with the fresh count.
    const viewCall = page.waitForResponse(
      (r) => r.url().endsWith(`/api/blogs/${post.slug}/view`) && r.request().method() === 'POST',
    );
    const response = await page.goto(`/blog/${post.slug}`);
    expect(response?.status()).toBe(200);
    expect(response!.headers()['netlify-cache-tag']).toBe(`blog,blog-${post.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
    await expect(page.getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');
    await expect(page.locator('time').first()).toHaveText(/^\d{1,2} [A-Z][a-z]+ \d{4}$/); // Australian long date
    await expect(page.getByText(/\d+ min read/)).toBeVisible();
    await expect(page.locator('.post-content h2').first()).toBeVisible();
    expect(await axe(page)).toEqual([]);
    expect(problems).toEqual([]);
    expect((await (await viewCall).json()).views).toBeGreaterThan(before);
  });

  signedIn(
    'finding: a post page shows the live view count above 0, even from a cached page rendered at 0 views',
    ONCE,
    async ({ page, request, staff }, testInfo) => {
      const auth = { authorization: `Bearer ${staff.token}` };
      const title = `Fresh views ${testInfo.project.name} ${Date.now()}`;
      const { blog } = await (
        await request.post('/api/blogs', {
          headers: auth,
          data: { title, excerpt: 'Nobody has read this yet', content: '<p>Hello</p>', isPublished: true },
        })
      ).json();
      try {
        const views = page.locator('.post-meta').getByText(/\bviews?$/);
        for (const expected of ['1 view', '2 views']) {
          // The second visit gets the copy the CDN kept from the first (rendered when the post had 0 views).
          const viewCall = page.waitForResponse(
            (r) => r.url().endsWith(`/api/blogs/${blog.slug}/view`) && r.request().method() === 'POST',
          );
          await page.goto(`/blog/${blog.slug}`);
          await viewCall;
          await expect(views).toHaveText(expected);
          await expect(views).toBeVisible();
        }
      } finally {
        await request.delete(`/api/blogs/${blog._id}`, { headers: auth });
      }
    },
  );

  test('the share button copies the link where there is no share sheet', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const post = await firstPublished(request);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await page.addInitScript(() => Object.defineProperty(navigator, 'share', { value: undefined }));
    await page.goto(`/blog/${post.slug}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByText('Link copied to clipboard!')).toBeVisible();
    // The canonical address of the post (the site's configured address), not the local one.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`^https?://[^/]+/blog/${post.slug}$`),
    );
  });

  test('the share button opens the device share sheet when there is one', async ({ page, request }) => {
    const post = await firstPublished(request);
    await page.addInitScript(() => {
      (window as unknown as { shared: unknown[] }).shared = [];
      Object.defineProperty(navigator, 'share', {
        value: async (data: unknown) => void (window as unknown as { shared: unknown[] }).shared.push(data),
      });
    });
    await page.goto(`/blog/${post.slug}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: { title: string }[] }).shared.length))
      .toBe(1);
    expect(await page.evaluate(() => (window as unknown as { shared: { title: string }[] }).shared[0].title)).toBe(
      post.title,
    );
  });

  test('search, empty results and a missing post', async ({ page }) => {
    await page.goto('/blog?search=zzqx-nothing-matches');
    await expect(page.getByRole('heading', { name: 'No blogs found' })).toBeVisible();
    await expect(page.getByText('No blogs match your search for "zzqx-nothing-matches"')).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search the blog' })).toHaveValue('zzqx-nothing-matches');

    await page.getByRole('searchbox', { name: 'Search the blog' }).fill('portfolio evidence');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/blog\?search=portfolio\+evidence$/);
    await expect(page.locator('.blog-card').first()).toBeVisible();

    const missing = await page.goto('/blog/no-such-post-at-all');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog Not Found');
    await expect(page.getByText('Blog not found or no longer available.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Back to Blog' })).toHaveAttribute('href', '/blog');
    expect(await axe(page)).toEqual([]);
  });

  test('RSS feed and blog sitemap list the posts', ONCE, async ({ request }) => {
    const post = await firstPublished(request);
    const feed = await request.get('/rss.xml');
    expect(feed.headers()['content-type']).toContain('application/rss+xml');
    expect(await feed.text()).toContain(`/blog/${post.slug}</link>`);
    const sitemap = await (await request.get('/sitemap-blog.xml')).text();
    expect(sitemap).toContain(`/blog/${post.slug}</loc>`);
    expect(await (await request.get('/sitemap-index.xml')).text()).toContain('/sitemap-blog.xml');
  });
});

test.describe('Manage Blogs', () => {
  signedIn(
    'create a post with an image, publish, see it on /blog, unpublish, delete',
    ONCE,
    async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      const title = `Site Supervisor Evidence ${testInfo.project.name} ${Date.now()}`;
      await openSignedIn(page, '/admin/blogs');
      await expect(page.getByRole('heading', { name: 'Manage Blogs', level: 1 })).toBeVisible();

      await page.getByRole('button', { name: 'New Blog Post' }).click();
      const modal = page.getByRole('dialog', { name: 'Create New Blog Post' });
      await expect(modal).toBeVisible();
      await modal.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
      await modal.getByLabel('Excerpt').fill('What a supervisor can write that helps your RPL assessment.');

      const editor = modal.getByRole('textbox', { name: 'Content' });
      await editor.click();
      await page.keyboard.type('A third-party report should describe ');
      await modal.getByRole('button', { name: 'Bold' }).click();
      await expect(modal.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');
      // The toolbar hands the focus back to the editor on the next frame: type only once it is there.
      await expect(editor).toBeFocused();
      await page.keyboard.type('what you did');
      await modal.getByRole('button', { name: 'Bold' }).click();
      await expect(modal.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'false');
      await expect(editor).toBeFocused();
      await page.keyboard.type(' and how often.');
      await page.keyboard.press('Enter');
      await modal.getByRole('button', { name: 'Bulleted list' }).click();
      await page.keyboard.type('Tasks performed');

      // The image: a real PNG made here, uploaded through the drop zone's file input.
      const png = await sharp({ create: { width: 1200, height: 675, channels: 3, background: '#01675f' } })
        .png()
        .toBuffer();
      await modal
        .locator('input[type="file"]')
        .setInputFiles({ name: 'site-photo.png', mimeType: 'image/png', buffer: png });
      await expect(modal.getByRole('button', { name: 'Remove Image' })).toBeVisible({ timeout: 20_000 });
      await modal.getByLabel('Image alt text').fill('A site supervisor signing off a report');

      const tags = modal.getByRole('textbox', { name: 'Tags', exact: true });
      for (const tag of ['Evidence', '  ', 'evidence', 'Supervisors']) {
        await tags.fill(tag);
        await tags.press('Enter');
      }
      await expect(modal.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText([
        'Evidence',
        'Supervisors',
      ]);
      await expect(modal.getByRole('checkbox', { name: 'Publish immediately' })).not.toBeChecked();
      await modal.getByRole('button', { name: 'Create Blog' }).click();
      await expect(modal).toBeHidden();

      const card = page.locator('.blog-admin-card').filter({ hasText: title });
      await expect(card.getByText('Draft', { exact: true })).toBeVisible();
      const slug = (await page.evaluate(async (t) => {
        const answer = await fetch('/api/blogs/admin/all', {
          headers: { Authorization: `Bearer ${localStorage.getItem('token')}` },
        }).then((r) => r.json());
        return answer.blogs.find((b: { title: string }) => b.title === t).slug;
      }, title)) as string;
      expect((await page.request.get(`/blog/${slug}`)).status()).toBe(404); // a draft is not public

      await card.getByRole('button', { name: 'Publish' }).click();
      await expect(card.getByText('Published', { exact: true })).toBeVisible();

      await page.goto('/blog');
      await page.locator('.blog-card').filter({ hasText: title }).getByRole('link').click();
      await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page.locator('.post-content strong')).toHaveText('what you did');
      await expect(page.locator('.post-content li')).toHaveText('Tasks performed');
      const image = page.getByRole('img', { name: 'A site supervisor signing off a report' });
      await expect(image).toBeVisible();
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      await expect(page.locator('.post-footer .tag')).toHaveText(['Evidence', 'Supervisors']);

      await page.goto('/admin/blogs');
      await card.getByRole('button', { name: 'Unpublish' }).click();
      await expect(card.getByText('Draft', { exact: true })).toBeVisible();
      await page.goto('/blog');
      await expect(page.locator('.blog-card').filter({ hasText: title })).toHaveCount(0);
      expect((await page.goto(`/blog/${slug}`))?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog Not Found');

      await page.goto('/admin/blogs');
      await card.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this blog?' });
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(card).toHaveCount(0);
    },
  );

  signedIn(
    'form rules: required fields, Markdown preview, unsaved-changes warning, edit conflict',
    ONCE,
    async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      await openSignedIn(page, '/admin/blogs');
      await page.getByRole('button', { name: 'New Blog Post' }).click();
      const modal = page.getByRole('dialog', { name: 'Create New Blog Post' });
      await modal.getByRole('button', { name: 'Create Blog' }).click();
      await expect(modal.getByRole('alert')).toHaveText('Please fill in the required fields.');
      await expect(modal.getByText('Title is required')).toBeVisible();
      await expect(modal.getByText('Content is required')).toBeVisible();
      expect(await axe(page)).toEqual([]);

      // Markdown with a preview that keeps only allowed link protocols.
      await modal.getByRole('button', { name: 'Markdown' }).click();
      await modal
        .getByRole('textbox', { name: 'Content', exact: true })
        .fill('Some **bold** text, [safe](https://training.gov.au/) and [bad](javascript:alert(1))');
      await modal.getByRole('button', { name: 'Show Preview' }).click();
      const preview = modal.getByRole('region', { name: 'Preview' });
      await expect(preview.locator('strong')).toHaveText('bold');
      await expect(preview.getByRole('link', { name: 'safe' })).toHaveAttribute('href', 'https://training.gov.au/');
      expect(await preview.locator('a', { hasText: 'bad' }).getAttribute('href')).toBeNull();
      await modal.getByRole('button', { name: 'Hide Preview' }).click();
      await expect(preview).toBeHidden();

      // Closing with changes asks first.
      await modal.getByRole('textbox', { name: 'Title', exact: true }).fill('Not saved');
      await modal.getByRole('button', { name: 'Cancel' }).click();
      const ask = page.getByRole('alertdialog', { name: /unsaved changes/ });
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await expect(modal.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue('Not saved');
      await page.keyboard.press('Escape');
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await expect(modal).toBeHidden();

      // Two editors: the second save of the same version gets the clear 409 message, and keeps its text.
      const title = `Conflict ${testInfo.project.name} ${Date.now()}`;
      const token = await page.evaluate(() => localStorage.getItem('token'));
      const created = await (
        await page.request.post('/api/blogs', {
          headers: { authorization: `Bearer ${token}` },
          data: { title, excerpt: 'x', content: '<p>first</p>' },
        })
      ).json();
      await page.reload();
      const card = page.locator('.blog-admin-card').filter({ hasText: title });
      await card.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Blog Post' });
      await edit.getByLabel('Excerpt').fill('My careful edit');
      expect(
        (
          await page.request.put(`/api/blogs/${created.blog._id}`, {
            headers: { authorization: `Bearer ${token}` },
            data: { ...created.blog, excerpt: 'Someone else' },
          })
        ).status(),
      ).toBe(200);
      await edit.getByRole('button', { name: 'Update Blog' }).click();
      await expect(edit.getByRole('alert')).toContainText('Error saving blog: This blog was changed by');
      await expect(edit.getByLabel('Excerpt')).toHaveValue('My careful edit');
      await edit.getByRole('button', { name: 'Save my version anyway' }).click();
      await expect(edit).toBeHidden();
      await expect(card).toContainText('My careful edit');
      await page.request.delete(`/api/blogs/${created.blog._id}`, { headers: { authorization: `Bearer ${token}` } });
    },
  );

  signedIn('the Manage Blogs page has zero axe violations', async ({ page }) => {
    await openSignedIn(page, '/admin/blogs');
    await expect(page.locator('.blog-admin-card').first()).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });
});

test.describe('Blog workflow', () => {
  /** Opens the Manage Blogs page signed in; answers the bearer header for API calls of the same account. */
  async function staffOnBlogs(page: Page) {
    await openSignedIn(page, '/admin/blogs');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    return { authorization: `Bearer ${token}` };
  }

  /**
   * Scheduling, in two tests. The first schedules a post a little ahead and checks it stays hidden while it is not
   * due. The second, tagged @after-others, runs after the desktop and phone tests (playwright.config.ts): by then
   * the every-minute schedule has had a minute or more to publish it, so nothing holds a worker while the clock
   * runs. The post is found again by its title, which names this run (E2E_RUN, set in global-setup.ts).
   */
  /** Titles of this run's scheduled posts share this start; each attempt of the first test adds its own number. */
  const SCHEDULED = 'Scheduled by run ';
  const scheduledPrefix = () => `${SCHEDULED}${process.env.E2E_RUN} #`;

  signedIn(
    'a post scheduled a little ahead is listed as Scheduled and stays hidden while it is not due',
    ONCE,
    async ({ page }, testInfo) => {
      const auth = await staffOnBlogs(page);
      // A run stopped before the second half (or this file run alone) leaves its post behind: remove those first,
      // so they do not pile up on a developer's local blog.
      const before = await (await page.request.get('/api/blogs/admin/all', { headers: auth })).json();
      for (const left of before.blogs as { title: string; _id: string }[]) {
        if (left.title.startsWith(SCHEDULED) && !left.title.startsWith(scheduledPrefix()))
          expect((await page.request.delete(`/api/blogs/${left._id}`, { headers: auth })).status()).toBe(200);
      }
      const title = `${scheduledPrefix()}${testInfo.repeatEachIndex}.${testInfo.retry}.`;
      const modal = await newPost(page, title, 'Goes live by itself.');
      await modal.getByRole('textbox', { name: 'Content' }).click();
      await page.keyboard.type('Written ahead of time.');
      // 20 seconds from now, in the browser's own time zone (the field holds local time).
      const at = await page.evaluate(() => {
        const date = new Date(Date.now() + 20_000);
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
      });
      await modal.getByLabel('Publish at').fill(at);
      await modal.getByRole('button', { name: 'Schedule Blog' }).click();
      await expect(modal).toBeHidden({ timeout: 20_000 });

      const card = page.locator('.blog-admin-card').filter({ hasText: title });
      await expect(card.locator('.status-badge')).toHaveText(/^Scheduled/);
      const { blogs } = await (await page.request.get('/api/blogs/admin/all', { headers: auth })).json();
      const slug = (blogs as { title: string; slug: string }[]).find((blog) => blog.title === title)!.slug;

      // Not yet due: a run of the schedule leaves it a draft.
      expect(
        (await (await page.request.post('/api/blogs/admin/publish-due', { headers: auth })).json()).published,
      ).not.toContain(slug);
      expect((await page.request.get(`/blog/${slug}`)).status()).toBe(404);
    },
  );

  signedIn(
    'the scheduled post goes live by itself once it is due (the schedule runs locally)',
    { tag: [ONCE.tag, '@after-others'] },
    async ({ page }) => {
      test.setTimeout(180_000);
      const auth = await staffOnBlogs(page);
      const { blogs } = await (await page.request.get('/api/blogs/admin/all', { headers: auth })).json();
      const posts = (blogs as { title: string; slug: string; _id: string }[]).filter((blog) =>
        blog.title.startsWith(scheduledPrefix()),
      );
      expect(
        posts.length,
        `posts titled "${scheduledPrefix()}…" that the scheduling test of this run saved`,
      ).toBeGreaterThan(0);

      for (const { title, slug, _id } of posts) {
        // Nobody calls an endpoint for it: the scheduled function runs every minute under npm start, as on Netlify,
        // and publishes the post at a run after its time (usually done by now; two runs' worth of waiting at most).
        await expect
          .poll(async () => (await page.request.get(`/blog/${slug}`)).status(), {
            timeout: 150_000,
            intervals: [2_000],
          })
          .toBe(200);
        await page.goto('/blog');
        await expect(page.locator('.blog-card').filter({ hasText: title })).toBeVisible();
        await page.goto('/admin/blogs');
        const card = page.locator('.blog-admin-card').filter({ hasText: title });
        await expect(card.locator('.status-badge')).toHaveText('Published', { timeout: 20_000 });
        await page.request.delete(`/api/blogs/${_id}`, { headers: auth });
      }
    },
  );

  signedIn('restore an older revision from the history', ONCE, async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const auth = await staffOnBlogs(page);
    const title = `Revisions ${testInfo.project.name} ${Date.now()}`;
    const { blog } = await (
      await page.request.post('/api/blogs', {
        headers: auth,
        data: { title, excerpt: 'First excerpt', content: '<p>The first wording.</p>', isPublished: true },
      })
    ).json();
    const second = await page.request.put(`/api/blogs/${blog._id}`, {
      headers: auth,
      data: { ...blog, excerpt: 'Second excerpt', content: '<p>A rewrite nobody liked.</p>' },
    });
    expect(second.status()).toBe(200);
    await page.reload();

    await page.locator('.blog-admin-card').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Blog Post' });
    await edit.getByRole('button', { name: 'History' }).click();
    const history = edit.getByRole('region', { name: 'History' });
    await expect(history.getByRole('listitem')).toHaveCount(2);
    await history.getByRole('button', { name: 'View version 1' }).click();
    await expect(history.getByText('The first wording.')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('editor-history.png') });

    await history.getByRole('button', { name: 'Restore version 1' }).click();
    await page
      .getByRole('alertdialog', { name: 'Restore version 1?' })
      .getByRole('button', { name: 'Restore' })
      .click();
    await expect(edit.getByLabel('Excerpt')).toHaveValue('First excerpt', { timeout: 20_000 });
    await expect(edit.getByRole('textbox', { name: 'Content' })).toContainText('The first wording.');
    await expect(history.getByRole('listitem')).toHaveCount(3);

    const page1 = await page.request.get(`/blog/${blog.slug}`);
    expect(await page1.text()).toContain('The first wording.');
    const stored = (await (await page.request.get('/api/blogs/admin/all', { headers: auth })).json()).blogs.find(
      (entry: { _id: string }) => entry._id === blog._id,
    );
    expect(stored).toMatchObject({ version: 3, excerpt: 'First excerpt', isPublished: true });
    await page.request.delete(`/api/blogs/${blog._id}`, { headers: auth });
  });

  signedIn("changing a published post's address keeps the old one as a 301", ONCE, async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const auth = await staffOnBlogs(page);
    const stamp = `${testInfo.project.name}-${Date.now()}`;
    const title = `Moving post ${stamp}`;
    const { blog } = await (
      await page.request.post('/api/blogs', {
        headers: auth,
        data: { title, excerpt: 'It moves.', content: '<p>Same words, new address.</p>', isPublished: true },
      })
    ).json();
    expect((await page.request.get(`/blog/${blog.slug}`)).status()).toBe(200);
    await page.reload();

    await page.locator('.blog-admin-card').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Blog Post' });
    const address = edit.getByRole('textbox', { name: 'Address' });
    await expect(address).toHaveValue(blog.slug);
    await expect(edit.getByText('the old address keeps working')).toBeVisible();
    await address.fill(`Bad Address!`);
    await edit.getByRole('button', { name: 'Update Blog' }).click();
    await expect(
      edit.getByText('The address may use only lower-case letters, digits and single hyphens between words'),
    ).toBeVisible();
    await address.fill(`new-home-${stamp}`);
    await edit.getByRole('button', { name: 'Update Blog' }).click();
    await expect(edit).toBeHidden({ timeout: 20_000 });

    const old = await page.request.get(`/blog/${blog.slug}`, { maxRedirects: 0 });
    expect(old.status()).toBe(301);
    expect(old.headers().location).toMatch(new RegExp(`/blog/new-home-${stamp}$`));
    await page.goto(`/blog/${blog.slug}`);
    await expect(page).toHaveURL(new RegExp(`/blog/new-home-${stamp}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await page.request.delete(`/api/blogs/${blog._id}`, { headers: auth });
    expect((await page.request.get(`/blog/${blog.slug}`, { maxRedirects: 0 })).status()).toBe(404);
  });

  signedIn(
    'the open draft is kept in the browser and offered back after a reload',
    ONCE,
    async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      await staffOnBlogs(page);
      const title = `Kept draft ${testInfo.project.name} ${Date.now()}`;
      const modal = await newPost(page, title, 'Typed before the browser went away.');
      await modal.getByRole('textbox', { name: 'Content' }).click();
      await page.keyboard.type('Half a paragraph');

      // The page asks before leaving with unsaved changes; leave anyway, as a crash would.
      page.on('dialog', (dialog) => void dialog.accept());
      await page.reload();
      await page.getByRole('button', { name: `Continue editing “${title}”` }).click({ timeout: 20_000 });
      const again = page.getByRole('dialog', { name: 'Create New Blog Post' });
      await expect(again.getByText(`Unsaved changes to “${title}”`)).toBeVisible();
      await expect(again.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue('');
      await again.getByRole('button', { name: 'Restore unsaved changes' }).click();
      await expect(again.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
      await expect(again.getByLabel('Excerpt')).toHaveValue('Typed before the browser went away.');
      await expect(again.getByRole('textbox', { name: 'Content' })).toContainText('Half a paragraph');

      // Thrown away on purpose: nothing is offered any more.
      await again.getByRole('button', { name: 'Cancel' }).click();
      await page
        .getByRole('alertdialog', { name: /unsaved changes/ })
        .getByRole('button', { name: 'Discard changes' })
        .click();
      await page.reload();
      await expect(page.locator('.blog-admin-card').first()).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('button', { name: /^Continue editing/ })).toHaveCount(0);
    },
  );

  signedIn(
    "editor toolbar: headings, quotes, links held to the sanitiser's rules, pictures from the media picker with alt text",
    async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      const auth = await staffOnBlogs(page);
      const title = `Toolbar ${testInfo.project.name} ${Date.now()}`;
      const modal = await newPost(page, title, 'Every tool once.');
      const editor = modal.getByRole('textbox', { name: 'Content' });
      await editor.click();
      await modal.getByRole('button', { name: 'Heading', exact: true }).click();
      await page.keyboard.type('What counts as evidence');
      await page.keyboard.press('Enter');
      await modal.getByRole('button', { name: 'Quote' }).click();
      await page.keyboard.type('Show what you did, not what you know.');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await page.keyboard.type('See the register');
      await page.keyboard.press('Shift+Home');

      await modal.getByRole('button', { name: 'Link' }).click();
      const address = modal.getByRole('textbox', { name: 'Link address' });
      await address.fill('javascript:alert(1)');
      await modal.getByRole('button', { name: 'Apply' }).click();
      await expect(modal.getByText('This address cannot be linked.')).toBeVisible();
      await address.fill('https://training.gov.au/');
      await modal.getByRole('button', { name: 'Apply' }).click();
      await expect(editor.getByRole('link', { name: 'See the register' })).toHaveAttribute(
        'href',
        'https://training.gov.au/',
      );
      // The editor takes the focus back from the address field with the linked text still selected, and learns
      // of a caret moved by End from the browser a moment later. Enter pressed before it has would replace the
      // linked text, so wait until the editor's own selection is the caret (a person is never that fast).
      const caretOnly = () =>
        editor.evaluate((element) => {
          const { selection } = (element as HTMLElement & { editor: { state: { selection: { empty: boolean } } } })
            .editor.state;
          return selection.empty;
        });
      await expect(editor).toBeFocused();
      await expect.poll(caretOnly).toBe(false);
      await page.keyboard.press('End');
      await expect.poll(caretOnly).toBe(true);
      await page.keyboard.press('Enter');
      await expect(
        editor.locator('p').filter({ has: page.getByRole('link', { name: 'See the register' }) }),
      ).toHaveCount(1);

      await modal.getByRole('button', { name: 'Image', exact: true }).click();
      const picker = page.getByRole('dialog', { name: 'Insert an image' });
      const png = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#c9e265' } })
        .png()
        .toBuffer();
      await picker
        .locator('input[type="file"]')
        .setInputFiles({ name: 'lime.png', mimeType: 'image/png', buffer: png });
      await expect(picker.locator('.media-picker__item[aria-pressed="true"]')).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: testInfo.outputPath('media-picker.png') });
      await picker.getByRole('button', { name: 'Insert image' }).click();
      await expect(picker.getByText('Describe the picture in the alt text before inserting it.')).toBeVisible();
      await picker.getByRole('textbox', { name: 'Alt text' }).fill('A lime green square');
      await picker.getByRole('button', { name: 'Insert image' }).click();
      await expect(picker).toBeHidden();
      await expect(editor.getByRole('img', { name: 'A lime green square' })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('editor-toolbar.png') });
      await modal.getByRole('button', { name: 'Create Blog' }).click();
      await expect(modal).toBeHidden({ timeout: 20_000 });

      const { blogs } = await (await page.request.get('/api/blogs/admin/all', { headers: auth })).json();
      const saved = blogs.find((blog: { title: string }) => blog.title === title);
      expect(saved.content).toContain('<h2>What counts as evidence</h2>');
      expect(saved.content).toMatch(/<blockquote><p>Show what you did, not what you know\.<\/p><\/blockquote>/);
      expect(saved.content).toContain('href="https://training.gov.au/"');
      expect(saved.content).toMatch(
        /<img[^>]+src="\/api\/uploads\/[a-f0-9]{32}\.webp"[^>]*alt="A lime green square"|<img[^>]+alt="A lime green square"[^>]*src="\/api\/uploads\//,
      );

      // The same picture is offered again for the next post, and goes when its only post is deleted.
      const image = /\/api\/uploads\/[a-f0-9]{32}\.webp/.exec(saved.content)![0];
      const library = await (await page.request.get('/api/uploads', { headers: auth })).json();
      expect(library.images.map((entry: { imageUrl: string }) => entry.imageUrl)).toContain(image);
      await page.request.delete(`/api/blogs/${saved._id}`, { headers: auth });
      expect((await page.request.get(image)).status()).toBe(404);
    },
  );

  signedIn('a picture uploaded before the library has answered stays listed and chosen', ONCE, async ({ page }) => {
    await staffOnBlogs(page);
    const modal = await newPost(page, `Library race ${Date.now()}`, 'Upload first.');
    // Hold the library's answer until the upload has been answered. The upload starts only once the server has
    // answered the list, so the list is surely one from before the upload was stored.
    let uploaded!: () => void;
    const uploadDone = new Promise<void>((resolve) => (uploaded = resolve));
    let listed!: () => void;
    const listAnswered = new Promise<void>((resolve) => (listed = resolve));
    let listedCount = -1;
    await page.route('**/api/uploads', async (route) => {
      const listedBefore = await route.fetch();
      listedCount = ((await listedBefore.json()) as { images: unknown[] }).images.length;
      listed();
      await uploadDone;
      await route.fulfill({ response: listedBefore });
    });
    page.on('response', (response) => {
      if (response.url().endsWith('/api/upload/image')) uploaded();
    });
    await modal.getByRole('textbox', { name: 'Content' }).click();
    await modal.getByRole('button', { name: 'Image', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Insert an image' });
    const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#1f6f8b' } })
      .png()
      .toBuffer();
    await listAnswered;
    await picker.locator('input[type="file"]').setInputFiles({ name: 'teal.png', mimeType: 'image/png', buffer: png });
    // The library's older list arrives after the upload: it joins the new picture instead of replacing it.
    await expect(picker.locator('.media-picker__item')).toHaveCount(listedCount + 1);
    await expect(picker.locator('.media-picker__item[aria-pressed="true"]')).toHaveCount(1);
  });
});
