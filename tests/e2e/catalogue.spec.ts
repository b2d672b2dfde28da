import { test, expect, type Page } from '@playwright/test';
import { ONCE } from './helpers/viewports';
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';

/** Published courses (content/courses.json, after withdrawn and superseded codes left the catalogue). */
const TOTAL = (JSON.parse(readFileSync(new URL('../../content/courses.json', import.meta.url), 'utf8')) as unknown[])
  .length;

const axe = async (page: Page) => {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
};

test('courses index shows the eleven industries with course counts', async ({ page }) => {
  await page.goto('/courses');
  const cards = page.locator('.category-card');
  await expect(cards).toHaveCount(11);
  await expect(cards.filter({ hasText: 'Security & Cleaning' })).toContainText('10 Courses');
  await expect(
    cards.filter({ hasText: 'Security & Cleaning' }).getByRole('link', { name: /Explore Courses/ }),
  ).toHaveAttribute('href', '/category/security-cleaning');
  await axe(page);
});

test('a category page lists its courses, coloured by category, with a way back', async ({ page }) => {
  await page.goto('/category/information-technology');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Information Technology');
  await expect(page.getByText('6 Courses Available')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to All Categories' })).toHaveAttribute('href', '/courses');
  const cards = page.locator('.course-card');
  await expect(cards).toHaveCount(6);
  const colour = await cards.first().evaluate((el) => getComputedStyle(el).borderTopColor);
  expect(colour).toBe('rgb(31, 95, 191)'); // #1f5fbf, the category's colour
  await axe(page);
  await cards.filter({ hasText: 'Certificate IV in Cyber Security' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/courses\/22603VIC$/);
});

test('a course page shows its sections and calls to action', async ({ page }) => {
  await page.goto('/courses/CHC33021');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certificate III in Individual Support');
  for (const name of ['Overview', 'Requirements and eligibility', 'Career pathways and assessment']) {
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  }
  await expect(
    page
      .getByRole('main')
      .getByRole('link', { name: /Get a Free Quote/ })
      .first(),
  ).toHaveAttribute('href', '/free-quote?course=CHC33021');
  await expect(page.getByRole('main').getByRole('link', { name: 'How RPL Works' }).first()).toHaveAttribute(
    'href',
    '/how-rpl-works',
  );
  const jsonLd = await page.locator('script[type="application/ld+json"]').textContent();
  expect(jsonLd).toContain('"@type":"Course"');
  expect(jsonLd).toContain('"courseCode":"CHC33021"');
  await axe(page);
});

test('finding 1: a course never looked up on the register says so and links only to the register', async ({ page }) => {
  await page.goto('/courses/CPC30220');
  const facts = page.getByTestId('course-facts');
  await expect(facts.getByRole('heading', { level: 2, name: 'Qualification facts' })).toBeVisible();
  await expect(facts.getByTestId('facts-code')).toHaveText('CPC30220');
  await expect(facts.getByTestId('facts-title')).toHaveText('Certificate III in Carpentry');
  await expect(facts.getByRole('link', { name: /CPC30220 on training\.gov\.au/ })).toHaveAttribute(
    'href',
    'https://training.gov.au/Training/Details/CPC30220',
  );
  await expect(facts.getByTestId('not-checked')).toContainText('Not yet checked on the National Register');
  await expect(facts.getByTestId('checked-on')).toHaveCount(0);
  await expect(facts).not.toContainText('Facts last checked');
  // The provider page consulted is a staff note: the only outside source is the register.
  const outside = await page
    .locator('main a[href^="http"]')
    .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  expect(outside.filter((href) => !href.startsWith('https://training.gov.au/'))).toEqual([]);
});

test('a course looked up on the register shows the date of that check', async ({ page }) => {
  await page.goto('/courses/PSP40122');
  const facts = page.getByTestId('course-facts');
  const checked = facts.getByTestId('checked-on');
  await expect(checked).toBeVisible();
  await expect(checked).toHaveText(
    /^\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}$/,
  );
  await expect(checked).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
  // Nothing of the facts box is cut off on a phone.
  const box = await facts.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  // The structured data names no provider: this service is not the training provider.
  const ld = [JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!)].flat();
  const courseLd = ld.find((item: { '@type'?: string }) => item['@type'] === 'Course');
  expect(courseLd).toMatchObject({ '@type': 'Course', courseCode: 'PSP40122' });
  expect(courseLd).not.toHaveProperty('provider');
  await axe(page);
});

test('finding 3: the nursing and security licence pages state no completion time; other pages do', async ({ page }) => {
  for (const code of ['HLT54121', 'CPP20218', 'CPP31318', 'CPP31418']) {
    await page.goto(`/courses/${code}`);
    await expect(page.getByTestId('rpl-flag')).toBeVisible();
    await expect(page.getByTestId('course-timeframe')).toHaveCount(0);
    await expect(page.locator('main')).not.toContainText('4-8 weeks');
  }
  await page.goto('/courses/CPC30220');
  await expect(page.getByTestId('course-timeframe')).toContainText('4-8 weeks');
});

test('finding 2: the work-hour label shows on the six CHC pages the review names, without a timeframe', async ({
  page,
}) => {
  const hours: Record<string, number> = {
    CHC30125: 160,
    CHC50125: 280,
    CHC33021: 120,
    CHC43015: 120,
    CHC43121: 120,
    CHC43315: 80,
  };
  for (const [code, value] of Object.entries(hours)) {
    await page.goto(`/courses/${code}`);
    const flag = page.getByTestId('work-flag');
    await expect(flag).toContainText('Needs current work in the role');
    await expect(flag).toContainText(`${value} hours`);
    await expect(page.getByTestId('course-timeframe')).toHaveCount(0);
  }
  await page.goto('/category/community-services');
  await expect(page.locator('.course-card', { hasText: 'CHC43315' }).getByTestId('work-label')).toHaveText(
    'Needs current work in the role (80 hours)',
  );
});

test('finding 6: a watched code shows visitors no watch marker or note', async ({ page }) => {
  await page.goto('/courses/CHC43315');
  await expect(page.getByTestId('course-facts')).toBeVisible();
  await expect(page.locator('body')).not.toContainText('national review');
  await expect(page.getByTestId('watch-marker')).toHaveCount(0);
});

test('a qualification that cannot be completed by RPL alone says so on its page and card', async ({ page }) => {
  await page.goto('/courses/HLT54121');
  await expect(page.getByTestId('rpl-flag')).toContainText('Not available by RPL alone');
  await expect(page.getByTestId('rpl-flag')).toContainText('400 hours');
  await axe(page);
  await page.goto('/search?search=nursing');
  await expect(page.locator('.course-card').filter({ hasText: 'Diploma of Nursing' })).toContainText(
    'Not available by RPL alone',
  );
});

test('superseded and lower-case course addresses redirect permanently; withdrawn codes are not found', async ({
  page,
  request,
}) => {
  for (const [path, target] of [
    ['/courses/TLI50221', '/courses/TLI50224'],
    ['/courses/tli50221', '/courses/TLI50224'],
    ['/courses/PSP40116', '/courses/PSP40122'],
    ['/courses/cpc30220', '/courses/CPC30220'],
  ]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(301);
    expect(new URL(response.headers().location, 'http://x').pathname, path).toBe(target);
  }
  expect((await request.get('/courses/ICT50119', { maxRedirects: 0 })).status()).toBe(404);
  await page.goto('/courses/psp50116');
  await expect(page).toHaveURL(/\/courses\/PSP50122$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diploma of Government');
});

test('an unknown course code shows Course Not Found with status 404', async ({ page }) => {
  const response = await page.goto('/courses/XYZ99999');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Course Not Found');
  await expect(page.getByText('Course not found or unavailable')).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/courses$/);
});

test.describe("finding 4: unknown categories say 'Category not found.'", () => {
  test("an unknown category page shows 'Category not found.' with status 404", async ({ page }) => {
    const response = await page.goto('/category/no-such-category');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Category not found.');
    await expect(page.getByText('Page not found')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to All Categories' })).toHaveAttribute('href', '/courses');
    await axe(page);
  });
});

test.describe('search results page', () => {
  test('reads the query, shows chips and a summary, and clears filters', async ({ page }) => {
    await page.goto('/search?search=%20%20massage%20&category=health-fitness&level=Certificate%20IV');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search Results');
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    const chips = page.getByRole('list', { name: 'Active filters' });
    await expect(chips).toContainText('massage');
    await expect(chips).toContainText('Category: Health & Fitness');
    await expect(chips).toContainText('Level: Certificate IV');
    await expect(page.getByText('Found 1 course(s) matching your criteria')).toBeVisible();
    await expect(page.locator('.course-card')).toHaveText(/Certificate IV in Massage Therapy/);
    await expect(page.getByRole('link', { name: 'Clear Filters' })).toHaveAttribute('href', '/courses');
    await axe(page);
  });

  test('ranks an exact code first and has an empty state', async ({ page }) => {
    await page.goto('/search?search=bsb50120');
    await expect(page.locator('.course-card').first()).toContainText('BSB50120');
    await page.goto('/search?search=underwater%20basket%20weaving');
    await expect(page.getByRole('heading', { name: 'No courses found' })).toBeVisible();
    await expect(
      page.getByText(
        "We couldn't find any courses matching your search criteria. Try adjusting your search terms or browse our categories instead.",
      ),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse All Categories' })).toHaveAttribute('href', '/courses');
    await axe(page);
  });

  test('refining the search updates results and the address at once; back restores them', async ({ page }) => {
    await page.goto('/search');
    await expect(page.getByText(`Found ${TOTAL} course(s)`)).toBeVisible();
    await page.getByRole('searchbox', { name: 'Qualification name, code or keyword' }).fill('cyber');
    await page.getByRole('main').getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\?search=cyber$/);
    await expect(page.getByText('Found 4 course(s) matching your criteria')).toBeVisible();
    await page.goBack();
    await expect(page.getByText(`Found ${TOTAL} course(s)`)).toBeVisible();
  });

  test('a search sent before the results island has its code is held and answered in place', async ({ page }) => {
    // Hold the island's code back until the visitor's Enter has landed, so it lands before hydration.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = false;
    await page.route(/\/_astro\/SearchResults\.[^/]*\.js/, async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    await page.goto('/search');
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    const box = page.getByRole('searchbox', { name: 'Qualification name, code or keyword' });
    await box.fill('cyber');
    await box.press('Enter');
    await expect.poll(() => requested, 'the island asked for its code').toBe(true);
    release();
    await expect(page).toHaveURL(/\?search=cyber$/);
    await expect(page.getByText('Found 4 course(s) matching your criteria')).toBeVisible();
    // Answered by the island, not by a full page load.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });

  test('shows 24 cards at first and more on request', async ({ page }) => {
    await page.goto('/search');
    await expect(page.locator('.course-card')).toHaveCount(24);
    // The results island loads no code until the visitor reaches for it: the first click wakes it and is replayed.
    expect(
      await page.evaluate(() =>
        performance.getEntriesByType('resource').some((r) => /\/_astro\/client\./.test(r.name)),
      ),
    ).toBe(false);
    await page.getByRole('button', { name: `Show more (${TOTAL - 24} more)` }).click();
    await expect(page.locator('.course-card')).toHaveCount(48);
  });

  test('works without JavaScript: the server renders the results', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/search?search=carpentry');
    await expect(page.getByText('Found 1 course(s) matching your criteria')).toBeVisible();
    await expect(page.locator('.course-card')).toContainText('Certificate III in Carpentry');
    await context.close();
  });

  test('ignores a malformed filter instead of failing', async ({ page }) => {
    await page.goto('/search?level=%3Cscript%3E&category=..%2F..');
    await expect(page.getByText(`Found ${TOTAL} course(s)`)).toBeVisible();
  });
});

test.describe('home page', () => {
  test('has every section in order, with zero axe violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/nationally recognised qualification/);
    const headings = await page.locator('main h2').allTextContents();
    expect(headings.slice(0, 5)).toEqual([
      'Four steps from experience to qualification',
      'Qualifications awarded by partner training organisations',
      'See How RPL Works',
      'Why Choose RPL Pathways',
      'Industries We Serve',
    ]);
    await expect(page.locator('.process__step')).toHaveText([
      /Free Skills Assessment/,
      /Portfolio of Experience/,
      /Evidence Review/,
      /You're Qualified/,
    ]);
    await expect(page.getByRole('link', { name: "Let's GO!" })).toHaveAttribute('href', '/contact');
    await expect(page.locator('.icon-card')).toHaveCount(6);
    await expect(page.locator('.industry-grid .category-card')).toHaveCount(11);
    await expect(page.getByRole('link', { name: 'Show & More' })).toHaveAttribute('href', '/courses');
    await expect(page.getByLabel('Disclaimer')).toContainText('not a registered training organisation');
    await axe(page);
  });

  test('process steps light up as they scroll into view and stay lit', async ({ page }) => {
    // A short window, so the last step starts below it at every width.
    await page.setViewportSize({ width: page.viewportSize()!.width, height: 480 });
    await page.goto('/');
    const steps = page.locator('.process__step');
    const last = steps.last();
    expect(await last.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(480);
    await expect(last).not.toHaveClass(/is-active/);
    await last.scrollIntoViewIfNeeded();
    await expect(last).toHaveClass(/is-active/);
    for (let i = 0; i < 4; i++) await expect(steps.nth(i)).toHaveClass(/is-active/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(last).toHaveClass(/is-active/);
  });

  test('hero search suggests categories and levels, works from the keyboard and submits the filters', async ({
    page,
  }) => {
    await page.goto('/');
    const field = page.getByRole('combobox', { name: 'Qualification name, code or keyword' });
    await field.click();
    await field.pressSequentially('c');
    await expect(page.getByRole('listbox', { name: 'Suggestions' })).toBeHidden();
    await field.pressSequentially('ommunity');
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    // The category first, then the qualifications that match.
    await expect(list.getByRole('option').first()).toHaveText(/Community Services\s*Category/);
    await field.press('ArrowDown');
    await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await field.press('Enter');
    await expect(field).toHaveValue('Community Services');
    await expect(page.getByRole('combobox', { name: 'Category' }).or(page.getByLabel('Category'))).toHaveValue(
      'community-services',
    );
    await page.getByLabel('Level').selectOption('Diploma');
    await page.locator('.hero-search').getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search\?search=Community\+Services&category=community-services&level=Diploma$/);
    await expect(page.getByText(/Found \d+ course\(s\) matching your criteria/)).toBeVisible();
  });

  test('hero suggestions close on Escape and shortly after the field loses focus, capped at 8', async ({ page }) => {
    await page.goto('/');
    const field = page.getByRole('combobox', { name: 'Qualification name, code or keyword' });
    await field.fill('ce');
    const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    await expect(options.first()).toBeVisible();
    expect(await options.count()).toBeLessThanOrEqual(8);
    await field.press('Escape');
    await expect(options.first()).toBeHidden();
    await field.fill('dip');
    await expect(options.first()).toBeVisible();
    await page.locator('h1').click();
    await expect(options.first()).toBeHidden();
  });

  // The hero picture is not shown on small phones.
  test('the hero image falls back to an icon when it fails', { tag: '@desktop-only' }, async ({ page }) => {
    await page.route('**/images/hero-worker.svg', (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto('/');
    await expect(page.locator('[data-hero-image]')).toBeHidden();
    await expect(page.locator('.hero__fallback')).toBeVisible();
  });

  test('the explainer video plays with captions and returns to its poster when it ends', async ({ page }) => {
    await page.goto('/');
    const player = page.locator('.video-player');
    await player.scrollIntoViewIfNeeded();
    const play = player.getByRole('button', { name: /Play video/ });
    await expect(play).toBeVisible();
    await play.click();
    const video = player.locator('video');
    await expect(video).toHaveJSProperty('controls', true);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10000 })
      .toBeGreaterThan(0);
    expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.kind)).toBe('captions');
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = v.duration - 0.2;
    });
    await expect(play).toBeVisible({ timeout: 10000 });
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBe(0);
  });
});

test('header search lands on matching results', async ({ page }) => {
  await page.goto('/about');
  await page.getByRole('button', { name: 'Search qualifications' }).click();
  await page.getByPlaceholder('Search for your qualification here...').fill('  carpentry ');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/search\?search=carpentry$/);
  await expect(page.locator('.course-card').first()).toContainText('Certificate III in Carpentry');
});

test('the catalogue API answers JSON from the site', ONCE, async ({ request }) => {
  const courses = await request.get('/api/courses?search=nursing');
  expect(courses.status()).toBe(200);
  expect((await courses.json()).courses[0].title).toBe('Diploma of Nursing');
  const bad = await request.get('/api/courses?limit=-4');
  expect(bad.status()).toBe(400);
  expect((await bad.json()).message).toBe('limit must be a whole number from 1 to 1000');
  const missing = await request.get('/api/course-details/ZZZ99999');
  expect(missing.status()).toBe(404);
});
