// Course search figures (npm run bench -- --search-only, or as part of the full bench):
//   - recall@1 and recall@10 of src/lib/course-search.ts over tests/fixtures/search-phrases.json (real catalogue);
//   - time of the search function per keystroke in Chromium with 4x CPU slowdown (CDP
//     Emulation.setCPUThrottlingRate), over a catalogue of --scale courses (the real ones plus clearly
//     synthetic ZZZ courses carrying the search terms of a real course of their category): each phrase is
//     typed one character at a time and every prefix searched, as the hero and the header modal do;
//     p50/p95/max, plus the one-off index build on first use.
// Bundles the real module with esbuild (as Vite would), so what is measured is what the islands run.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { PROJECT } from './workspace.mjs';
import { openBrowser } from './after-use.mjs';

const LEVELS = ['Certificate II', 'Certificate III', 'Certificate IV', 'Diploma', 'Advanced Diploma'];
/** Typed in the latency run: free sentences, slang, misspellings and a code. */
const TYPED = [
  'I have 10 years as a carpenter',
  'brickie for 15 years',
  'electrcian',
  'aged care worker',
  'team leader in a warehouse',
  'CPC30220',
  'early childhood educator',
  'I worked as a hairdresser',
];

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function bundle(entry, platform) {
  const result = await build({
    stdin: { contents: entry, resolveDir: PROJECT, loader: 'ts' },
    bundle: true,
    format: platform === 'node' ? 'esm' : 'iife',
    platform,
    minify: platform !== 'node',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** Real catalogue (with terms) plus synthetic courses up to `total`. */
function scaled(summaries, total) {
  const byCategory = new Map();
  for (const course of summaries) byCategory.set(course.category, [...(byCategory.get(course.category) ?? []), course]);
  const categories = [...byCategory.keys()].sort();
  const courses = [...summaries];
  for (let n = 1; courses.length < total; n++) {
    const category = categories[n % categories.length];
    const models = byCategory.get(category);
    const model = models[n % models.length];
    const level = LEVELS[n % LEVELS.length];
    courses.push({
      ...model,
      code: `ZZZ${String(n).padStart(5, '0')}`,
      title: `${level} in Synthetic Qualification ${n} (benchmark only)`,
      level,
      featured: false,
    });
  }
  return courses;
}

export async function searchBench({ scale = 5000, throttle = 4 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'search-bench-'));
  try {
    // Recall, in Node, over the real catalogue.
    const nodeCode = await bundle(
      `export { searchCourses } from './src/lib/course-search';
       export { summaries } from './src/server/catalogue';`,
      'node',
    );
    await writeFile(join(dir, 'search.mjs'), nodeCode);
    const { searchCourses, summaries } = await import(pathToFileURL(join(dir, 'search.mjs')).href);
    const phrases = JSON.parse(await readFile(join(PROJECT, 'tests/fixtures/search-phrases.json'), 'utf8'));
    let at1 = 0;
    let at10 = 0;
    for (const { phrase, code } of phrases) {
      const position = searchCourses(summaries, { search: phrase }).findIndex((c) => c.code === code);
      if (position === 0) at1++;
      if (position >= 0 && position < 10) at10++;
    }

    // Latency, in Chromium, over the scaled catalogue.
    const catalogue = scaled(summaries, scale);
    const browserCode = await bundle(
      `import { searchCourses } from './src/lib/course-search'; window.searchCourses = searchCourses;`,
      'browser',
    );
    const browser = await openBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent('<!doctype html><title>search bench</title>');
      await page.addScriptTag({ content: browserCode });
      await page.evaluate(
        ([courses, real]) => Object.assign(window, { catalogue: courses, real }),
        [catalogue, summaries],
      );
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      const timing = await page.evaluate((typed) => {
        const { searchCourses, catalogue, real } = window;
        let t = performance.now();
        searchCourses(real, { search: 'x' });
        const realIndexMs = performance.now() - t;
        t = performance.now();
        searchCourses(catalogue, { search: 'x' }); // the first search builds the index
        const indexMs = performance.now() - t;
        const keystrokes = [];
        for (const phrase of typed) {
          for (let i = 1; i <= phrase.length; i++) {
            t = performance.now();
            searchCourses(catalogue, { search: phrase.slice(0, i) });
            keystrokes.push(performance.now() - t);
          }
        }
        return { indexMs, realIndexMs, keystrokes };
      }, TYPED);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      const sorted = timing.keystrokes.sort((a, b) => a - b);
      return {
        phrases: phrases.length,
        recallAt1: at1 / phrases.length,
        recallAt10: at10 / phrases.length,
        courses: catalogue.length,
        throttle,
        keystrokes: sorted.length,
        indexMs: timing.indexMs,
        realIndexMs: timing.realIndexMs,
        realCourses: summaries.length,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        max: sorted.at(-1),
        bundleGzip: (await import('node:zlib')).gzipSync(browserCode, { level: 6 }).length,
      };
    } finally {
      await browser.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function formatSearchBench(r) {
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  const ms = (x) => `${x.toFixed(2)} ms`;
  return [
    `Course search (${r.phrases} worker phrases; ${r.courses} courses, Chromium, CPU ${r.throttle}x slower)`,
    `  recall@1          ${pct(r.recallAt1)}`,
    `  recall@10         ${pct(r.recallAt10)}`,
    `  per keystroke     p50 ${ms(r.p50)}   p95 ${ms(r.p95)}   max ${ms(r.max)}   (${r.keystrokes} keystrokes)`,
    `  index build       ${ms(r.indexMs)} for ${r.courses} courses, ${ms(r.realIndexMs)} for the real ${r.realCourses} (once, on first search)`,
    `  search code       ${(r.bundleGzip / 1024).toFixed(1)} KB gzip (MiniSearch + src/lib/course-search.ts, minified)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatSearchBench(await searchBench()));
}
