import { test, expect } from '@playwright/test';
import { personClock, takeYourTime } from './helpers/person';

/**
 * A worker whose trade the catalogue lacks is told so, with the phone number, a call-back request and the
 * free quote, never offered a neighbouring trade; a sentence longer than 100 characters is searched, not
 * refused or answered with the whole catalogue.
 */
const NO_QUALIFICATION = "We don't list a qualification for that trade yet.";

test('finding 1: an electrician ticking "Not sure" is told honestly, with no construction trade suggested', async ({
  page,
}, info) => {
  await personClock(page);
  await page.goto('/free-quote');
  const wizard = page.locator('.quote');
  const next = wizard.getByRole('button', { name: 'Next' });
  await wizard.getByLabel('First name').click();
  await wizard.getByLabel('First name').fill('Robin');
  await wizard.getByLabel('Last name').fill('Nguyen');
  await wizard.getByLabel('E-mail').fill(`honest-${info.project.name}-${Date.now()}@example.com`);
  await wizard.getByLabel('Phone').fill('0412 345 678');
  await next.click();
  await wizard.getByLabel('Civil Construction & Trades').check();
  await next.click();
  await wizard.getByLabel(/Not sure/).check();
  await wizard
    .getByLabel('Your experience (optional)')
    .fill('A grade electrician trained in UK, 12 years of commercial and domestic wiring.');
  await next.click();
  await wizard.getByLabel(/State or territory/).selectOption('NSW');
  await next.click();
  await wizard.getByLabel(/I agree to be bound by the/).check();
  await takeYourTime(page);
  await wizard.getByRole('button', { name: 'Submit Request' }).click();
  await expect(wizard.getByRole('heading', { name: 'Thank you, Robin!' })).toBeVisible();
  await expect(wizard.getByText(NO_QUALIFICATION)).toBeVisible();
  await expect(wizard.getByRole('link', { name: /^Call / })).toHaveAttribute('href', /^tel:/);
  await expect(wizard.getByRole('link', { name: 'Request a call back' })).toHaveAttribute(
    'href',
    '/contact#consult-title',
  );
  await expect(wizard.locator('.quote-match')).toHaveCount(0);
});

test('finding 2: a 120-character sentence about tiling finds tiling first on /search, not the catalogue', async ({
  page,
}) => {
  const sentence =
    'I have been doing tiling for 15 years mostly bathrooms and splashbacks and some commercial work, no formal papers at all';
  await page.goto(`/search?${new URLSearchParams({ search: sentence })}`);
  await expect(page.locator('.course-card').first()).toContainText('Wall and Floor Tiling');
  expect(await page.locator('.course-card').count()).toBeLessThanOrEqual(3);
});

test('finding 1: a trade not listed gets the honest answer on /search', async ({ page }) => {
  await page.goto('/search?search=real%20estate%20agent');
  const empty = page.locator('.search-empty');
  await expect(empty.getByText(NO_QUALIFICATION)).toBeVisible();
  await expect(empty.getByRole('link', { name: 'Request a call back' })).toBeVisible();
  await expect(empty.getByRole('link', { name: 'Get a Free Quote' })).toHaveAttribute(
    'href',
    '/free-quote?search=real+estate+agent',
  );
});
