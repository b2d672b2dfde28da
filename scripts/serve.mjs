#!/usr/bin/env node
// Builds the site and serves it production-like on the Netlify CLI's offline emulation:
// static pages, Netlify Functions and the local blob store, all on one address.
// Usage: node scripts/serve.mjs [--port 8888]
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { prepareLocalEnv } from './local-env.mjs';
import { startCompressingProxy } from './compressing-proxy.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', default: process.env.PORT ?? '8888' } } });
const port = values.port;
// The Netlify server listens one port up; the public port is the compressing proxy, like the CDN.
const netlifyPort = String(Number(port) + 1);
const env = {
  ...process.env,
  ...(await prepareLocalEnv()),
  ASTRO_TELEMETRY_DISABLED: '1',
  BROWSER: 'none',
  // Functions purge cached answers through the local CDN stand-in (src/server/cdn.ts).
  LOCAL_CDN_URL: `http://localhost:${port}`,
  NETLIFY_SITE_ID: process.env.NETLIFY_SITE_ID ?? '',
  // Like the deployed site (README, "Blog"): functions may require() ES modules, which jsdom's dependencies need.
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-require-module'].filter(Boolean).join(' '),
};
const netlify = new URL('../node_modules/.bin/netlify', import.meta.url).pathname;

// A local staff account exists from the first start on; its password is printed once, here.
const accounts = spawnSync(process.execPath, [new URL('./users.ts', import.meta.url).pathname, 'ensure-local-account'], { env, encoding: 'utf8' });
const accountNotice = `${accounts.stdout ?? ''}${accounts.status === 0 ? '' : accounts.stderr ?? ''}`.trim();

// Sample blog posts go into the local store while it has none (scripts/seed-blog.ts).
const seeded = spawnSync(process.execPath, [new URL('./seed-blog.ts', import.meta.url).pathname], { env, encoding: 'utf8' });
if (seeded.status !== 0) console.error(`Could not seed the sample blog posts:\n${seeded.stderr}`);

// The CLI keeps its telemetry choice in the user's config; switch it off once, offline.
spawnSync(netlify, ['--telemetry-disable'], { env, stdio: 'ignore' });

const child = spawn(
  netlify,
  // Edge functions would need a Deno download; the site uses none, so the offline emulation skips them.
  // Its functions server gets its own port too (the CLI's default, 3999, for the default site port), so
  // servers on other ports can run side by side.
  ['serve', '--offline', '--internal-disable-edge-functions', '--port', netlifyPort, '--functions-port', port === '8888' ? '3999' : String(Number(port) + 1100)],
  { env, stdio: ['ignore', 'pipe', 'inherit'] },
);
let announced = false;
child.stdout.on('data', async (chunk) => {
  process.stdout.write(chunk);
  if (!announced && chunk.toString().includes('Local dev server ready')) {
    announced = true;
    await startCompressingProxy({ port: Number(port), target: Number(netlifyPort) });
    console.log(`\n  The site is running at http://localhost:${port}  (Ctrl+C to stop)`);
    console.log(`  Staff admin: http://localhost:${port}/admin/login\n${accountNotice.replace(/^/gm, '  ')}\n`);
  }
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
