import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Waits until the page stands still: the arrival overlay has gone and every animation and transition with
 * an end (a toast sliding in, a fade) has finished. Colours read mid-fade are blends, so an accessibility
 * scan taken then can report a contrast the visitor never sees once the page has settled.
 */
export async function untilStill(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.documentElement.classList.contains('is-arriving'));
  await page.evaluate(async () => {
    const running = () =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    // Finishing one can start another (a toast's enter transition, then its content's): until none runs.
    for (let now = running(); now.length; now = running())
      await Promise.all(now.map((a) => a.finished.catch(() => undefined)));
  });
}

/** An axe scan of the page once it stands still. */
export async function axeViolations(page: Page) {
  await untilStill(page);
  return (await new AxeBuilder({ page }).analyze()).violations;
}
