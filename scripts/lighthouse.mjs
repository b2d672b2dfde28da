#!/usr/bin/env node
// Lighthouse scores (mobile by default) for the given paths against a running site.
// Usage: node scripts/lighthouse.mjs [--desktop] [--base http://localhost:8888] [--runs 1] path...
// Prints one row per page (median of the runs) and exits 1 when any category is below 100.
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    desktop: { type: 'boolean', default: false },
    base: { type: 'string', default: 'http://localhost:8888' },
    runs: { type: 'string', default: '1' },
  },
});
const paths = positionals.length ? positionals : ['/'];
const runs = Math.max(1, Number(values.runs));
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
const config = values.desktop
  ? (await import('lighthouse/core/config/desktop-config.js')).default
  : undefined;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let failed = false;
const rows = [];
for (const path of paths) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const { lhr } = await lighthouse(values.base + path, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories }, config);
    results.push(lhr);
  }
  const score = (c) => median(results.map((r) => Math.round((r.categories[c]?.score ?? 0) * 100)));
  const metric = (id) => median(results.map((r) => r.audits[id]?.numericValue ?? 0));
  const row = {
    page: path,
    perf: score('performance'), a11y: score('accessibility'), bp: score('best-practices'), seo: score('seo'),
    'LCP ms': Math.round(metric('largest-contentful-paint')),
    'TBT ms': Math.round(metric('total-blocking-time')),
    CLS: Number(metric('cumulative-layout-shift').toFixed(3)),
    'KB': Math.round(metric('total-byte-weight') / 1024),
  };
  for (const r of results) {
    for (const c of categories) {
      if ((r.categories[c]?.score ?? 0) < 1) {
        const misses = Object.values(r.audits).filter((a) => a.score !== null && a.score < 1 && r.categories[c].auditRefs.some((ref) => ref.id === a.id && ref.weight > 0));
        console.error(`${path} ${c}: ${misses.map((a) => a.id).join(', ')}`);
      }
    }
  }
  if ([row.perf, row.a11y, row.bp, row.seo].some((s) => s < 100)) failed = true;
  rows.push(row);
}
chrome.kill();
console.log(`Lighthouse ${values.desktop ? 'desktop' : 'mobile'} (median of ${runs})`);
console.table(rows);
process.exit(failed ? 1 : 0);
