#!/usr/bin/env node
// npm run bench [-- --port 8870 --runs 3 --requests 200 --concurrency 8 --scale 5000 --no-scale --inquiries 1000000 --records-only --retention-only --search-only --ssr-only --keep]
//
// Builds and serves the site production-like in a throwaway copy of the project (its own build, .env and
// blob store; nothing of a developer's local data is touched), then prints one table:
//   - build time of the site, and of a copy whose catalogue is scaled to 5,000 (synthetic) courses;
//   - for each public page type: Lighthouse mobile and desktop scores (median of --runs), LCP, TBT, CLS,
//     total bytes, bytes before images and video, JS bytes (gzip -6 of every script) and request count;
//   - latency percentiles of the catalogue API, sign-in and a form submit under a bounded local load;
//   - course search recall and time per keystroke (scripts/bench/search.mjs; alone, in seconds, with --search-only).
//   - evidence upload throughput: a 10 MB file in 4 MB chunks through the applicant API (scripts/bench/upload.mjs).
//   - the records at scale (scripts/bench/database.mjs): --inquiries (1,000,000) synthetic inquiries in a
//     throwaway database, inbox pages, searches, dashboard counts and the export cursor (--records-only
//     measures just that, without builds, Lighthouse or load; --inquiries 0 skips it; --full-export also writes
//     the export of all of them as the background function does).
//   - --retention-only: the hourly evidence sweep over 100,000 evidence files (scripts/bench/retention.mjs).
//   - --ssr-only: warm render times of /search and a blog post in the server-rendering function as Netlify
//     builds and packages it (through the production rehearsal, tests/rehearsal/run.mjs --render-runs).
// Exits 1, naming each one, when a budget is broken: Lighthouse mobile 100 in all four categories;
// LCP <= 1,200 ms on mobile (median of the runs; the LCP element and its phases are named for a page over it);
// JS <= 60 KB gzip on any public page, <= 15 KB where the page has no island; <= 300 KB before images
// and video. Not part of `npm test`: the figures depend on the machine (TBT most of all).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeWorkspace } from './bench/workspace.mjs';
import { scaleCatalogue } from './bench/scale-catalogue.mjs';
import { formatBreakdown, measure, medianOf, startChrome } from './bench/lighthouse.mjs';
import { load, summary } from './bench/load.mjs';
import { jsAfterUse, openBrowser } from './bench/after-use.mjs';
import { formatSearchBench, searchBench } from './bench/search.mjs';
import { formatUploadBench, uploadBench } from './bench/upload.mjs';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '8870' },
    runs: { type: 'string', default: '3' },
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8' },
    scale: { type: 'string', default: '5000' },
    'no-scale': { type: 'boolean', default: false },
    inquiries: { type: 'string', default: '1000000' },
    'records-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'search-only': { type: 'boolean', default: false },
    'ssr-only': { type: 'boolean', default: false },
    'full-export': { type: 'boolean', default: false },
    'retention-only': { type: 'boolean', default: false },
  },
});
const PORT = Number(args.port);
const RUNS = Math.max(1, Number(args.runs));
const BASE = `http://localhost:${PORT}`;

/** Page types measured; those answering 404 (the blog before it exists) are skipped. */
const PAGES = [
  ['home', '/'],
  ['content page', '/about'],
  ['how RPL works', '/how-rpl-works'],
  ['FAQ', '/faq'],
  ['courses index', '/courses'],
  ['category', '/category/civil-construction'],
  ['course', '/courses/CPC30220'],
  ['search', '/search?search=diploma'],
  ['contact', '/contact'],
  ['free quote', '/free-quote'],
  ['applicant page', '/apply'],
  ['blog list', '/blog'],
];

const BUDGET = {
  jsIsland: 60 * 1024,
  jsStatic: 15 * 1024,
  beforeMedia: 300 * 1024,
  lcpMobileMs: 1200,
};

const cleanups = [];
const cleanup = async () => {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch(() => {});
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void cleanup().then(() => process.exit(130)));

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

function run(command, argv, { cwd, input, logFile }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd, env: benchEnv(cwd), stdio: ['pipe', 'pipe', 'pipe'] });
    const out = logFile ? createWriteStream(logFile, { flags: 'a' }) : null;
    let text = '';
    for (const stream of [child.stdout, child.stderr])
      stream.on('data', (chunk) => {
        text += chunk;
        out?.write(chunk);
      });
    child.stdin.end(input ?? '');
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(text)
        : reject(new Error(`${command} ${argv.join(' ')} failed (${code}):\n${text.slice(-2000)}`)),
    );
  });
}

function benchEnv(cwd) {
  return {
    ...process.env,
    PATH: `${join(cwd, 'node_modules', '.bin')}:${process.env.PATH}`,
    ASTRO_TELEMETRY_DISABLED: '1',
    BROWSER: 'none',
  };
}

/** Same as `npm run build`: astro build, then the header post-processing. */
async function timedBuild(cwd, logFile) {
  const started = performance.now();
  await run(process.execPath, [join(cwd, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], { cwd, logFile });
  await run(process.execPath, ['scripts/postbuild-headers.mjs'], { cwd, logFile });
  return (performance.now() - started) / 1000;
}

async function portsFree(...ports) {
  for (const port of ports) {
    const free = await new Promise((resolve) => {
      const server = createServer()
        .once('error', () => resolve(false))
        .once('listening', () => server.close(() => resolve(true)));
      server.listen(port);
    });
    if (!free)
      throw new Error(
        `Port ${port} is in use. Choose another with --port (the bench uses it and the next two: the CLI and the local database).`,
      );
  }
}

async function serve(cwd) {
  const logFile = join(cwd, 'bench-serve.log');
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, ['scripts/serve.mjs', '--port', String(PORT)], {
    cwd,
    env: benchEnv(cwd),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  cleanups.push(async () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 1500));
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  });
  const deadline = Date.now() + 8 * 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server stopped; see ${logFile}`);
    try {
      if ((await fetch(`${BASE}/`)).status === 200) return logFile;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error(`The server did not answer within 8 minutes; see ${logFile}`);
}

/**
 * A page "needs an island" when one hydrates without the visitor doing anything (client:load, idle,
 * visible, only). Islands on client:interaction (the header search on every page) load no code until
 * used, so a page with only those gets the 15 KB budget for what it loads up front.
 */
function islandsOf(html) {
  const modes = [...html.matchAll(/<astro-island\b[^>]*?\sclient="([a-z]+)"/g)].map((m) => m[1]);
  const eager = [...new Set(modes.filter((mode) => mode !== 'interaction'))];
  return { island: eager.length > 0, hydration: eager.length ? eager.join('+') : modes.length ? 'on use' : 'none' };
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const ms = (value) => String(Math.round(value));

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A new staff account in the workspace's store (made with the users CLI). */
async function createStaff(dir) {
  const account = {
    username: `bench-${randomBytes(4).toString('hex')}`,
    password: randomBytes(18).toString('base64url'),
  };
  await run(
    process.execPath,
    [
      'scripts/users.ts',
      'create',
      account.username,
      '--first-name',
      'Bench',
      '--last-name',
      'Runner',
      '--password-stdin',
    ],
    { cwd: dir, input: `${account.password}\n` },
  );
  return account;
}

/**
 * The records at scale (scripts/bench/database.mjs): --inquiries synthetic inquiries in a throwaway database,
 * inbox pages, searches, the dashboard's counts and the export cursor, timed through the site's own code.
 * Through jiti: the store modules read the form schemas and the catalogue file, which plain Node cannot load as
 * they are written.
 */
async function records() {
  const jiti = new URL('../node_modules/jiti/lib/jiti-cli.mjs', import.meta.url).pathname;
  const script = new URL('./bench/database.mjs', import.meta.url).pathname;
  log(`records: ${Number(args.inquiries).toLocaleString('en-AU')} synthetic inquiries in a throwaway database`);
  return new Promise((resolve) => {
    const extra = args['full-export'] ? ['--full-export'] : [];
    const child = spawn(process.execPath, [jiti, script, '--inquiries', args.inquiries, ...extra], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) => resolve({ report: out.trim(), ok: code === 0 }));
  });
}

/**
 * --ssr-only: the production build's server rendering, warm: the rehearsal builds as Netlify does, unpacks the
 * SSR function's zip and renders each page 1 + --requests/10 times in one process; the first render of each is
 * the cold one and is left out.
 */
async function ssrOnly() {
  const runs = Math.max(5, Math.round(Number(args.requests) / 10));
  const out = join(process.env.TMPDIR ?? '/tmp', `rpl-ssr-bench-${process.pid}.json`);
  const script = new URL('../tests/rehearsal/run.mjs', import.meta.url).pathname;
  const code = await new Promise((resolve) => {
    spawn(process.execPath, [script, '--render-runs', String(runs), '--out', out], { stdio: 'inherit' }).on(
      'exit',
      resolve,
    );
  });
  const { readFile, rm } = await import('node:fs/promises');
  const { renders = [] } = JSON.parse(await readFile(out, 'utf8').catch(() => '{}'));
  await rm(out, { force: true });
  console.log('Server rendering, warm (production build, the SSR function from its zip)');
  for (const render of renders)
    console.log(
      `  ${render.path.padEnd(32)} median ${render.medianMs} ms   p90 ${render.p90Ms} ms   (${render.runs} renders)`,
    );
  process.exitCode = code === 0 && renders.length ? 0 : 1;
}

/** --retention-only: the evidence sweep at scale, through jiti as the records bench is. */
async function retentionOnly() {
  const jiti = new URL('../node_modules/jiti/lib/jiti-cli.mjs', import.meta.url).pathname;
  const script = new URL('./bench/retention.mjs', import.meta.url).pathname;
  const code = await new Promise((resolve) => {
    spawn(process.execPath, [jiti, script], { stdio: 'inherit' }).on('exit', resolve);
  });
  process.exitCode = code === 0 ? 0 : 1;
}

/** --records-only: just the records bench (no builds, Lighthouse or load). */
async function recordsOnly() {
  const { report, ok } = await records();
  console.log(report);
  process.exitCode = ok ? 0 : 1;
}

async function main() {
  if (args['search-only']) {
    // Seconds, no build or server: recall and per-keystroke search time (scripts/bench/search.mjs).
    console.log(formatSearchBench(await searchBench({ scale: Number(args.scale) })));
    return;
  }
  if (args['records-only']) return recordsOnly();
  if (args['ssr-only']) return ssrOnly();
  if (args['retention-only']) return retentionOnly();
  await portsFree(PORT, PORT + 1, PORT + 2);
  const startedAt = new Date();

  log('copying the project to a throwaway workspace');
  const site = await makeWorkspace('site');
  if (!args.keep) cleanups.unshift(site.remove);
  log(`building the site (${site.dir})`);
  const buildSeconds = await timedBuild(site.dir, join(site.dir, 'bench-build.log'));

  let scaled = null;
  if (!args['no-scale']) {
    const copy = await makeWorkspace('scaled');
    if (!args.keep) cleanups.unshift(copy.remove);
    const courses = await scaleCatalogue(copy.dir, Number(args.scale));
    log(`building a copy with ${courses} courses (${copy.dir})`);
    const seconds = await timedBuild(copy.dir, join(copy.dir, 'bench-build.log'));
    const pages = (await run('find', ['dist', '-name', '*.html'], { cwd: copy.dir })).trim().split('\n').length;
    scaled = { courses, seconds, pages };
    if (!args.keep) {
      cleanups.splice(cleanups.indexOf(copy.remove), 1);
      await copy.remove();
    }
  }

  log(`serving the site on ${BASE} (the CLI on ${PORT + 1})`);
  await serve(site.dir);

  const pages = [];
  for (const [type, path] of PAGES) {
    const response = await fetch(BASE + path);
    const html = await response.text();
    if (response.status === 404) {
      log(`skipping ${path} (404)`);
      continue;
    }
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    pages.push({ type, path, ...islandsOf(html) });
  }
  const blogs = await fetch(`${BASE}/api/blogs`)
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  const slug = blogs?.blogs?.[0]?.slug;
  if (slug) {
    const html = await (await fetch(`${BASE}/blog/${slug}`)).text();
    pages.push({ type: 'blog post', path: `/blog/${slug}`, ...islandsOf(html) });
  }

  const chrome = await startChrome();
  cleanups.push(async () => chrome.kill());
  for (const page of pages) {
    for (const mode of ['mobile', 'desktop']) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        log(`Lighthouse ${mode} ${page.path} (${i + 1}/${RUNS})`);
        runs.push(await measure(chrome, BASE + page.path, { desktop: mode === 'desktop' }));
      }
      page[mode] = medianOf(runs);
    }
  }

  // What a visitor downloads once they use the page (every island woken); reported, not budgeted.
  const browser = await openBrowser();
  cleanups.push(async () => browser.close());
  for (const page of pages) {
    log(`JS after use ${page.path}`);
    page.afterUse = await jsAfterUse(browser, BASE + page.path);
  }

  // Latency under a bounded load, against the bench's own server and store.
  const total = Number(args.requests);
  const concurrency = Number(args.concurrency);
  const account = await createStaff(site.dir);
  const terms = [
    'diploma',
    'cert 3',
    'carpentry',
    'BSB50120',
    'leadership',
    'health',
    'construction',
    'cert iv business',
    'xyz',
    'early childhood',
  ];
  const post = (path, body) => [
    `${BASE}${path}`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  ];
  const contact = (i, firstName, lastName, message) =>
    post('/api/email/contact', {
      firstName,
      lastName: `${lastName}${i}`,
      email: `${firstName.toLowerCase()}${i}@example.com`,
      phone: '0400 000 000',
      message,
      website: '',
      elapsedMs: 5000,
    });
  log(`load: ${total} requests per endpoint, ${concurrency} at a time (after 8 unmeasured warm-up requests each)`);
  const warm = (make) => load({ total: 8, concurrency: 4, make });
  await warm((i) => [`${BASE}/api/courses?search=${terms[i % terms.length]}`]);
  await warm(() => post('/api/auth/login', account));
  await warm((i) => contact(i, 'Warm', 'Up', 'Warm-up.'));
  const latency = [
    [
      'GET /api/courses?search=…',
      await load({
        total,
        concurrency,
        make: (i) => [`${BASE}/api/courses?search=${encodeURIComponent(terms[i % terms.length])}`],
      }),
    ],
    [
      'POST /api/auth/login (right password)',
      await load({ total, concurrency, make: () => post('/api/auth/login', account) }),
    ],
    [
      'POST /api/auth/login (unknown users)',
      await load({
        total: Math.ceil(total / 2),
        concurrency,
        make: (i) =>
          post('/api/auth/login', {
            username: `nobody-${i}-${randomBytes(3).toString('hex')}`,
            password: 'not the password',
          }),
      }),
    ],
    [
      'POST /api/email/contact',
      await load({
        total,
        concurrency,
        make: (i) => contact(i, 'Bench', 'Run', 'Load test message from npm run bench.'),
      }),
    ],
  ];
  log('evidence upload: a 10 MB file in 4 MB chunks');
  const upload = await uploadBench(BASE).catch((error) => ({ error: String(error) }));
  const failures = [];
  await cleanup();
  log('course search: recall and time per keystroke');
  const search = await searchBench({ scale: Number(args.scale) });

  // ---------- Report ----------
  const rows = pages.map((p) => {
    const m = p.mobile;
    const d = p.desktop;
    const before = m.totalBytes - m.mediaBytes;
    const jsBudget = p.island ? BUDGET.jsIsland : BUDGET.jsStatic;
    for (const [category, score] of Object.entries(m.scores))
      if (score < 100)
        failures.push(`Lighthouse mobile ${category} ${score} < 100 on ${p.path} (${m.misses.join('; ')})`);
    if (m.jsGzip > jsBudget)
      failures.push(`JS ${kb(m.jsGzip)} KB gzip > ${kb(jsBudget)} KB on ${p.path}${p.island ? '' : ' (no island)'}`);
    if (before > BUDGET.beforeMedia) failures.push(`${kb(before)} KB before images and video > 300 KB on ${p.path}`);
    if (m.lcp > BUDGET.lcpMobileMs)
      failures.push(
        `LCP mobile ${ms(m.lcp)} ms > ${BUDGET.lcpMobileMs} ms on ${p.path} (${m.lcpBreakdown ? formatBreakdown(m.lcpBreakdown) : 'no LCP breakdown reported'})`,
      );
    return [
      `${p.type} ${p.path}`,
      Object.values(m.scores).join('/'),
      Object.values(d.scores).join('/'),
      `${ms(m.lcp)}/${ms(d.lcp)}`,
      `${ms(m.tbt)}/${ms(d.tbt)}`,
      `${m.cls.toFixed(3)}/${d.cls.toFixed(3)}`,
      kb(m.totalBytes),
      kb(before),
      p.hydration,
      `${kb(m.jsGzip)}/${kb(jsBudget).replace('.0', '')}`,
      kb(m.jsTransfer),
      p.afterUse.islands ? kb(p.afterUse.jsGzip) : '-',
      m.requests,
    ];
  });

  const out = [];
  out.push(
    `RPL Pathways bench, ${startedAt.toISOString()}, Node ${process.version}, ${RUNS} Lighthouse runs per mode (median)`,
  );
  out.push('');
  out.push(
    table(
      ['Build', 'seconds', 'courses', 'pages'],
      [
        ['site (npm run build)', buildSeconds.toFixed(1), 163, ''],
        ...(scaled ? [[`scaled catalogue`, scaled.seconds.toFixed(1), scaled.courses, scaled.pages]] : []),
      ],
    ),
  );
  out.push('');
  out.push(
    table(
      [
        'Page',
        'mobile p/a/bp/seo',
        'desktop p/a/bp/seo',
        'LCP ms m/d',
        'TBT ms m/d',
        'CLS m/d',
        'total KB',
        'before media KB',
        'islands',
        'JS gzip KB/budget',
        'JS sent KB',
        'JS after use KB',
        'requests',
      ],
      rows,
    ),
  );
  out.push(
    '(m/d = mobile/desktop; bytes and requests from the mobile runs; JS gzip = gzip -6 of every script the page loads before any interaction, JS sent = as transferred (brotli); JS after use = gzip of every script once every island of the page has been woken, not budgeted; islands = how islands hydrate without interaction)',
  );
  out.push('');
  out.push(
    table(
      ['Endpoint (bounded load)', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'req/s', 'statuses'],
      latency.map(([name, result]) => {
        const s = summary(result);
        return [
          name,
          result.latencies.length,
          ms(s.p50),
          ms(s.p95),
          ms(s.p99),
          ms(s.max),
          s.rps.toFixed(1),
          s.statuses,
        ];
      }),
    ),
  );
  out.push(`(concurrency ${concurrency}; the local Netlify CLI, one process, on this machine)`);
  out.push('');
  out.push(formatSearchBench(search));
  out.push('');
  out.push(upload.error ? `Evidence upload: failed (${upload.error})` : formatUploadBench(upload));
  out.push('');
  if (Number(args.inquiries) > 0) {
    const { report, ok } = await records();
    out.push(report, '');
    if (!ok) failures.push('records: over budget (see the records table)');
  }
  out.push(
    failures.length
      ? `BUDGETS BROKEN (${failures.length}):\n${failures.map((f) => `  - ${f}`).join('\n')}`
      : 'All budgets met: Lighthouse mobile 100/100/100/100, LCP <= 1,200 ms on mobile, JS <= 60 KB gzip (<= 15 KB without islands), <= 300 KB before images and video.',
  );
  console.log(out.join('\n'));
  process.exitCode = failures.length ? 1 : 0;
}

main().catch(async (error) => {
  await cleanup();
  console.error(`[bench] ${error.stack ?? error}`);
  process.exit(2);
});
