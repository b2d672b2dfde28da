import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { ONCE } from './helpers/viewports';

/**
 * Tablets and small laptops: wider than the phone menu's 768px, narrower than a desktop. The desktop header has to
 * fit there, with the Free Quote button in view, and no page may scroll sideways. The test sets its own widths,
 * so it runs once (in the desktop project).
 */
const WIDTHS = [769, 800, 820, 900, 1024];

type Course = { code: string; title: string; category: string };
const courses = JSON.parse(readFileSync('content/courses.json', 'utf8')) as Course[];
// The longest title makes the widest course page and the longest card on its category page.
const course = courses.reduce((longest, c) => (c.title.length > longest.title.length ? c : longest));

/** Titles of the sample posts `npm start` seeds (content/blog-seed/*.md); other suites publish posts of their own. */
const SEEDED_TITLES = readdirSync('content/blog-seed')
  .filter((name) => name.endsWith('.md'))
  .map((name) => /^title:\s*"?(.*?)"?\s*$/m.exec(readFileSync(join('content/blog-seed', name), 'utf8'))?.[1]);

/** What sticks out to the right of the viewport, for the failure message. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const outside = [...document.body.querySelectorAll('*')]
      .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, outside };
  });

test(
  'finding: from 769 to 1024px no public page scrolls sideways and the header keeps Free Quote in view',
  ONCE,
  async ({ page, request }) => {
    test.setTimeout(120_000);
    const blogs = (await (await request.get('/api/blogs?limit=50')).json()).blogs as { slug: string; title: string }[];
    const post = blogs.find((blog) => SEEDED_TITLES.includes(blog.title));
    expect(post, 'a seeded sample post is published').toBeTruthy();

    const paths = [
      '/',
      '/about',
      '/how-rpl-works',
      '/courses',
      `/category/${course.category}`,
      `/courses/${course.code}`,
      '/search?search=carpentry',
      '/blog',
      `/blog/${post!.slug}`,
      '/free-quote',
      '/contact',
      '/apply',
      '/faq',
      '/privacy-policy',
      '/terms-conditions',
    ];
    for (const path of paths) {
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      expect((await page.goto(path, { waitUntil: 'networkidle' }))?.status(), path).toBe(200);
      if (path.startsWith('/search')) await expect(page.locator('.course-card').first()).toBeVisible();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const { scrollWidth, clientWidth, outside } = await overflow(page);
        expect(
          scrollWidth,
          `${path} at ${width}px is wider than the screen: ${outside.join(', ')}`,
        ).toBeLessThanOrEqual(clientWidth);
        const quote = page.getByRole('banner').getByRole('link', { name: 'Free Quote', exact: true });
        await expect(quote, `${path} at ${width}px`).toBeVisible();
        const box = (await quote.boundingBox())!;
        expect(box.x, `${path} at ${width}px: Free Quote starts on screen`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${path} at ${width}px: Free Quote ends on screen`).toBeLessThanOrEqual(clientWidth);
        expect(box.y, `${path} at ${width}px: Free Quote is below the top`).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height, `${path} at ${width}px: Free Quote is above the fold`).toBeLessThanOrEqual(900);
      }
    }
  },
);

test(
  'finding: at 1024px the course page keeps its text readable with the quote card beside it',
  ONCE,
  async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`/courses/${course.code}`);
    const text = page.getByRole('heading', { name: 'Overview', level: 2 }).locator('xpath=following-sibling::p[1]');
    const card = page.locator('.cta-card');
    const textBox = (await text.boundingBox())!;
    const cardBox = (await card.boundingBox())!;
    // About 75 characters a line at the body size at most; it ran 970px wide.
    expect(textBox.width).toBeLessThanOrEqual(700);
    // The card sits beside the text, starting level with the facts at the top of it, not after the article.
    expect(cardBox.x).toBeGreaterThanOrEqual(textBox.x + textBox.width);
    const facts = (await page.getByRole('heading', { name: 'Qualification facts' }).boundingBox())!;
    expect(cardBox.y).toBeLessThanOrEqual(facts.y);
    await expect(card.getByRole('link', { name: 'Get a Free Quote' })).toBeVisible();
  },
);

test(
  'finding: just above 1024px the header also fits the Dashboard button of a stored staff session',
  ONCE,
  async ({ page }) => {
    await page.goto('/about');
    await page.evaluate(() => {
      localStorage.setItem('token', 'a.b.c');
      localStorage.setItem('user', JSON.stringify({ firstName: 'Sam' }));
    });
    await page.reload({ waitUntil: 'networkidle' });
    const banner = page.getByRole('banner');
    for (const width of [1025, 1060, 1100, 1200]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(banner.getByRole('link', { name: 'Dashboard' })).toBeVisible();
      const { scrollWidth, clientWidth, outside } = await overflow(page);
      expect(scrollWidth, `at ${width}px the page is wider than the screen: ${outside.join(', ')}`).toBeLessThanOrEqual(
        clientWidth,
      );
      const box = (await banner.getByRole('link', { name: 'Free Quote', exact: true }).boundingBox())!;
      expect(box.x + box.width, `at ${width}px: Free Quote ends on screen`).toBeLessThanOrEqual(clientWidth);
    }
  },
);
