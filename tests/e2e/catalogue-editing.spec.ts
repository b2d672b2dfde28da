/**
 * Staff edit the catalogue in the admin and the local rebuild publishes it: a changed course page, a retired
 * course's address redirecting to its successor, and no catalogue controls for the editor role.
 * Catalogue edits change the whole site, so this file runs once, in the after-others project, after the
 * per-viewport projects (playwright.config.ts); it works on qualifications it adds itself and removes them again
 * afterwards.
 */
import { randomBytes } from 'node:crypto';
import { test, expect as baseExpect, type APIRequestContext, type Page } from '@playwright/test';
import { createStaff, signInWithForm, staffSession } from './helpers/accounts';
import { newCourseFacts } from '../fixtures/catalogue';
import { openLocalData } from '../../scripts/lib/local-data.ts';
import { db, sql } from '../../src/platform/database.ts';

const digits = () => String(randomBytes(3).readUIntBE(0, 3) % 100000).padStart(5, '0');
const FIRST = `ZZE${digits()}`;
const SECOND = `ZZF${digits()}`;
const THIRD = `ZZG${digits()}`;
/** A full rebuild of the site under load: allow several minutes. */
const REBUILD_TIMEOUT = 8 * 60_000;
/** A save answers once it is stored and the rebuild is asked for; a machine busy building can be slow. */
const SAVED = { timeout: 60_000 };
/** The admin screens load their data from functions that share the machine with the rebuild. */
const expect = baseExpect.configure({ timeout: 60_000 });

/** A new qualification added through the API, with written details borrowed from a published one. */
async function addCourse(request: APIRequestContext, token: string, code: string, title: string) {
  const headers = { authorization: `Bearer ${token}` };
  const { details } = (await (await request.get('/api/admin/catalogue/courses/CPC30220', { headers })).json()).edit;
  const answer = await request.post('/api/admin/catalogue/courses', {
    headers,
    data: {
      code: code.toLowerCase(),
      facts: newCourseFacts(code, title),
      edit: { featured: false, details, evidence: [], terms: [], retired: null },
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

async function waitUntilLive(page: Page) {
  const status = page.getByTestId('rebuild-status');
  await expect(status).toHaveAttribute('data-state', /requested|building|live/);
  await expect(status).toHaveAttribute('data-state', 'live', { timeout: REBUILD_TIMEOUT });
}

/** Starts a rebuild by saving a category unchanged and waits until its pages are live. */
async function rebuildSite(request: APIRequestContext, headers: Record<string, string>) {
  const { categories } = await (await request.get('/api/admin/catalogue', { headers })).json();
  const category = categories.find((c: { slug: string }) => c.slug === 'civil-construction');
  const saved = await request.put('/api/admin/catalogue/categories/civil-construction', {
    headers,
    data: {
      version: category.version,
      edit: { description: category.description, color: category.color, image: category.image },
    },
  });
  expect(saved.status()).toBe(200);
  await untilLive(request, headers);
}

const rebuildState = async (request: APIRequestContext, headers: Record<string, string>) =>
  (await (await request.get('/api/admin/catalogue/rebuild', { headers })).json()).state as string;

/** Waits until the rebuild last asked for (by anyone) is live. */
async function untilLive(request: APIRequestContext, headers: Record<string, string>) {
  await expect.poll(() => rebuildState(request, headers), { timeout: REBUILD_TIMEOUT, intervals: [2000] }).toBe('live');
}

test.describe.configure({ mode: 'serial' });
// Fail a stuck step quickly instead of waiting out the long rebuild timeout (a minute: the machine may be busy building).
test.use({ actionTimeout: 60_000 });

test.afterAll(async ({ request }) => {
  test.setTimeout(REBUILD_TIMEOUT + 60_000);
  // Remove what this file added and rebuild, so the site is left as it was found.
  const store = await openLocalData({});
  try {
    const codes = [FIRST, SECOND, THIRD];
    await db().query(sql`DELETE FROM catalogue_courses WHERE code = ANY(${codes})`);
    await db().query(sql`DELETE FROM register_checks WHERE code = ANY(${codes})`);
  } finally {
    await store.close();
  }
  // A server that scripts/test-all.sh started for this run stops after it, and the next start builds the site
  // from the cleaned store: only a server that keeps running needs the rebuild (about half a minute).
  if (process.env.E2E_SERVER_STOPS_AFTER_RUN) return;
  const { auth: headers } = await staffSession(request, 'catalogue-cleanup');
  // Saving the category unchanged asks for the rebuild that drops the added pages.
  await rebuildSite(request, headers);
  expect((await request.get(`/courses/${FIRST}`, { maxRedirects: 0 })).status()).toBe(404);
});

// The tests that wait for a rebuild come last: the settings tests of the site-wide project, which run beside this
// file, start rebuilds with every save, so a wait lasts until they are done; these three need no rebuild and run
// meanwhile.
test('a category edit is checked in the form and saved with who and when', async ({ page }) => {
  test.setTimeout(3 * 60_000);
  const account = await createStaff('categories');
  await signInWithForm(page, account);
  await page.goto('/admin/categories');
  await expect(page.getByRole('heading', { name: 'Manage Categories' })).toBeVisible();
  await expect(page.getByText('View the industry sectors and how many courses each one lists.')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Civil Construction & Trades' }).click();
  await page.getByLabel('Image').fill('https://elsewhere.example/picture.png');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(/The image must be an address on this site/)).toBeVisible();
  await page.getByLabel('Image').fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Civil Construction & Trades saved')).toBeVisible(SAVED);
  await page.getByRole('button', { name: 'Edit Civil Construction & Trades' }).click();
  await expect(page.getByText(new RegExp(`Last saved .* by ${account.username}`))).toBeVisible();
});

test('the editor role sees no catalogue controls and the catalogue API refuses it', async ({ page, request }) => {
  // Runs while the previous test's rebuild may still be using the machine.
  test.setTimeout(3 * 60_000);
  const account = await createStaff('cat-editor', 'editor');
  await signInWithForm(page, account);
  for (const name of [/Manage Courses/, /Manage Categories/])
    await expect(page.getByRole('link', { name })).toHaveCount(0);
  for (const path of ['/admin/courses', '/admin/categories']) {
    await page.goto(path);
    await expect(page.getByText('This is not available for your role.')).toBeVisible();
    await expect(page.getByRole('button', { name: /Edit|Add a qualification|Save changes/ })).toHaveCount(0);
    await expect(page.getByRole('table')).toHaveCount(0);
  }
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  for (const answer of [
    await request.get('/api/admin/catalogue', { headers }),
    await request.put('/api/admin/catalogue/courses/CPC30220', { headers, data: { version: 0, edit: {} } }),
    await request.post('/api/admin/catalogue/courses', { headers, data: {} }),
  ]) {
    expect(answer.status()).toBe(403);
    expect((await answer.json()).message).toMatch(/^Your role \(editor\) does not allow this/);
  }
});

test('finding 1 and 6: staff see watch markers and unchecked codes, and record a register check with who and when', async ({
  page,
  request,
}) => {
  const account = await createStaff('register');
  await signInWithForm(page, account);
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  await addCourse(request, token, THIRD, 'Certificate III in Register Testing');

  await page.goto('/admin/courses');
  await page.getByLabel('Search', { exact: true }).fill('CHC43315');
  const watched = page.getByTestId('course-CHC43315');
  await expect(watched.getByTestId('watch-marker')).toHaveText('Watch');
  await expect(watched.getByTestId('watch-marker')).toHaveAttribute('title', /national review of mental health/);
  await expect(watched.getByTestId('register-unchecked')).toBeVisible();

  await page.getByLabel('Search', { exact: true }).fill(THIRD);
  const row = page.getByTestId(`course-${THIRD}`);
  await expect(row.getByTestId('register-unchecked')).toHaveText('Not yet checked');
  await row.getByRole('button', { name: `Edit ${THIRD} Certificate III in Register Testing` }).click();
  const panel = page.getByTestId('register-check');
  await expect(panel.getByTestId('register-last-check')).toContainText('Not yet checked on the National Register');
  await expect(panel.getByRole('link', { name: `${THIRD} on training.gov.au` })).toHaveAttribute(
    'href',
    `https://training.gov.au/Training/Details/${THIRD}`,
  );
  await panel.getByLabel('Status on the register').selectOption('current');
  await panel.getByRole('button', { name: 'I checked this on training.gov.au today' }).click();
  const today = new Date().toLocaleDateString('en-AU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Australia/Sydney',
  });
  await expect(page.getByText(`Register check of ${THIRD} recorded.`)).toBeVisible(SAVED);
  await expect(panel.getByTestId('register-last-check')).toContainText(
    `Last checked ${today} by Test Editor: Current, “Certificate III in Register Testing”`,
  );
});

test('staff edit a course and retire another with a successor; the local rebuild publishes both', async ({
  page,
  request,
}) => {
  test.setTimeout(2 * REBUILD_TIMEOUT);
  const account = await createStaff('catalogue');
  await signInWithForm(page, account);
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  await addCourse(request, token, FIRST, 'Certificate III in Catalogue Testing');
  await addCourse(request, token, SECOND, 'Certificate III in Retired Testing');

  await page.goto('/admin/courses');
  await expect(page.getByRole('heading', { name: 'Manage Courses' })).toBeVisible();
  await expect(page.getByText('View the nationally recognised qualifications listed on the site.')).toBeVisible();

  // Filters: text, then status.
  await page.getByLabel('Search', { exact: true }).fill(FIRST);
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Search', { exact: true }).fill('');
  await page.getByLabel('Status').selectOption('new');
  await expect(page.getByTestId(`course-${FIRST}`)).toBeVisible();
  await expect(page.getByTestId('course-CPC30220')).toHaveCount(0);
  await page.getByLabel('Status').selectOption('');

  // Edit the first course's written details.
  await page.getByLabel('Search', { exact: true }).fill(FIRST);
  await page.getByRole('button', { name: `Edit ${FIRST}` }).click();
  await expect(page.getByRole('heading', { name: `Edit ${FIRST} Certificate III in Catalogue Testing` })).toBeVisible();
  const about = `Tested by the catalogue editor on ${new Date().toISOString()}: experienced builders get this recognised.`;
  await page.getByLabel('About (card and page summary)').fill(about);
  // A bad edit is refused in the form, with the field named.
  await page.getByLabel('Scope of work').fill('Only one line');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert')).toContainText('Scope of work needs at least 3 items');
  await expect(page.getByLabel('Scope of work')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Scope of work').fill('Set out frames\nFit off doors\nRead plans');
  await page.getByLabel('Occupations and search words').fill('catalogue tester\nframe tester');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`${FIRST} saved`)).toBeVisible(SAVED);
  // Back on the list once the save is through.
  await expect(page.getByRole('heading', { name: 'Qualifications' })).toBeVisible();

  // Retire the second with the first as its successor.
  await page.getByLabel('Search', { exact: true }).fill(SECOND);
  await page.getByRole('button', { name: `Edit ${SECOND}` }).click();
  await page.getByLabel(/Retire this qualification/).check();
  await page.getByLabel('Successor (optional)').selectOption(FIRST);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`${SECOND} saved`)).toBeVisible(SAVED);
  await expect(page.getByTestId(`course-${SECOND}`)).toContainText(`Retired to ${FIRST}`);

  await waitUntilLive(page);

  await page.goto(`/courses/${FIRST}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certificate III in Catalogue Testing');
  await expect(page.getByText(about).first()).toBeVisible();
  await expect(page.getByText('Fit off doors')).toBeVisible();

  const moved = await request.get(`/courses/${SECOND}`, { maxRedirects: 0 });
  expect(moved.status()).toBe(301);
  expect(moved.headers().location).toBe(`/courses/${FIRST}`);
  await page.goto(`/courses/${SECOND.toLowerCase()}`);
  await expect(page).toHaveURL(new RegExp(`/courses/${FIRST}$`));
});

test('finding 12: after a rebuild the pre-rendered pages keep their styles and brand font (no CSP violation)', async ({
  page,
  request,
}) => {
  test.setTimeout(REBUILD_TIMEOUT + 2 * 60_000);
  const { auth: headers } = await staffSession(request, 'csp-after-rebuild');
  // The test before this one waits for its rebuild; a save since (the settings tests run beside this file) has asked
  // for another, which is waited for; run alone, this one asks for its own.
  const state = await rebuildState(request, headers);
  if (/^(requested|queued|building)$/.test(state)) await untilLive(request, headers);
  else if (state !== 'live') await rebuildSite(request, headers);

  // Every violation the browser reports, from the first byte of each page on.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI || 'inline'} ${event.sample}`);
    });
  });
  const consoleViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleViolations.push(message.text());
  });

  // A first visit fetches the brand fonts once the page is idle (src/scripts/brand-fonts.ts); the pages after it
  // are set in them.
  await page.goto('/');
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('brand-fonts'))).toBe('1');
  for (const path of ['/', '/about', '/courses/CPC30220']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const fonts = await page.evaluate(async () => {
      await document.fonts.ready;
      return {
        body: getComputedStyle(document.body).fontFamily,
        loaded: [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family),
      };
    });
    // The body is set in Kumbh Sans (Astro names the face "Kumbh Sans-<hash>"), and that face has loaded.
    const brand = fonts.body.split(',')[0].trim().replace(/^"|"$/g, '');
    expect(brand, path).toMatch(/^Kumbh Sans/);
    expect(
      fonts.loaded.map((family) => family.replace(/^"|"$/g, '')),
      path,
    ).toContain(brand);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual(
      [],
    );
  }
  expect(consoleViolations).toEqual([]);
});
