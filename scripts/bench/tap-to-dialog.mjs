#!/usr/bin/env node
// Tap-to-dialog time of the header search on a phone: a 360 px touch screen, the CPU slowed 4x and the network
// at the "slow 4G" profile Lighthouse uses (562.5 ms round trip, 1.4 Mbps down, 0.7 Mbps up). The page is loaded,
// the search icon tapped, and the time from the tap (the pointerdown's time stamp) to the end of the first frame with
// the dialog open is taken
// (median of --runs, fresh cache each run). Needs a running site:
//   node scripts/bench/tap-to-dialog.mjs --url http://localhost:8888 [--path /about] [--runs 5]
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { launchOptions } from '../chromium.mjs';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8888' },
    path: { type: 'string', default: '/about' },
    runs: { type: 'string', default: '5' },
  },
});

const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.4 * 1024 * 1024) / 8,
  uploadThroughput: (0.7 * 1024 * 1024) / 8,
};

/** Milliseconds from the tap on the search icon to the first frame with the dialog open (or null: never opened). */
export async function tapToDialog(browser, url) {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(() => {
      const w = /** @type {any} */ (window);
      document.addEventListener('pointerdown', (event) => (w.__tapAt ??= event.timeStamp), { capture: true });
      // The dialog gets its open attribute when it opens; the frame showing it is painted after the next
      // animation frame (a message posted from there runs once that frame is done).
      new MutationObserver(() => {
        if (w.__openAt || !document.querySelector('dialog.search-modal[open]')) return;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => (w.__openAt ??= performance.now());
          channel.port2.postMessage(null);
        });
      }).observe(document, { subtree: true, attributeFilter: ['open'] });
    });
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.getByRole('button', { name: 'Search qualifications' }).tap();
    const waited = await page
      .waitForFunction(
        () => {
          const w = /** @type {any} */ (window);
          return w.__openAt ? Math.round(w.__openAt - w.__tapAt) : 0;
        },
        null,
        { timeout: 30_000 },
      )
      .catch(() => null);
    return waited ? waited.jsonValue() : null;
  } finally {
    await context.close();
  }
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const browser = await chromium.launch(launchOptions);
  const times = [];
  try {
    for (let run = 0; run < Number(args.runs); run++) {
      times.push(
        await tapToDialog(browser, new URL(args.path, args.url).href).catch((error) => {
          console.error(`run ${run + 1}: ${error.message.split('\n')[0]}`);
          return null;
        }),
      );
    }
  } finally {
    await browser.close();
  }
  const opened = times.filter((t) => t !== null).sort((a, b) => a - b);
  const median = opened.length ? opened[Math.floor(opened.length / 2)] : null;
  console.log(`Header search, tap to dialog (360 px, CPU 4x slower, slow 4G), ${args.path}`);
  console.log(`  runs: ${times.map((t) => (t === null ? 'never' : `${t} ms`)).join(', ')}`);
  console.log(`  median: ${median === null ? 'never opened' : `${median} ms`}`);
}
