#!/usr/bin/env node
// A read-only check of a running site, deployed or local: `npm run smoke -- https://example.netlify.app`.
// It only reads, and sends forms the site must refuse (an empty body), so it is safe against production.
// Each check prints one line; the last line is "smoke: N passed, N failed" and the exit code is 1 on a failure.
// What it looks at is what a broken deploy shows first: pages and on-request pages answering, the functions and
// the database answering, React's production build in the browser, the security headers, and whether first-owner
// setup is still switched on after an owner exists.
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { json: { type: 'boolean', default: false }, timeout: { type: 'string', default: '20000' } },
});
const address = (positionals[0] ?? '').replace(/\/+$/, '');
if (!/^https?:\/\/[^/]+$/.test(address)) {
  console.error('Usage: npm run smoke -- <site address, e.g. https://your-site.netlify.app>');
  process.exit(2);
}
const TIMEOUT = Number(values.timeout);

const results = [];
function record(name, ok, detail = '') {
  results.push({ name, ok, detail });
  if (!values.json) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}

async function get(path, init = {}) {
  return fetch(`${address}${path}`, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT), ...init });
}

/** Runs one check; an exception (timeout, refused connection) fails it with its message. */
async function check(name, body) {
  try {
    const outcome = await body();
    record(name, outcome === true || outcome === undefined, typeof outcome === 'string' ? outcome : '');
  } catch (cause) {
    record(name, false, cause instanceof Error ? cause.message : String(cause));
  }
}

const expectStatus = (answer, status) =>
  answer.status === status ? true : `answered ${answer.status}, expected ${status}`;

const pages = new Map();
async function page(path) {
  if (!pages.has(path)) {
    const answer = await get(path);
    pages.set(path, { answer, text: await answer.text() });
  }
  return pages.get(path);
}

for (const path of ['/', '/courses', '/free-quote', '/contact', '/admin/login']) {
  await check(`GET ${path} answers 200 with HTML`, async () => {
    const { answer, text } = await page(path);
    if (answer.status !== 200) return `answered ${answer.status}`;
    return /<html/i.test(text) || 'no HTML in the answer';
  });
}

// The pages rendered on request run the SSR function: the ones a broken bundle answers 500.
await check('GET /search?search=carpentry renders results on request', async () => {
  const { answer, text } = await page('/search?search=carpentry');
  if (answer.status !== 200) return `answered ${answer.status}`;
  return /CPC\d{5}/.test(text) || 'no qualification code in the results';
});
await check('GET /blog renders on request', async () => expectStatus((await page('/blog')).answer, 200));
await check('GET /blog/<missing> answers 404', async () =>
  expectStatus((await page('/blog/no-such-post-smoke-check')).answer, 404),
);
await check('GET /rss.xml answers 200', async () => expectStatus((await page('/rss.xml')).answer, 200));

await check('the security headers are sent', async () => {
  const { answer } = await page('/');
  const missing = ['content-security-policy', 'strict-transport-security', 'x-content-type-options'].filter(
    (name) => !answer.headers.get(name),
  );
  if (missing.length) return `missing ${missing.join(', ')}`;
  const csp = answer.headers.get('content-security-policy') ?? '';
  const scripts = csp.split(';').find((part) => part.trim().startsWith('script-src')) ?? '';
  return !scripts.includes("'unsafe-inline'") || "script-src allows 'unsafe-inline'";
});

// React's development build carries text its production build strips (its DevTools advice among it). The server
// side cannot be seen from outside: the rehearsal (tests/rehearsal/run.mjs) checks it before a deploy.
await check("the pages' scripts are React's production build", async () => {
  const scripts = new Set();
  for (const path of ['/', '/search?search=carpentry', '/admin/login']) {
    const { text } = await page(path);
    // Netlify adds its deploy id to asset addresses (`?dpl=...`).
    for (const match of text.matchAll(/(?:src|component-url|renderer-url)="(\/_astro\/[^"?]+\.js)(?:\?[^"]*)?"/g))
      scripts.add(match[1]);
  }
  if (!scripts.size) return 'no scripts found on the pages';
  const development = [];
  for (const script of scripts) {
    const text = await (await get(script)).text();
    if (text.includes('Download the React DevTools')) development.push(script);
  }
  return development.length === 0 || `development build in ${development.join(', ')}`;
});
await check('GET /api/blogs answers JSON (the database answers)', async () => {
  const answer = await get('/api/blogs?limit=1');
  if (answer.status !== 200) return `answered ${answer.status}`;
  const body = await answer.json();
  return Array.isArray(body.blogs) || 'no list of posts in the answer';
});
await check('GET /api/public/site-settings answers JSON', async () => {
  const answer = await get('/api/public/site-settings');
  if (answer.status !== 200) return `answered ${answer.status}`;
  const body = await answer.json();
  return (typeof body === 'object' && body !== null && 'contactInfo' in body) || 'no contact details in the answer';
});
await check('GET /api/auth/verify without a token answers 401', async () =>
  expectStatus(await get('/api/auth/verify'), 401),
);
await check('POST /api/email/contact with an empty form is refused (400), nothing stored', async () =>
  expectStatus(
    await get('/api/email/contact', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    400,
  ),
);
await check('first-owner setup is off once an owner exists', async () => {
  const answer = await get('/api/auth/setup');
  if (answer.status !== 200) return `answered ${answer.status}`;
  const { enabled, done } = await answer.json();
  if (!done) return enabled ? 'no owner yet: open /admin/setup' : 'no owner yet and SETUP_SECRET is not set';
  return !enabled || 'an owner exists: remove SETUP_SECRET from the environment variables';
});

const passed = results.filter((result) => result.ok).length;
const failed = results.length - passed;
if (values.json) console.log(JSON.stringify({ address, passed, failed, results }, null, 2));
console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
