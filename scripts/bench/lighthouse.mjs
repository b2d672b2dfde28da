// Lighthouse runs for the bench: one Chromium for all runs, mobile (Lighthouse's default: Moto G power,
// slow 4G, 4x CPU slowdown) or desktop, and the figures the bench reports, taken from each report.
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromiumFlags, chromiumPath } from '../chromium.mjs';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

export async function startChrome() {
  return chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumFlags });
}

let desktopConfig;
const gzipCache = new Map();

/** gzip -6 size of a script, fetched once (what the budget counts, whatever encoding the server chose). */
export async function gzippedSize(url) {
  if (!gzipCache.has(url)) {
    gzipCache.set(
      url,
      fetch(url, { headers: { 'accept-encoding': 'identity' } }).then(
        async (r) => gzipSync(Buffer.from(await r.arrayBuffer()), { level: 6 }).byteLength,
      ),
    );
  }
  return gzipCache.get(url);
}

/**
 * One Lighthouse run; returns scores and the page-weight figures of the bench. A run Lighthouse itself
 * reports as broken (no trace, no navigation start: it happens on a busy machine) is repeated, twice at most.
 */
export async function measure(chrome, url, { desktop = false } = {}, attempt = 1) {
  desktopConfig ??= (await import('lighthouse/core/config/desktop-config.js')).default;
  const { lhr } = await lighthouse(
    url,
    { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
    desktop ? desktopConfig : undefined,
  );
  if (lhr.runtimeError) {
    if (attempt < 3) {
      process.stderr.write(`[bench] Lighthouse run failed (${lhr.runtimeError.code}); repeating it\n`);
      return measure(chrome, url, { desktop }, attempt + 1);
    }
    throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
  }
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const bytesOf = (types) =>
    requests.filter((r) => types.includes(r.resourceType)).reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  const scripts = [
    ...new Set(requests.filter((r) => r.resourceType === 'Script' && /^https?:/.test(r.url)).map((r) => r.url)),
  ];
  const total = lhr.audits['total-byte-weight']?.numericValue ?? 0;
  const misses = [];
  for (const category of CATEGORIES) {
    const ref = lhr.categories[category];
    if ((ref?.score ?? 0) < 1) {
      const failing = ref.auditRefs.filter((a) => a.weight > 0 && (lhr.audits[a.id]?.score ?? 1) < 1).map((a) => a.id);
      misses.push(`${category}: ${failing.join(', ')}`);
    }
  }
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
    lcpBreakdown: lcpBreakdown(lhr),
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? 0,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? 0,
    totalBytes: total,
    mediaBytes: bytesOf(['Image', 'Media']),
    jsTransfer: bytesOf(['Script']),
    jsGzip: (await Promise.all(scripts.map(gzippedSize))).reduce((a, b) => a + b, 0),
    requests: requests.length,
    misses,
  };
}

/**
 * The LCP element and its phases as Lighthouse's LCP breakdown reports them (from the trace it recorded:
 * first byte, load delay and load time for an image, render delay), or null when it names none.
 */
function lcpBreakdown(lhr) {
  const parts = lhr.audits['lcp-breakdown-insight']?.details?.items ?? [];
  const phases = parts.find((part) => part.type === 'table')?.items ?? [];
  const node = parts.find((part) => part.type === 'node');
  if (!phases.length && !node) return null;
  return {
    element: node ? (node.snippet ?? node.selector ?? '').replace(/\s+/g, ' ').slice(0, 120) : 'unknown',
    phases: Object.fromEntries(phases.map((phase) => [phase.subpart, Math.round(phase.duration)])),
  };
}

/** "first byte 25, load delay 0, ..., render delay 480 · <p class=...>" for a report line. */
export function formatBreakdown({ element, phases }) {
  const names = {
    timeToFirstByte: 'first byte',
    resourceLoadDelay: 'load delay',
    resourceLoadDuration: 'load time',
    elementRenderDelay: 'render delay',
  };
  const parts = Object.entries(names)
    .filter(([key]) => key in phases)
    .map(([key, name]) => `${name} ${phases[key]}`);
  return `${parts.join(', ')} · ${element}`;
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Median of several runs, figure by figure (scores too). */
export function medianOf(runs) {
  const pick = (get) => median(runs.map(get));
  // The breakdown of the run whose LCP is the median, so element and phases belong together.
  const middle = runs.find((r) => r.lcp === pick((x) => x.lcp));
  return {
    lcpBreakdown: middle?.lcpBreakdown ?? null,
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, pick((r) => r.scores[c])])),
    lcp: pick((r) => r.lcp),
    tbt: pick((r) => r.tbt),
    cls: pick((r) => r.cls),
    totalBytes: pick((r) => r.totalBytes),
    mediaBytes: pick((r) => r.mediaBytes),
    jsTransfer: pick((r) => r.jsTransfer),
    jsGzip: pick((r) => r.jsGzip),
    requests: pick((r) => r.requests),
    misses: [...new Set(runs.flatMap((r) => r.misses))],
  };
}
