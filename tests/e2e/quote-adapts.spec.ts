import { test, expect, type Page, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { personClock, takeYourTime } from './helpers/person';

/** The free quote adapts to what is known: a worker whose industry is not listed still gets through. */

const uniqueEmail = (info: TestInfo, label: string) =>
  `${label}-${info.project.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const axe = async (page: Page) => {
  const results = await new AxeBuilder({ page })
    .include('.quote')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
};

test('finding 3: "My industry isn\'t listed" goes on without a category and the quote is sent', async ({
  page,
}, info) => {
  await personClock(page);
  await page.goto('/free-quote');
  const wizard = page.locator('.quote');
  const heading = wizard.getByRole('heading', { level: 2 });
  const next = wizard.getByRole('button', { name: 'Next' });
  await wizard.getByLabel('First name').fill('Kai');
  await wizard.getByLabel('Last name').fill('Brennan');
  await wizard.getByLabel('E-mail').fill(uniqueEmail(info, 'unlisted'));
  await wizard.getByLabel('Phone').fill('0412 345 678');
  await next.click();

  await expect(heading).toHaveText('Categories');
  await expect(next).toBeDisabled();
  await wizard.getByLabel(/My industry isn't listed/).check();
  await expect(next).toBeEnabled();
  await axe(page);
  await next.click();

  await expect(heading).toHaveText('Courses');
  await expect(wizard.getByLabel(/Not sure/)).toBeChecked();
  const experience = wizard.getByLabel('Your experience');
  if ((page.viewportSize()?.width ?? 1440) <= 768) {
    // On a phone the experience box comes before the long list of courses.
    const box = await experience.boundingBox();
    const firstCourse = await wizard.locator('.choice--course').first().boundingBox();
    expect(box && firstCourse && box.y < firstCourse.y).toBe(true);
  }
  await next.click();
  await expect(heading).toHaveText('Courses');
  await expect(experience).toBeFocused();
  await expect(wizard).toContainText('Your industry is not listed, so tell us about your work');
  await axe(page);
  await experience.fill('Marine electrician on ferries for 9 years, switchboards and fault finding.');
  await next.click();

  await expect(heading).toHaveText('Contact & Location');
  await wizard.getByLabel(/State or territory/).selectOption('TAS');
  await next.click();
  await expect(heading).toHaveText('Review & Submit');
  await wizard.getByLabel(/I agree to be bound by the/).check();
  await takeYourTime(page);
  await wizard.getByRole('button', { name: 'Submit Request' }).click();
  await expect(heading).toHaveText('Thank you, Kai!');
  await expect(wizard.getByTestId('quote-reference')).toHaveText(/^RPL-[2-9A-HJKMNP-Z]{6,8}$/);
});
