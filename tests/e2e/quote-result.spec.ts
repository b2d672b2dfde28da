import { test, expect, type Page, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { getInquiry, idOfReference } from '../../src/server/inquiries.ts';
import { keptMail, withLocalData } from './helpers/outbox.ts';
import { personClock, takeYourTime } from './helpers/person';

/**
 * The free quote starting from the visitor: a course page's quote link arrives with that course
 * chosen, and a request with "Not sure" ends on an indicative result (matches, evidence checklist,
 * reference) that the acknowledgement e-mail repeats. Screenshots of each step go to
 * test-results/quote-screens/ for a visual check.
 */
const uniqueEmail = (info: TestInfo, label: string) =>
  `${label}-${info.project.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const axe = async (page: Page) => {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
};
const shot = (page: Page, info: TestInfo, name: string) =>
  page.screenshot({
    path: `test-results/quote-screens/${info.project.name}-${name}.png`,
    fullPage: true,
    animations: 'disabled',
  });

async function fillStep1(page: Page, email: string) {
  const wizard = page.locator('.quote');
  await wizard.getByLabel('First name').fill('Robin');
  await wizard.getByLabel('Last name').fill('Nguyen');
  await wizard.getByLabel('E-mail').fill(email);
  await wizard.getByLabel('Phone').fill('0412 345 678');
}

test.describe('free quote from the visitor', () => {
  test("finding 3: a course page's quote link arrives with the course chosen and skips to step 4", async ({
    page,
  }, info) => {
    await page.goto('/courses/CPC30220');
    const link = page.locator('.course-hero').getByRole('link', { name: 'Get a Free Quote' });
    await expect(link).toHaveAttribute('href', '/free-quote?course=CPC30220');
    await expect(page.locator('.cta-card').getByRole('link', { name: /Get a Free Quote/ })).toHaveAttribute(
      'href',
      '/free-quote?course=CPC30220',
    );
    await link.click();
    const wizard = page.locator('.quote');
    // The island wakes by itself for the parameter, says what is chosen and drops the parameter.
    await expect(wizard.locator('.quote__preselected')).toContainText('Certificate III in Carpentry');
    await expect(page).toHaveURL(/\/free-quote$/);
    // Steps 2 and 3 are answered by the link: shown done, and step 1 leads straight to step 4.
    const progress = page.getByRole('navigation', { name: 'Quote progress' });
    await expect(progress.getByText('(completed)')).toHaveCount(2);
    await fillStep1(page, uniqueEmail(info, 'preselect'));
    const next = wizard.getByRole('button', { name: 'Next' });
    await next.click();
    await expect(wizard.getByRole('heading', { level: 2 })).toHaveText('Contact & Location');
    await wizard.getByLabel(/State or territory/).selectOption('NSW');
    await next.click();
    await expect(wizard.locator('.review')).toContainText('CPC30220');
    await expect(wizard.locator('.review')).toContainText('Civil Construction & Trades');
    // Still editable from the review.
    await wizard.getByRole('button', { name: 'Edit Courses' }).click();
    await expect(wizard.getByRole('checkbox', { name: /Certificate III in Carpentry/ })).toBeChecked();
    await expect(next).toBeEnabled();
  });

  test('a course page shows its evidence checklist, and printing prints only the list', async ({ page }) => {
    await page.goto('/courses/CPC30220');
    const list = page.locator('.evidence');
    await expect(list.getByRole('heading', { name: 'Evidence checklist' })).toBeVisible();
    await expect(list.locator('li').first()).toContainText('framing');
    await expect(list.getByRole('button', { name: 'Print the checklist' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(list).toBeVisible();
    await expect(page.locator('.course-hero')).toBeHidden();
    await expect(page.locator('header').first()).toBeHidden();
    await expect(list.getByRole('button', { name: 'Print the checklist' })).toBeHidden();
  });

  test('?search= chooses the best match', async ({ page }) => {
    await page.goto('/free-quote?search=individual%20support');
    await expect(page.locator('.quote__preselected')).toContainText('CHC33021');
  });

  test('a quote with "Not sure" ends on a result listing matches and an evidence checklist', async ({ page }, info) => {
    test.setTimeout(120_000); // screenshots of every step on a shared machine
    const email = uniqueEmail(info, 'notsure');
    await personClock(page);
    await page.goto('/free-quote');
    const wizard = page.locator('.quote');
    const heading = wizard.getByRole('heading', { level: 2 });
    const next = wizard.getByRole('button', { name: 'Next' });
    await wizard.getByLabel('First name').click();
    await fillStep1(page, email);
    await shot(page, info, '1-personal');
    await next.click();

    await expect(heading).toHaveText('Categories');
    await wizard.getByLabel('Civil Construction & Trades').check();
    await shot(page, info, '2-categories');
    await next.click();

    await expect(heading).toHaveText('Courses');
    await expect(next).toBeDisabled();
    await wizard.getByLabel(/Not sure/).check();
    await expect(next).toBeEnabled();
    await wizard
      .getByLabel('Your experience (optional)')
      .fill('Carpenter for 10 years: framing, formwork and fit-off on houses.');
    await wizard.getByLabel('Your goals (optional)').fill('Get my trade papers recognised.');
    await shot(page, info, '3-courses');
    await next.click();

    await expect(heading).toHaveText('Contact & Location');
    await wizard.getByLabel(/State or territory/).selectOption('NSW');
    await shot(page, info, '4-contact');
    await next.click();

    await expect(heading).toHaveText('Review & Submit');
    await expect(wizard.locator('.review')).toContainText('Not sure');
    await wizard.getByLabel(/I agree to be bound by the/).check();
    await shot(page, info, '5-review');
    await takeYourTime(page);
    await wizard.getByRole('button', { name: 'Submit Request' }).click();

    await expect(heading).toHaveText('Thank you, Robin!');
    const result = wizard.locator('.quote-result');
    await expect(result.getByRole('heading', { name: 'Your indicative result' })).toBeVisible();
    await expect(result).toContainText('An indication, not an assessment');
    const matches = result.locator('.quote-match');
    expect(await matches.count()).toBeGreaterThanOrEqual(1);
    await expect(matches.first().getByRole('heading', { level: 4 })).toHaveText('Certificate III in Carpentry');
    await expect(matches.first()).toContainText('What RPL cannot give you');
    // Each match states its fee, or how the fee is decided.
    await expect(matches.first().locator('.quote-match__fee')).toContainText(/fee/i);
    // One printable checklist: an item several suggestions need appears once.
    const checklist = wizard.getByTestId('evidence-checklist');
    await expect(checklist.getByRole('button', { name: 'Print' })).toBeVisible();
    const lines = await checklist.locator('li').allTextContents();
    expect(lines.some((line) => line.includes('framing'))).toBe(true);
    expect(new Set(lines).size).toBe(lines.length);
    await expect(wizard.getByRole('heading', { name: 'What happens next' })).toBeVisible();
    const reference = (await wizard.getByTestId('quote-reference').textContent())!;
    expect(reference).toMatch(/^RPL-[2-9A-HJKMNP-Z]{6,8}$/);
    // A thank-you, not the form's introduction; the ways on are at hand.
    expect(await page.locator('.page-hero').evaluate((hero) => hero.getBoundingClientRect().height)).toBeLessThan(2);
    await expect(wizard.getByRole('link', { name: 'Upload your evidence' })).toHaveAttribute(
      'href',
      /\/apply#token=[A-Za-z0-9_-]{43}$/,
    );
    await expect(wizard.getByRole('link', { name: /^Call us now/ })).toHaveAttribute('href', /^tel:/);
    await shot(page, info, '6-result');
    await axe(page);

    // A call-back: a day and a window from the business hours.
    const callback = wizard.locator('.quote-callback');
    const day = await callback.getByLabel('Day').inputValue();
    const slot = callback.getByLabel('Time (Sydney time)');
    await slot.selectOption({ index: 1 });
    const window = await slot.inputValue();
    await callback.getByRole('button', { name: 'Request a call-back' }).click();
    await expect(wizard.getByTestId('callback-booked')).toContainText(window);

    // The reference leads to the stored inquiry's id.
    const { id, stored } = await withLocalData(async () => {
      const found = (await idOfReference(reference))!;
      return { id: found, stored: (await getInquiry(found))! };
    });
    expect(stored).toMatchObject({ contact: { email }, quote: { notSure: true, selectedCourses: [] } });
    expect(stored.quote?.matches?.[0]).toBe('CPC30220');
    expect(stored.callback).toMatchObject({ day, window });
    await expect.poll(() => keptMail(`inquiry-${id}-ack`)).not.toBeNull();
    const ack = (await keptMail(`inquiry-${id}-ack`))!;
    expect(ack.text).toContain('YOUR INDICATIVE RESULT');
    expect(ack.text).toContain('CPC30220 Certificate III in Carpentry');
    expect(ack.text).toContain(reference);
    expect(ack.text).toContain('YOUR EVIDENCE CHECKLIST');
    expect(ack.text).toMatch(/\/apply#token=[A-Za-z0-9_-]{43}/);
    expect(ack.text).toMatch(/Call us on .+ and quote your reference/);
  });
});

test.describe('back-to-top at 360px', () => {
  /** Scrolls through the page and fails if the visible button ever overlaps one of the targets. */
  async function neverCovers(page: Page, targets: string) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y < height; y += 120) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      // The button is updated in the frame after the scroll event: two frames later it shows its state.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const overlap = await page.evaluate((selector) => {
        const button = document.querySelector<HTMLElement>('[data-back-to-top]')!;
        if (getComputedStyle(button).visibility === 'hidden') return null;
        const b = button.getBoundingClientRect();
        const hits = (r: DOMRect) =>
          r.width > 0 && b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom;
        for (const el of document.querySelectorAll(selector)) {
          // Controls by their box; paragraphs by their lines of text (the blank end of a short line is not text).
          if (el.matches('p')) {
            const range = document.createRange();
            range.selectNodeContents(el);
            if ([...range.getClientRects()].some(hits)) return el.outerHTML.slice(0, 80);
          } else if (hits(el.getBoundingClientRect())) return el.outerHTML.slice(0, 80);
        }
        return null;
      }, targets);
      expect(overlap, `covered at scrollY ${y}`).toBeNull();
    }
  }

  // The phone layout is where the button sits over content.
  test(
    'never covers the quote Next button, the goals field or an FAQ answer',
    { tag: '@phone-only' },
    async ({ page }, info) => {
      test.setTimeout(120_000);
      await page.goto('/free-quote');
      const wizard = page.locator('.quote');
      await fillStep1(page, uniqueEmail(info, 'totop'));
      await neverCovers(page, '.quote__next, .quote input, .quote label');
      await wizard.getByRole('button', { name: 'Next' }).click();
      await wizard.getByLabel('Civil Construction & Trades').check();
      await wizard.getByRole('button', { name: 'Next' }).click();
      await neverCovers(page, '.quote__next, .quote textarea, .quote .choice');

      await page.goto('/faq');
      await page.locator('#faq-5 summary').click();
      await neverCovers(page, '.faq__item[open] p, .faq__question');
    },
  );
});
