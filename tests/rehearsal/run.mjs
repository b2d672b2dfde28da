#!/usr/bin/env node
// The production rehearsal: builds the site the way a Git deploy on Netlify builds it, then runs every function
// from its zip, unpacked outside the repository, against a local blob server and a local database with the
// project's migrations applied, and checks what a deploy would show:
//   - every function imports from its own zip (nothing falls back to the repository's node_modules);
//   - every API route of docs/routes.md answers a smoke call without a 5xx: anonymously (a staff route: 401),
//     with an owner's token (a staff list: 200) and with one bad input (a bad body: a 4xx);
//   - every server-rendered page answers as it should (/search with its island's markup, the blog, a post);
//   - each scheduled function runs once without error, and the deploy events are kept;
//   - the server renders with React's production build;
//   - the header rules keep every page's headers within a size proxies accept.
// Part of `npm test` (scripts/test-all.sh); alone: node tests/rehearsal/run.mjs [--keep] [--out file.json].
// Prints one line per failed check and "rehearsal: N passed, N failed"; the JSON file has every check.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { link, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import extract from 'extract-zip';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import pg from 'pg';
import { makeWorkspace } from '../../scripts/bench/workspace.mjs';
import { startLocalDatabase } from '../../scripts/local/database.mjs';

const { values: args } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    out: { type: 'string' },
    // The bench's warm render times (scripts/bench.mjs --ssr): each page rendered this many more times in one warm
    // function process; the figures go to the JSON file as `renders`.
    'render-runs': { type: 'string', default: '0' },
  },
});
const root = new URL('../..', import.meta.url).pathname;
const JWT_SECRET = 'rehearsal-secret-that-is-long-enough-0123456789abcdef';
const OWNER = { username: 'rehearsal-owner', password: 'rehearsal owner password, long enough' };
const log = (line) => process.stderr.write(`${line}\n`);
const checks = [];
let renderFigures = [];
const check = (name, ok, detail = '') => checks.push({ name, ok: Boolean(ok), detail });
const cleanups = [];

function run(command, argv, options) {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output = `${output}${chunk}`.slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/* ---------- 1. build as Netlify builds: production context, a bare environment ---------- */

/**
 * A copy of a folder made of hard links (seconds for node_modules, no space): the build's file tracer then finds
 * every package inside the copy, as a Git deploy's fresh install has it, where a link to the repository's folder
 * would make it trace paths outside the project.
 */
async function hardLinkTree(from, to) {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await hardLinkTree(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else await link(source, target);
  }
}

log('rehearsal: building the site as a Git deploy builds it (production context, bare environment)...');
const workspace = await makeWorkspace('rehearsal');
if (!args.keep) cleanups.push(workspace.remove);
await rm(join(workspace.dir, 'node_modules'));
await hardLinkTree(join(root, 'node_modules'), join(workspace.dir, 'node_modules'));
const started = Date.now();
const netlify = join(root, 'node_modules/.bin/netlify');
const build = await run(netlify, ['build', '--offline', '--context', 'production'], {
  cwd: workspace.dir,
  // Only what any machine has: no local secrets, no local-only variables, no NODE_ENV.
  env: {
    PATH: process.env.PATH,
    HOME: join(workspace.dir, '.home'),
    CI: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
    NETLIFY_SITE_ID: '',
  },
});
check('the production build succeeds', build.code === 0, build.code === 0 ? '' : build.output.slice(-3000));
log(`rehearsal: built in ${Math.round((Date.now() - started) / 1000)} s`);

async function finish() {
  const passed = checks.filter((c) => c.ok).length;
  const failed = checks.length - passed;
  for (const c of checks.filter((c) => !c.ok))
    log(`  FAILED: ${c.name}${c.detail ? `\n    ${c.detail.replace(/\n/g, '\n    ')}` : ''}`);
  if (args.out) {
    await mkdir(join(args.out, '..'), { recursive: true });
    await writeFile(args.out, JSON.stringify({ passed, failed, checks, renders: renderFigures }, null, 2));
  }
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  console.log(`rehearsal: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
if (build.code !== 0) await finish();

/* ---------- 2. every function's zip, unpacked outside the repository ---------- */

const built = join(workspace.dir, '.netlify', 'functions');
const manifest = JSON.parse(await readFile(join(built, 'manifest.json'), 'utf8'));
const unpacked = await mkdtemp(join(tmpdir(), 'rpl-rehearsal-functions-'));
if (!args.keep) cleanups.push(() => rm(unpacked, { recursive: true, force: true }));
const functions = new Map();
for (const fn of manifest.functions) {
  const dir = join(unpacked, fn.name);
  await extract(join(built, basename(fn.path)), { dir });
  // The entry point names the module the platform loads.
  const entry = await readFile(join(dir, '___netlify-entry-point.mjs'), 'utf8');
  const module = /getLambdaHandler\('\.\/([^']+)'\)/.exec(entry)?.[1];
  check(`${fn.name}: its zip names the module the platform loads`, module, entry.slice(0, 300));
  functions.set(fn.name, { ...fn, dir, module, calls: [] });
}

/* ---------- 3. the platform's stores: Blobs and the database, empty, with the migrations applied ---------- */

const blobsDir = await mkdtemp(join(tmpdir(), 'rpl-rehearsal-blobs-'));
const dbDir = await mkdtemp(join(tmpdir(), 'rpl-rehearsal-db-'));
cleanups.push(() => rm(blobsDir, { recursive: true, force: true }));
cleanups.push(() => rm(dbDir, { recursive: true, force: true }));
const token = 'rehearsal-blobs-token';
const blobs = new BlobsServer({ directory: blobsDir, token });
const { port } = await blobs.start();
cleanups.push(() => blobs.stop());
const database = await startLocalDatabase({
  dir: dbDir,
  migrations: join(root, 'netlify/database/migrations'),
  log: () => {},
});
cleanups.push(() => database.close());
const edgeURL = `http://127.0.0.1:${port}`;

// The platform in front of the functions, for the calls a function makes to the site itself (the inbox starting
// the background export): it takes the call (202) and the runner runs that function afterwards.
const backgroundCalls = [];
const platform = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const name = /^\/\.netlify\/functions\/([\w-]+)$/.exec(request.url ?? '')?.[1];
    if (request.method === 'POST' && name) {
      backgroundCalls.push({ name, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 202;
    } else response.statusCode = 404;
    response.end();
  });
});
await new Promise((resolve) => platform.listen(0, '127.0.0.1', resolve));
cleanups.push(() => new Promise((resolve) => platform.close(resolve)));
const SITE = `http://127.0.0.1:${platform.address().port}`;
const blobsContext = {
  edgeURL,
  uncachedEdgeURL: edgeURL,
  token,
  siteID: 'rehearsal-site',
  deployID: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  primaryRegion: 'us-east-2',
};

// The first owner, made with the site's own code (the users command does the same on a deployed site).
{
  const { poolDatabase, setDatabase } = await import('../../src/platform/database.ts');
  const { createUser } = await import('../../src/server/users.ts');
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  setDatabase(poolDatabase(pool));
  setEnvironmentContext(blobsContext);
  await createUser({ ...OWNER, firstName: 'Rehearsal', lastName: 'Owner', role: 'admin' });
  setDatabase(null);
  await pool.end();
}

/** What a function sees of the platform in production: its stores and the variables an owner sets. */
const functionEnv = {
  PATH: process.env.PATH,
  NETLIFY_DB_URL: database.url,
  NETLIFY_DB_DRIVER: 'server',
  NETLIFY_BLOBS_CONTEXT: Buffer.from(JSON.stringify(blobsContext)).toString('base64'),
  JWT_SECRET,
  URL: SITE,
  SITE_URL: SITE,
  CONTEXT: 'production',
};

/** Runs one function's calls in a process of its own, inside its unpacked folder. */
async function callFunction(name, calls) {
  const fn = functions.get(name);
  if (!fn?.module) return { imported: false, error: `no function ${name}`, answers: [] };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'tests/rehearsal/worker.mjs'), fn.dir, fn.module], {
      cwd: fn.dir,
      env: functionEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err = `${err}${chunk}`.slice(-4000);
    });
    child.on('exit', (code, signal) => {
      try {
        resolve({ ...JSON.parse(out.trim().split('\n').pop()), log: err });
      } catch {
        const ended = signal ? `signal ${signal}` : `exit code ${code}`;
        resolve({
          imported: false,
          error: `the function process ended (${ended}) without an answer (${out.length} bytes out): ${err.trim()}`,
          answers: [],
        });
      }
    });
    child.stdin.end(JSON.stringify({ calls }));
  });
}

/** The function whose routes match a path, with the path's parameters. */
function routeOf(path) {
  for (const fn of functions.values()) {
    if (fn.name === 'ssr') continue;
    for (const route of fn.routes ?? []) {
      const names = [...route.pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
      if (route.literal !== undefined ? route.literal === path : new RegExp(route.expression).test(path)) {
        const values = route.literal !== undefined ? [] : new RegExp(route.expression).exec(path).slice(1);
        return { fn: fn.name, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(values[i])])) };
      }
    }
  }
  return null;
}

const call = (label, method, path, { auth, body, type } = {}) => ({
  label,
  method,
  url: `${SITE}${path}`,
  headers: {
    ...(auth ? { authorization: `Bearer ${auth}` } : {}),
    ...(body !== undefined ? { 'content-type': type ?? 'application/json' } : {}),
    'x-nf-client-connection-ip': '203.0.113.7',
  },
  ...(body !== undefined ? { body } : {}),
  params: routeOf(path.split('?')[0])?.params ?? {},
});

/* ---------- 4. sign in, and a post for the blog pages ---------- */

const login = await callFunction('auth-login', [
  call('sign in', 'POST', '/api/auth/login', { body: JSON.stringify(OWNER) }),
]);
const ownerToken = (() => {
  try {
    return JSON.parse(login.answers[0]?.body ?? '{}').token;
  } catch {
    return undefined;
  }
})();
check(
  'auth-login: the owner signs in from the zip',
  login.imported && ownerToken,
  login.error ?? login.answers[0]?.body,
);

// A second session for the routes that end sessions (logout), so the owner's stays valid for the others.
const spare = await callFunction('auth-login', [
  call('sign in again', 'POST', '/api/auth/login', { body: JSON.stringify(OWNER) }),
]);
const spareToken = (() => {
  try {
    return JSON.parse(spare.answers[0]?.body ?? '{}').token;
  } catch {
    return undefined;
  }
})();

const post = await callFunction('blogs', [
  call('a post', 'POST', '/api/blogs', {
    auth: ownerToken,
    body: JSON.stringify({
      title: 'Rehearsal post',
      excerpt: 'Written by the production rehearsal.',
      content: '<p>A post the rehearsal reads back.</p>',
      isPublished: true,
    }),
  }),
]);
const postSlug = (() => {
  try {
    return JSON.parse(post.answers[0]?.body ?? '{}').blog?.slug;
  } catch {
    return undefined;
  }
})();
check('blogs: the owner publishes a post', postSlug, post.error ?? post.answers[0]?.body);

/* ---------- 5. every documented API route: anonymous, owner, bad input ---------- */

const routesDoc = await readFile(join(root, 'docs/routes.md'), 'utf8');
const SAMPLES = new Map([
  ['slug', 'civil-construction'],
  ['code', 'CPC30220'],
  ['id', '20990101T000000000Z-00000000'],
  ['username', 'nobody-here'],
  ['uploadId', '0'.repeat(32)],
  ['fileId', '0'.repeat(32)],
  ['itemId', 'general'],
  ['n', '0'],
  ['file', `${'0'.repeat(32)}.webp`],
]);
const documented = [...routesDoc.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `(\/api\/[^`]+)` \|/gm)].map(
  ([, method, path]) => ({ method, path: path.split('?')[0] }),
);
check('docs/routes.md lists the API routes', documented.length > 50, `${documented.length} found`);
const fill = (path) =>
  path.replace(/\{(\w+)\}/g, (_, name) => {
    // A blog route's {slug} is the post just made; other ids are ones that do not exist.
    if (name === 'slug' && path.startsWith('/api/blogs')) return postSlug ?? 'no-such-post';
    if (name === 'id' && (path.startsWith('/api/blogs') || path.includes('inquiry-exports'))) return '0'.repeat(32);
    if (name === 'id' && path.startsWith('/api/admin/me/sessions')) return '00000000-0000-4000-8000-000000000000';
    return SAMPLES.get(name) ?? 'x';
  });
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const planned = [];
for (const { method, path } of documented) {
  const filled = fill(path);
  const target = routeOf(filled);
  if (!target) {
    check(`${method} ${path}: a function answers it`, false, `no route of any function matches ${filled}`);
    continue;
  }
  const staff = filled.startsWith('/api/admin/') || filled.startsWith('/api/blogs/admin') || filled === '/api/uploads';
  const entry = { method, path, staff, fn: target.fn, labels: [] };
  const fn = functions.get(target.fn);
  const add = (label, request) => {
    fn.calls.push({ ...request, label: `${method} ${path} ${label}` });
    entry.labels.push(`${method} ${path} ${label}`);
  };
  add('anonymous', call('', method, filled, WITH_BODY.has(method) ? { body: '{}' } : {}));
  // Signing out ends the session it is called with: those calls use the spare one.
  const auth = /\/api\/auth\/logout/.test(filled) ? spareToken : ownerToken;
  add('owner', call('', method, filled, { auth, ...(WITH_BODY.has(method) ? { body: '{}' } : {}) }));
  add(
    'bad input',
    WITH_BODY.has(method)
      ? call('', method, filled, { auth, body: '{"unfinished": ' })
      : call('', method, `${filled}?limit=-1&offset=x&status=%00&page=0`, { auth }),
  );
  planned.push(entry);
}

/* ---------- 6. server-rendered pages and scheduled functions ---------- */

const ssr = functions.get('ssr');
const pages = [
  ['/search?search=carpenter', 200, /<astro-island/],
  ['/blog', 200, /Rehearsal post/],
  [`/blog/${postSlug ?? 'missing'}`, 200, /A post the rehearsal reads back/],
  ['/blog/no-such-post', 404, /not found/i],
  ['/rss.xml', 200, /<rss/],
  ['/sitemap-blog.xml', 200, /<urlset/],
];
ssr.calls.push(...pages.map(([path]) => call(`page ${path}`, 'GET', path)));
const RENDERED = ['/search?search=carpenter', `/blog/${postSlug ?? 'missing'}`];
const renderRuns = Number(args['render-runs']);
for (let run = 1; run <= renderRuns; run++)
  ssr.calls.push(...RENDERED.map((path) => call(`warm ${path} #${run}`, 'GET', path)));
const scheduled = manifest.functions.filter((fn) => fn.schedule).map((fn) => fn.name);
for (const name of scheduled)
  functions.get(name).calls.push(
    call(`scheduled run`, 'POST', `/.netlify/functions/${name}`, {
      body: JSON.stringify({ next_run: new Date(Date.now() + 60_000).toISOString() }),
    }),
  );
functions.get('inquiry-export-background')?.calls.push(
  call('an export nobody queued', 'POST', '/.netlify/functions/inquiry-export-background', {
    auth: ownerToken,
    body: JSON.stringify({ id: '0'.repeat(32) }),
  }),
);

// The deploy events Netlify sends the site (a production build starting, failing, going live).
const deployEvent = (id, state, errorMessage = null) =>
  JSON.stringify({
    deploy: { id, siteId: 'rehearsal-site', state, errorMessage, context: 'production', branch: 'main' },
    site: { id: 'rehearsal-site', name: 'rehearsal', url: SITE },
  });
const deployEvents = [
  ['deployBuilding', deployEvent('aa11', 'building')],
  ['deployFailed', deployEvent('aa11', 'error', 'Build script returned non-zero exit code: 2')],
  ['deploySucceeded', deployEvent('bb22', 'ready')],
];
functions
  .get('deploy-events')
  ?.calls.push(...deployEvents.map(([event, body]) => ({ label: `event ${event}`, event, body })));

/* ---------- 7. run every function ---------- */

log(`rehearsal: calling ${functions.size} functions from their zips...`);
const results = new Map();
const queue = [...functions.values()];
await Promise.all(
  [1, 2].map(async () => {
    for (let fn = queue.shift(); fn; fn = queue.shift()) results.set(fn.name, await callFunction(fn.name, fn.calls));
  }),
);

// The background functions the others started, run as the platform would after its 202.
for (const background of backgroundCalls) {
  const result = await callFunction(background.name, [
    {
      label: 'started by another function',
      method: 'POST',
      url: `${SITE}/.netlify/functions/${background.name}`,
      headers: Object.fromEntries(
        Object.entries(background.headers).filter(([name]) => ['authorization', 'content-type'].includes(name)),
      ),
      body: background.body,
      params: {},
    },
  ]);
  const previous = results.get(background.name);
  results.set(background.name, { ...result, answers: [...(previous?.answers ?? []), ...result.answers] });
}
check(
  'the inbox starts the background export through the platform',
  backgroundCalls.some((c) => c.name === 'inquiry-export-background'),
  `${backgroundCalls.length} calls`,
);

for (const [name, result] of results) {
  check(`${name}: imports from its zip`, result.imported, result.error ?? '');
  for (const answer of result.answers) {
    const ok = answer.status >= 100 && answer.status < 500;
    check(
      `${name}: ${answer.label} answers without a server error`,
      ok,
      ok
        ? ''
        : `status ${answer.status} ${answer.error ?? ''} ${answer.body.slice(0, 300)}\n${result.log ?? ''}`.trim(),
    );
  }
}
const BODILESS = new Set([
  '/api/upload/image',
  '/api/blogs/{slug}/view',
  '/api/auth/logout',
  '/api/auth/logout-everywhere',
  '/api/blogs/admin/publish-due',
  '/api/admin/inquiry-exports',
  '/api/admin/applicants/{id}/revoke',
]);
const answerOf = (fn, label) => results.get(fn)?.answers.find((a) => a.label === label);
for (const entry of planned) {
  const anonymous = answerOf(entry.fn, entry.labels[0]);
  const owner = answerOf(entry.fn, entry.labels[1]);
  const bad = answerOf(entry.fn, entry.labels[2]);
  if (entry.staff)
    check(
      `${entry.method} ${entry.path}: refuses an anonymous call (401)`,
      anonymous?.status === 401,
      `status ${anonymous?.status}`,
    );
  if (entry.staff && entry.method === 'GET' && !entry.path.includes('{'))
    check(
      `${entry.method} ${entry.path}: answers the owner (200)`,
      owner?.status === 200,
      `status ${owner?.status} ${owner?.body.slice(0, 200)}`,
    );
  // The view beacon and the sign-outs read no body at all; the image upload takes bytes, not JSON.
  if (WITH_BODY.has(entry.method) && !BODILESS.has(entry.path))
    check(
      `${entry.method} ${entry.path}: refuses a broken body with a 4xx`,
      bad && bad.status >= 400 && bad.status < 500,
      `status ${bad?.status} ${bad?.body.slice(0, 200)}`,
    );
}
for (const [path, status, pattern] of pages) {
  const answer = answerOf('ssr', `page ${path}`);
  check(
    `page ${path}: ${status}${pattern ? ` with ${pattern}` : ''}`,
    answer?.status === status && pattern.test(answer.body),
    `status ${answer?.status} ${answer?.error ?? ''} ${answer?.body.slice(0, 300) ?? ''}`,
  );
}
for (const name of scheduled) {
  const answer = answerOf(name, 'scheduled run');
  check(
    `${name}: a scheduled run ends without error`,
    answer && !answer.error && answer.status < 500,
    `${answer?.status} ${answer?.error ?? ''}`,
  );
}

for (const [event] of deployEvents) {
  const answer = answerOf('deploy-events', `event ${event}`);
  check(`deploy-events: ${event} is kept without error`, answer && !answer.error, `${answer?.error ?? 'not run'}`);
}
{
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query('SELECT deploy_id, state FROM deploy_events ORDER BY id');
  await client.end();
  check(
    'deploy-events: the three production events are kept',
    rows.map((row) => `${row.deploy_id} ${row.state}`).join(', ') === 'aa11 building, aa11 error, bb22 ready',
    JSON.stringify(rows),
  );
}

// React: the server renders with the production build (bundled in, NODE_ENV replaced at build time).
const ssrLoaded = results.get('ssr')?.loaded ?? [];
const development = ssrLoaded.filter((url) => /react[^/]*\/.*development/.test(url) || /\.development\.js$/.test(url));
check(
  'ssr: renders with React production build (no development build loaded)',
  ssrLoaded.length > 0 && development.length === 0,
  development.join('\n'),
);

// Warm render times (only when asked for): the median and the slowest tenth of each page's renders after its first.
const renders = RENDERED.map((path) => {
  const times = (results.get('ssr')?.answers ?? [])
    .filter((answer) => answer.label.startsWith(`warm ${path} #`) && answer.status === 200)
    .map((answer) => answer.ms)
    .sort((a, b) => a - b);
  const at = (share) => times[Math.min(times.length - 1, Math.floor(share * times.length))];
  return { path, runs: times.length, medianMs: times.length ? at(0.5) : null, p90Ms: times.length ? at(0.9) : null };
});
renderFigures = renderRuns > 0 ? renders : [];
if (renderRuns > 0)
  for (const render of renders)
    log(
      `rehearsal: warm render ${render.path}: median ${render.medianMs} ms, p90 ${render.p90Ms} ms (${render.runs} runs)`,
    );

/* ---------- 8. the header rules ---------- */

// Proxies and browsers refuse a response whose headers pass their limit (Node's own default is 16 KB); the rules the
// build writes (.netlify/v1/config.json: a Content-Security-Policy per page among them) and netlify.toml's rule
// for every path are kept well inside it.
const HEADER_BYTES = 16 * 1024;
const frameworkConfig = JSON.parse(
  await readFile(join(workspace.dir, '.netlify', 'v1', 'config.json'), 'utf8').catch(() => '{}'),
);
const bytesOf = (values) =>
  Object.entries(values ?? {}).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}: ${value}\r\n`), 0);
const toml = await readFile(join(workspace.dir, 'netlify.toml'), 'utf8');
const everyPath = [...toml.matchAll(/^\s+([A-Za-z-]+) = "([^"]*)"/gm)]
  .slice(0, 6)
  .reduce((sum, [, name, value]) => sum + Buffer.byteLength(`${name}: ${value}\r\n`), 0);
const rules = (frameworkConfig.headers ?? []).map((rule) => [rule.for, bytesOf(rule.values) + everyPath]);
const tooBig = rules.filter(([, bytes]) => bytes > HEADER_BYTES);
const largest = rules.reduce((max, rule) => (rule[1] > max[1] ? rule : max), ['', 0]);
check(
  `the header rules: every page's headers under ${HEADER_BYTES / 1024} KB (largest ${largest[0]}: ${largest[1]} bytes)`,
  rules.length > 0 && tooBig.length === 0,
  tooBig.map(([path, bytes]) => `${path}: ${bytes} bytes`).join('\n'),
);

await finish();
