import type { Page } from '@playwright/test';
import { MIN_FILL_MS } from '../../../src/schemas/inquiry';

/**
 * The server refuses a form sent sooner than MIN_FILL_MS after its page loaded (the islands send the page's age,
 * `performance.now()`): a person takes longer than that, a form-filling robot does not. A test fills a form in a
 * second or two, so instead of waiting out the rest it moves the page's clock on, as if the visitor had taken
 * their time. Call `personClock` before the page loads (it puts in Playwright's clock, which then runs at the
 * normal rate), and `takeYourTime` before sending.
 */
export const personClock = (page: Page) => page.clock.install();

export async function takeYourTime(page: Page) {
  const age = await page.evaluate(() => performance.now());
  const wanted = MIN_FILL_MS + 200;
  if (age < wanted) await page.clock.fastForward(Math.ceil(wanted - age));
}
