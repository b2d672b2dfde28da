// Full-page screenshots of the given paths at a phone and a desktop width, for a human look.
// Usage: node scripts/screenshots.mjs [baseUrl] [outDir] path...
import { chromium } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { launchOptions } from './chromium.mjs';

const [base = 'http://localhost:8888', out = 'screenshots', ...paths] = process.argv.slice(2);
await mkdir(out, { recursive: true });
const browser = await chromium.launch(launchOptions);
for (const [name, viewport] of [
  ['phone', { width: 360, height: 780 }],
  ['desktop', { width: 1440, height: 900 }],
]) {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
  for (const path of paths.length ? paths : ['/']) {
    await page.goto(base + path, { waitUntil: 'networkidle' });
    // Scroll through once so lazy images and on-scroll effects load, as they would for a reader.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 60));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForLoadState('networkidle');
    const file = `${out}/${name}${path.replace(/\W+/g, '_') || '_'}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await page.close();
}
await browser.close();
