#!/usr/bin/env node
// Builds the site and serves it production-like on the Netlify CLI's offline emulation:
// static pages, Netlify Functions, the local database and the local blob store, all on one address.
// Usage: node scripts/serve.mjs [--port 8888] [--host 127.0.0.1]
// Only this machine can reach the site unless --host says otherwise (e.g. --host 0.0.0.0 for a phone on
// the same network). If the CLI exits unexpectedly it is started again (scripts/supervise.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { prepareLocalEnv } from './local-env.mjs';
import { MAX_HEADER_BYTES, startCompressingProxy } from './compressing-proxy.mjs';
import { supervise } from './supervise.mjs';
import { loadBodyRoutes } from './lib/function-routes.mjs';
import { startLocalBuildHook } from './local-rebuild.mjs';
import { invokeThroughCli, readSchedules, startSchedules } from './local-schedules.mjs';
import { superviseLocalDatabase } from './local/database.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '8888' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
const port = values.port;
const host = values.host;
// Opens the proxy's local-only endpoints (purge API, /.netlify/ paths) to the functions; new each start.
const localSecret = randomBytes(32).toString('hex');
const selfHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
// The Netlify server listens one port up; the public port is the compressing proxy, like the CDN.
const netlifyPort = String(Number(port) + 1);
// The address visitors use. The CLI sets the functions' URL to its own port; e-mailed links (sign-in links,
// the staff inbox link) use this one instead (src/server/mail.ts).
const publicUrl = `http://${host === '127.0.0.1' ? 'localhost' : selfHost}:${port}`;
const env = {
  ...process.env,
  ...(await prepareLocalEnv()),
  ASTRO_TELEMETRY_DISABLED: '1',
  BROWSER: 'none',
  // Function instances stay warm between calls (patches/netlify-cli+27.10.2.patch), as on Netlify. The patch does
  // this only when asked, here: `npm start` and the test runner, which serves the built functions and never
  // edits them. A plain `netlify dev` keeps the CLI's fresh instance per call, so an edited function answers with
  // its new code at once.
  NETLIFY_WARM_FUNCTIONS: '1',
  // Each new function instance (a worker thread, see patches/) compiles the CLI's runtime and the function's code;
  // Node's on-disk compile cache spares it compiling the same files again.
  // Every function instance is a worker thread of the CLI's one process, and they share its libuv pool (4 threads by
  // default) for scrypt and for the local blob server's file access alike: a few parallel sign-ins would hold all
  // four with password checks while the database and blob calls they wait on queue behind them.
  UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16',
  // The CLI's functions runtime adds a header timing every fetch a function made (x-nf-fetch-timing; the front door
  // hides it from visitors). A call that makes a few hundred fetches (blob reads, when records were blobs: the inbox
  // with its staff list) made it longer than Node's 16 KB header limit, and the CLI's own proxy then failed the call
  // ("Could not proxy request"). Files are still blobs, so the limit stays raised.
  NODE_OPTIONS: [process.env.NODE_OPTIONS, `--max-http-header-size=${MAX_HEADER_BYTES}`].filter(Boolean).join(' '),
  NODE_COMPILE_CACHE:
    process.env.NODE_COMPILE_CACHE ?? new URL('../node_modules/.cache/node-compile-cache', import.meta.url).pathname,
  // Functions purge cached answers through the local CDN stand-in (src/server/cdn.ts).
  LOCAL_CDN_URL: `http://${selfHost}:${port}`,
  LOCAL_CDN_TOKEN: localSecret,
  LOCAL_SITE_URL: publicUrl,
  NETLIFY_SITE_ID: process.env.NETLIFY_SITE_ID ?? '',
};
const netlify = new URL('../node_modules/.bin/netlify', import.meta.url).pathname;

// The records: the local database (scripts/local/database.mjs) with the project's migrations applied before
// anything reads it, on a fixed port beside the site's, so its address stays the same if it is restarted.
const database = await superviseLocalDatabase({
  dir: new URL('../.netlify/db', import.meta.url).pathname,
  migrations: new URL('../netlify/database/migrations', import.meta.url).pathname,
  port: Number(port) + 2,
  log: (message) => console.error(`\n  ${message}\n`),
});
Object.assign(env, { NETLIFY_DB_URL: database.url, NETLIFY_DB_DRIVER: 'server' });

// Without a real build hook, catalogue saves rebuild the site here (scripts/local-rebuild.mjs): the functions
// reach this loopback-only hook with a secret made for this start. Afterwards the catalogue answers the
// local CDN stand-in kept are dropped, as a deploy drops them on Netlify.
const buildHook = env.BUILD_HOOK_URL
  ? null
  : await startLocalBuildHook({
      env,
      onLive: () =>
        fetch(`http://${selfHost}:${port}/api/v1/purge`, {
          method: 'POST',
          headers: { authorization: `Bearer ${localSecret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ cache_tags: ['catalogue'] }),
        }).then(
          () => {},
          () => {},
        ),
    });
if (buildHook) Object.assign(env, buildHook.env);

// A local staff account exists from the first start on; its password is printed once, here.
const accounts = spawnSync(
  process.execPath,
  [new URL('./users.ts', import.meta.url).pathname, 'ensure-local-account'],
  { env, encoding: 'utf8' },
);
const accountNotice = `${accounts.stdout ?? ''}${accounts.status === 0 ? '' : (accounts.stderr ?? '')}`.trim();

// Sample blog posts go into the local store while it has none (scripts/seed-blog.ts).
const seeded = spawnSync(process.execPath, [new URL('./seed-blog.ts', import.meta.url).pathname], {
  env,
  encoding: 'utf8',
});
if (seeded.status !== 0) console.error(`Could not seed the sample blog posts:\n${seeded.stderr}`);

// The CLI keeps its telemetry choice in the user's config; switch it off once, offline.
spawnSync(netlify, ['--telemetry-disable'], { env, stdio: 'ignore' });

let proxy;
let frontDoor = false;
// The scheduled functions run on their schedules, as on Netlify (scripts/local-schedules.mjs).
let schedules;
// Paths a request body may go to (the functions' and the server-rendered pages'), read after each build.
let bodyRoutes = [];
const cli = supervise({
  name: 'The Netlify CLI',
  start: () =>
    spawn(
      netlify,
      // Edge functions would need a Deno download; the site uses none, so the offline emulation skips them.
      // Its functions server gets its own port too (the CLI's default, 3999, for the default site port), so
      // servers on other ports can run side by side.
      [
        'serve',
        '--offline',
        '--internal-disable-edge-functions',
        '--port',
        netlifyPort,
        '--functions-port',
        port === '8888' ? '3999' : String(Number(port) + 1100),
      ],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  onStart: (child) => {
    let ready = false;
    child.stdout.on('data', async (chunk) => {
      process.stdout.write(chunk);
      if (ready || !chunk.toString().includes('Local dev server ready')) return;
      ready = true;
      bodyRoutes = loadBodyRoutes();
      schedules?.close();
      try {
        schedules = startSchedules({
          schedules: readSchedules(),
          invoke: invokeThroughCli(`http://127.0.0.1:${netlifyPort}`),
        });
      } catch (cause) {
        console.error(`\n  The scheduled functions do not run: ${cause.message}\n`);
      }
      // The front door starts once, with the first CLI that gets ready (not necessarily the first attempt: a
      // CLI that failed to start, say on a port still held by another server, is restarted).
      if (frontDoor) return console.log(`\n  The site is back at ${publicUrl}\n`);
      frontDoor = true;
      proxy = await startCompressingProxy({
        port: Number(port),
        target: Number(netlifyPort),
        host,
        secret: localSecret,
        bodyRoutes: () => bodyRoutes,
      });
      console.log(`\n  The site is running at ${publicUrl}  (Ctrl+C to stop)`);
      if (host !== '127.0.0.1') console.log(`  Listening on ${host}: other machines on the network can reach it.`);
      console.log(`  Staff admin: ${publicUrl}/admin/login\n${accountNotice.replace(/^/gm, '  ')}\n`);
    });
  },
  log: (message) =>
    console.error(
      `\n  ${message}${message.endsWith('restarting it.') ? ' The site answers again once it has rebuilt.' : ''}\n`,
    ),
  onStopped: (code) => {
    schedules?.close();
    database.stop();
    proxy?.close();
    buildHook?.close();
    process.exit(code ?? 0);
  },
  onGiveUp: (code) => {
    schedules?.close();
    database.stop();
    proxy?.close();
    buildHook?.close();
    process.exit(code || 1);
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cli.stop(signal));
