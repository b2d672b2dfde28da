import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/** Workers describe themselves by their job: search must carry them from a sentence to the qualification. */
const SENTENCE = 'I have 10 years as a carpenter';

test('the carpenter sentence in the hero suggests Carpentry and leads to it', async ({ page }) => {
  await page.goto('/');
  const field = page.getByRole('combobox', { name: 'Qualification name, code or keyword' });
  await field.click();
  await field.pressSequentially(SENTENCE);
  const option = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first();
  await expect(option).toHaveText(/Certificate III in Carpentry\s*CPC30220/);
  await option.click();
  await expect(page).toHaveURL(/\/courses\/CPC30220$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Carpentry');
});

test('the carpenter sentence submitted from the hero ranks Carpentry first', async ({ page }) => {
  await page.goto('/');
  const field = page.getByRole('combobox', { name: 'Qualification name, code or keyword' });
  await field.click();
  await field.fill(SENTENCE);
  await field.press('Enter');
  await expect(page).toHaveURL(/\/search\?search=I\+have\+10\+years\+as\+a\+carpenter$/);
  await expect(page.locator('.course-card').first()).toContainText('CPC30220');
});

test('the carpenter sentence in the header search shows Carpentry and its results', async ({ page }) => {
  await page.goto('/about');
  await page.getByRole('button', { name: 'Search qualifications' }).click();
  const box = page.getByPlaceholder('Search for your qualification here...');
  await expect(box).toBeFocused();
  await box.pressSequentially(SENTENCE);
  const matches = page.getByRole('list', { name: 'Matching qualifications' });
  await expect(matches.getByRole('link').first()).toHaveAttribute('href', '/courses/CPC30220');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?search=I\+have\+10\+years\+as\+a\+carpenter$/);
  await expect(page.locator('.course-card').first()).toContainText('Certificate III in Carpentry');
});

test("the carpenter sentence in the quote wizard's course filter keeps Carpentry first", async ({ page }) => {
  await page.goto('/free-quote');
  const wizard = page.locator('.quote');
  const heading = wizard.getByRole('heading', { level: 2 });
  const next = wizard.getByRole('button', { name: 'Next' });
  await wizard.getByLabel('First name').fill('Alex');
  await wizard.getByLabel('Last name').fill('Morgan');
  await wizard.getByLabel('E-mail').fill('alex.morgan@example.com');
  await wizard.getByLabel('Phone').fill('0412 345 678');
  await next.click();
  await expect(heading).toHaveText('Categories');
  await wizard.getByLabel('Civil Construction & Trades').check();
  await next.click();
  await expect(heading).toHaveText('Courses');
  await wizard.getByLabel('Filter the list').fill(SENTENCE);
  // Job names come with the shared search data, loaded when the filter is first used.
  await expect(wizard.locator('.choice--course').first().locator('.choice__title')).toHaveText(
    'Certificate III in Carpentry',
  );
});

test('misspelt trades and codes in any case still find their course', async ({ page }) => {
  await page.goto('/search?search=carpnter');
  await expect(page.locator('.course-card').first()).toContainText('CPC30220');
  await page.goto('/search?search=cpc33020');
  await expect(page.locator('.course-card').first()).toContainText('Bricklaying');
});

test('an empty result offers the free quote with the words typed and the phone number', async ({ page }) => {
  await page.goto('/search?search=underwater%20basket%20weaving');
  await expect(page.getByRole('heading', { name: 'No courses found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse All Categories' })).toHaveAttribute('href', '/courses');
  const empty = page.locator('.search-empty');
  await expect(empty.getByRole('link', { name: 'Get a Free Quote' })).toHaveAttribute(
    'href',
    '/free-quote?search=underwater+basket+weaving',
  );
  // The same phone number the footer shows (from the site settings).
  const phone = (await page.locator('footer a[data-setting="contactInfo.phone"]').textContent())!.trim();
  expect(phone).not.toBe('');
  await expect(empty.getByRole('link', { name: phone })).toHaveAttribute('href', `tel:${phone.replace(/[^\d+]/g, '')}`);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  // A refinement that finds nothing carries its own words.
  const box = page.getByRole('searchbox', { name: 'Qualification name, code or keyword' });
  await box.fill('astronaut');
  await page.getByRole('main').getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/\?search=astronaut$/);
  await expect(empty.getByRole('link', { name: 'Get a Free Quote' })).toHaveAttribute(
    'href',
    '/free-quote?search=astronaut',
  );
});
