// Course search figures (npm run bench -- --search-only, node scripts/bench/search.mjs, or as part of the full bench):
//   - over the labelled worker phrases (real catalogue), separately for the tuning part
//     (tests/fixtures/search-phrases.json) and the held-out part (tests/fixtures/search-phrases-holdout.json):
//     recall@1, recall@10, how many put a wrong trade first, and the share of trades not offered answered with
//     nothing (tests/unit/helpers/search-figures.ts, the same code the recall test runs). Goals on the held-out
//     part: recall@1 >= 90%, recall@10 >= 97%, wrong trade first <= 2%, every trade not offered answered honestly.
//     `node scripts/bench/search.mjs --figures` prints only these, in about a second, without a browser;
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

/** The figures over both parts of the labelled phrases, and the real catalogue, from bundled project code. */
async function labelledFigures(dir) {
  const nodeCode = await bundle(
    `import { repositoryCatalogue } from './src/catalogue/index';
     export const { summaries } = repositoryCatalogue();
     export { searchFigures, formatFigures } from './tests/unit/helpers/search-figures';`,
    'node',
  );
  await writeFile(join(dir, 'search.mjs'), nodeCode);
  const { summaries, searchFigures, formatFigures } = await import(pathToFileURL(join(dir, 'search.mjs')).href);
  const read = async (file) => JSON.parse(await readFile(join(PROJECT, 'tests/fixtures', file), 'utf8'));
  const parts = [
    ['tuning', await read('search-phrases.json')],
    ['held out', await read('search-phrases-holdout.json')],
  ];
  return {
    summaries,
    figures: parts.map(([name, phrases]) => {
      const f = searchFigures(summaries, phrases);
      return { name, ...f, text: formatFigures(`Labelled phrases, ${name}`, f) };
    }),
  };
}

export async function searchBench({ scale = 5000, throttle = 4, figuresOnly = false } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'search-bench-'));
  try {
    // Recall, in Node, over the real catalogue.
    const { summaries, figures } = await labelledFigures(dir);
    if (figuresOnly) return { figures };

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
        figures,
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
  const ms = (x) => `${x.toFixed(2)} ms`;
  const labelled = r.figures.map((f) => f.text);
  if (!r.courses) return labelled.join('\n');
  return [
    ...labelled,
    `Course search time (${r.courses} courses, Chromium, CPU ${r.throttle}x slower)`,
    `  per keystroke     p50 ${ms(r.p50)}   p95 ${ms(r.p95)}   max ${ms(r.max)}   (${r.keystrokes} keystrokes)`,
    `  index build       ${ms(r.indexMs)} for ${r.courses} courses, ${ms(r.realIndexMs)} for the real ${r.realCourses} (once, on first search)`,
    `  search code       ${(r.bundleGzip / 1024).toFixed(1)} KB gzip (MiniSearch + src/lib/course-search.ts, minified)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatSearchBench(await searchBench({ figuresOnly: process.argv.includes('--figures') })));
}
