// JavaScript a page has loaded once a visitor has used it: every island woken (focus and pointer on each,
// as a visitor reaching for it would), in Debian's chromium via Playwright. Lighthouse only sees the load.
import { chromium } from '@playwright/test';
import { launchOptions } from '../chromium.mjs';
import { gzippedSize } from './lighthouse.mjs';

export async function openBrowser() {
  return chromium.launch(launchOptions);
}

/** gzip -6 bytes of every script the page has loaded after all its islands hydrated, and how many islands. */
export async function jsAfterUse(browser, url) {
  const page = await browser.newPage({ viewport: { width: 360, height: 780 } });
  const scripts = new Set();
  page.on('request', (request) => request.resourceType() === 'script' && scripts.add(request.url()));
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    const islands = await page.evaluate(() => {
      const all = [...document.querySelectorAll('astro-island')];
      for (const island of all) {
        island.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
        island.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      }
      return all.length;
    });
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0, null, {
      timeout: 30_000,
    });
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all([...scripts].filter((u) => /^https?:/.test(u)).map(gzippedSize));
    return { islands, jsGzip: sizes.reduce((a, b) => a + b, 0) };
  } finally {
    await page.close();
  }
}
