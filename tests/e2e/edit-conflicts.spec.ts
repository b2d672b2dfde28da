import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { createStaff, signInWithForm } from './helpers/accounts';
import { ONCE } from './helpers/viewports';

/**
 * Nothing typed in the admin is lost between tabs and forms: a stale settings save is refused with the
 * choice of what to keep, a catalogue conflict shows both values of each differing field and saves a per-field
 * merge, and leaving a changed course form asks first. The settings test edits staff-only source notes and
 * puts them back; the course conflict test puts the course back as it found it. Where each runs
 * (playwright.config.ts): leaving the form saves nothing, so it runs with the other desktop tests; the settings
 * test runs in the site-wide project, one at a time with the other tests that save the settings (any other save
 * in between would be a real conflict); the course conflict saves a course, which starts a rebuild, so it runs
 * in the after-others project, after the tests that read the pages.
 */

/** The signed-in page's bearer header, for the API calls that play the other person. */
async function authOf(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  return { authorization: `Bearer ${token}` };
}

async function readSettings(request: APIRequestContext, headers: Record<string, string>) {
  const answer = await request.get('/api/admin/site-settings', { headers });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as {
    version: number;
    claims: Record<string, { source: string }>;
  } & Record<string, unknown>;
}

test(
  'finding 8: leaving a changed course form by "Back to the list" or a header link asks first and keeps the edits when the person stays',
  ONCE,
  async ({ page }) => {
    await signInWithForm(page, await createStaff('leave'), '/admin/courses');
    await openCourse(page, 'BSB40320');
    const about = page.getByLabel('About (card and page summary)');
    await about.fill('Typed, not saved');
    const ask = page.getByRole('alertdialog', { name: /unsaved changes/ });

    await page.getByRole('button', { name: 'Back to the list' }).click();
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await expect(ask).toBeHidden();
    await expect(about).toHaveValue('Typed, not saved');

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await expect(page).toHaveURL(/\/admin\/courses$/);
    await expect(about).toHaveValue('Typed, not saved');

    // Closing the tab asks too (the browser's own question).
    const question = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await question;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    await expect(about).toHaveValue('Typed, not saved');

    // Leaving is a choice: confirmed, the header link goes.
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  },
);

test('finding 6: two tabs saving settings get 200 and 409, and the second tab sees the choice and keeps both changes', {
  tag: [ONCE.tag, '@site-wide'],
}, async ({ page, context }) => {
  test.setTimeout(120_000);
  await signInWithForm(page, await createStaff('conflict'), '/admin/settings');
  const headers = await authOf(page);
  const before = await readSettings(page.request, headers);
  const first = page;
  const second = await context.newPage();
  await second.goto('/admin/settings');

  const stamp = Date.now();
  const firstNote = `Annual report ${stamp}, checked by the first tab`;
  const secondNote = `Survey ${stamp}, checked by the second tab`;
  const success = (tab: Page) =>
    tab.getByRole('group', { name: 'Success rate (About page)' }).getByLabel('Source note');
  const rating = (tab: Page) => tab.getByRole('group', { name: 'Satisfaction (About page)' }).getByLabel('Source note');
  await expect(success(second)).toHaveValue(before.claims.successRate!.source);

  try {
    await success(first).fill(firstNote);
    const firstSave = first.waitForResponse(
      (r) => r.url().endsWith('/api/admin/site-settings') && r.request().method() === 'POST',
    );
    await first.getByRole('button', { name: 'Save Settings' }).click();
    expect((await firstSave).status()).toBe(200);
    await expect(first.getByText('Settings saved successfully!').first()).toBeVisible();

    await rating(second).fill(secondNote);
    const secondSave = second.waitForResponse(
      (r) => r.url().endsWith('/api/admin/site-settings') && r.request().method() === 'POST',
    );
    await second.getByRole('button', { name: 'Save Settings' }).click();
    expect((await secondSave).status()).toBe(409);

    // The second tab is told, not "saved", and sees both values of each field that differs.
    const conflict = second.getByTestId('conflict');
    await expect(conflict.getByRole('alert')).toContainText('These settings were changed by');
    await expect(second.getByText('Settings saved successfully!')).toHaveCount(0);
    const successField = conflict.getByRole('group', { name: 'Success rate (About page): Source note' });
    await expect(successField.getByRole('radio', { name: /Yours/ })).toBeChecked();
    await expect(successField.getByText(firstNote)).toBeVisible();
    await expect(successField.getByText(before.claims.successRate!.source || '(empty)')).toBeVisible();
    const ratingField = conflict.getByRole('group', { name: 'Satisfaction (About page): Source note' });
    await expect(ratingField.getByText(secondNote)).toBeVisible();
    // Their value for the field they changed, mine for the field I changed: both changes are kept.
    await successField.getByRole('radio', { name: /Theirs/ }).check();
    const merged = second.waitForResponse(
      (r) => r.url().endsWith('/api/admin/site-settings') && r.request().method() === 'POST',
    );
    await conflict.getByRole('button', { name: 'Save with the chosen values' }).click();
    expect((await merged).status()).toBe(200);
    await expect(conflict).toHaveCount(0);
    await expect(success(second)).toHaveValue(firstNote);
    await expect(rating(second)).toHaveValue(secondNote);

    const after = await readSettings(page.request, headers);
    expect(after.claims.successRate!.source).toBe(firstNote);
    expect(after.claims.satisfaction!.source).toBe(secondNote);
    expect(after.version).toBe(before.version + 2);
  } finally {
    const { version, updatedAt: _a, updatedBy: _b, ...now } = await readSettings(page.request, headers);
    const { version: _v, updatedAt: _c, updatedBy: _d, ...was } = before;
    await page.request.post('/api/admin/site-settings', {
      headers,
      data: { ...now, claims: { ...(now.claims as object), ...(was.claims as object) }, version },
    });
  }
});

/** The course form of `code`, opened from Manage Courses. */
async function openCourse(page: Page, code: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(code);
  await page.getByRole('button', { name: new RegExp(`^Edit ${code} `) }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^Edit ${code} `) })).toBeVisible();
}

test('finding 7: the catalogue conflict shows both values of each differing field, and a per-field merge saves the merged result', {
  tag: [ONCE.tag, '@after-others'],
}, async ({ page }) => {
  test.setTimeout(120_000);
  const code = 'BSB60520';
  await signInWithForm(page, await createStaff('conflict'), '/admin/courses');
  const headers = await authOf(page);
  const read = async () => await (await page.request.get(`/api/admin/catalogue/courses/${code}`, { headers })).json();
  const original = await read();
  await openCourse(page, code);

  const stamp = Date.now();
  const mine = { about: `My summary ${stamp}`, overview: `My overview ${stamp}` };
  const theirs = { overview: `Their overview ${stamp}` };
  try {
    await page.getByLabel('About (card and page summary)').fill(mine.about);
    await page.getByLabel('Overview', { exact: true }).fill(mine.overview);
    // Someone else saves the same course first.
    const saved = await page.request.put(`/api/admin/catalogue/courses/${code}`, {
      headers,
      data: {
        version: original.version,
        edit: { ...original.edit, details: { ...original.edit.details, ...theirs } },
      },
    });
    expect(saved.status()).toBe(200);

    await page.getByRole('button', { name: 'Save changes' }).click();
    const conflict = page.getByTestId('conflict');
    await expect(conflict.getByRole('alert')).toContainText('This was changed by');
    // Only the fields that differ, each with both values.
    await expect(conflict.getByRole('group')).toHaveCount(2);
    const about = conflict.getByRole('group', { name: 'About (card and page summary)' });
    await expect(about.getByRole('radio', { name: /Yours/ })).toHaveAccessibleName(new RegExp(mine.about));
    await expect(about.getByRole('radio', { name: /Theirs/ })).toHaveAccessibleName(
      new RegExp(original.edit.details.about.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    const overview = conflict.getByRole('group', { name: 'Overview' });
    await expect(overview.getByText(mine.overview)).toBeVisible();
    await expect(overview.getByText(theirs.overview)).toBeVisible();
    // My summary, their overview.
    await overview.getByRole('radio', { name: /Theirs/ }).check();
    await conflict.getByRole('button', { name: 'Save with the chosen values' }).click();
    await expect(page.getByRole('heading', { name: 'Qualifications' })).toBeVisible();

    const merged = await read();
    expect(merged.version).toBe(original.version + 2);
    expect(merged.edit.details.about).toBe(mine.about);
    expect(merged.edit.details.overview).toBe(theirs.overview);
  } finally {
    const now = await read();
    await page.request.put(`/api/admin/catalogue/courses/${code}`, {
      headers,
      data: { version: now.version, edit: original.edit },
    });
  }
});
