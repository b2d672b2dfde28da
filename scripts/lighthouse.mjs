#!/usr/bin/env node
// Lighthouse scores (mobile by default) for the given paths against a running site, with the bench's
// runner (scripts/bench/lighthouse.mjs).
// Usage: node scripts/lighthouse.mjs [--desktop] [--base http://localhost:8888] [--runs 1] path...
// Prints one row per page (median of the runs), then each page's LCP element and its phases, and exits 1
// when any category is below 100.
import { parseArgs } from 'node:util';
import { CATEGORIES, formatBreakdown, measure, medianOf, startChrome } from './bench/lighthouse.mjs';

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
const chrome = await startChrome();
let failed = false;
const rows = [];
const breakdowns = [];
try {
  for (const path of paths) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(chrome, values.base + path, { desktop: values.desktop }));
    const median = medianOf(results);
    for (const miss of median.misses) console.error(`${path} ${miss}`);
    if (CATEGORIES.some((category) => median.scores[category] < 100)) failed = true;
    rows.push({
      page: path,
      perf: median.scores.performance,
      a11y: median.scores.accessibility,
      bp: median.scores['best-practices'],
      seo: median.scores.seo,
      'LCP ms': Math.round(median.lcp),
      'TBT ms': Math.round(median.tbt),
      CLS: Number(median.cls.toFixed(3)),
      KB: Math.round(median.totalBytes / 1024),
    });
    if (median.lcpBreakdown) breakdowns.push(`${path}: ${formatBreakdown(median.lcpBreakdown)}`);
  }
} finally {
  chrome.kill();
}
console.log(`Lighthouse ${values.desktop ? 'desktop' : 'mobile'} (median of ${runs})`);
console.table(rows);
console.log(`LCP element and phases (ms, of the median run):\n${breakdowns.join('\n')}`);
process.exit(failed ? 1 : 0);
