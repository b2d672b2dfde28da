// The local stand-in for Netlify's build hook, started by scripts/serve.mjs: a small server on the loopback
// address only, answering requests that carry the secret generated at each start (passed to the functions
// as LOCAL_BUILD_HOOK_URL and LOCAL_BUILD_HOOK_TOKEN, never written to disk).
//   POST /build   asks for a rebuild (one at a time; a request during a build runs one more build after it)
//   GET  /status  { state: idle|building|live|failed, startedAt, finishedAt, durationMs, error, queued }
//                 (queued: another build was asked for during this one and runs after it)
// The site is built in a copy of the project under .netlify/rebuild/ (the served folder stays complete
// meanwhile), reading the staff edits from the local database as a build on Netlify reads Netlify Database
// (NETLIFY_DB_URL, passed on by scripts/serve.mjs), and swapped in when it is done.
import { spawn } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { cp, mkdir, rename, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:http';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const work = `${root}/.netlify/rebuild/project`;
/** What a build reads; node_modules and public are linked, not copied. */
const COPIED = ['src', 'content', 'scripts', 'astro.config.mjs', 'package.json', 'tsconfig.json'];
const LINKED = ['node_modules', 'public'];

function run(command, args, env, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const keep = (chunk) => {
      tail = `${tail}${chunk}`.slice(-4000);
      log?.(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${args.join(' ')} exited with ${code}: ${tail.trim().split('\n').slice(-5).join(' | ')}`)),
    );
  });
}

/**
 * @param {{ env: Record<string, string | undefined>, onLive?: () => Promise<void> | void, log?: (line: string) => void }} options
 */
export async function startLocalBuildHook({ env, onLive, log = (line) => console.log(line) }) {
  const token = randomBytes(32).toString('hex');
  /** @type {{ state: 'idle' | 'building' | 'live' | 'failed', startedAt?: string, finishedAt?: string, durationMs?: number, error?: string }} */
  let status = { state: 'idle' };
  let running = false;
  let pending = false;

  async function build() {
    const started = Date.now();
    status = { state: 'building', startedAt: new Date(started).toISOString() };
    log('  Catalogue changed: rebuilding the site (the current pages stay up meanwhile)...');
    try {
      await rm(work, { recursive: true, force: true });
      await mkdir(work, { recursive: true });
      for (const entry of COPIED) await cp(`${root}/${entry}`, `${work}/${entry}`, { recursive: true });
      for (const entry of LINKED) await symlink(`${root}/${entry}`, `${work}/${entry}`);
      // The deploy id the CLI builds with (its assets carry it as `?dpl=`), so a rebuilt page asks for its scripts
      // and styles as the first build's pages did.
      const buildEnv = {
        ...env,
        DEPLOY_ID: env.DEPLOY_ID ?? '0',
        ASTRO_TELEMETRY_DISABLED: '1',
        // Only the pages and the framework config are swapped in below; the functions keep running the code the
        // first build made, so the adapter leaves out tracing and copying the SSR function (patches/@astrojs+netlify+8.2.6.patch).
        ASTRO_NETLIFY_SKIP_SSR_FUNCTION: '1',
      };
      await run(process.execPath, [`${root}/node_modules/astro/bin/astro.mjs`, 'build'], buildEnv);
      await run(process.execPath, ['scripts/postbuild-headers.mjs'], buildEnv);
      // Swap the finished site in: renames, so the served folder is never half-written. The framework config
      // holds each page's Content-Security-Policy (hashes of its inline styles and scripts, which change from
      // build to build); it is swapped right after the pages, whole, and the CLI serves the headers of the file
      // as it is at each request (patches/netlify-cli+27.10.2.patch).
      const config = `${root}/.netlify/v1/config.json`;
      await cp(`${work}/.netlify/v1/config.json`, `${config}.next`);
      const old = `${root}/.netlify/rebuild/previous-dist`;
      await rm(old, { recursive: true, force: true });
      await rename(`${root}/dist`, old);
      await rename(`${work}/dist`, `${root}/dist`);
      await rename(`${config}.next`, config);
      await rm(old, { recursive: true, force: true });
      const finished = Date.now();
      status = {
        state: 'live',
        startedAt: status.startedAt,
        finishedAt: new Date(finished).toISOString(),
        durationMs: finished - started,
      };
      log(`  Rebuilt in ${((finished - started) / 1000).toFixed(1)} s; the new pages are live.`);
      await onLive?.();
    } catch (cause) {
      status = {
        state: 'failed',
        startedAt: status.startedAt,
        finishedAt: new Date().toISOString(),
        error: String(cause?.message ?? cause).slice(0, 500),
      };
      log(`  The rebuild failed: ${status.error}`);
    }
  }

  async function loop() {
    if (running) {
      pending = true;
      return;
    }
    running = true;
    try {
      do {
        pending = false;
        await build();
      } while (pending);
    } finally {
      running = false;
    }
  }

  const trusted = (value) => {
    const given = Buffer.from(String(value ?? ''));
    const expected = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const server = createServer((req, res) => {
    const send = (code, body) => {
      res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (!trusted(req.headers['x-local-secret'])) return send(404, { message: 'Not found' });
    if (req.method === 'POST' && req.url === '/build') {
      void loop();
      return send(202, { accepted: true });
    }
    if (req.method === 'GET' && req.url === '/status') return send(200, { ...status, queued: pending });
    return send(404, { message: 'Not found' });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    env: { LOCAL_BUILD_HOOK_URL: `http://127.0.0.1:${port}/`, LOCAL_BUILD_HOOK_TOKEN: token },
    close: () => server.close(),
  };
}
