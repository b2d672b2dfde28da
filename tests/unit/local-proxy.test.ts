/**
 * The local front door (scripts/compressing-proxy.mjs) against a tiny stub upstream standing in for the
 * Netlify CLI, and the supervisor that restarts the CLI (scripts/supervise.mjs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCompressingProxy, MAX_BODY_BYTES, GENERIC_ERROR } from '../../scripts/compressing-proxy.mjs';
import { supervise } from '../../scripts/supervise.mjs';

const SECRET = 'test-local-secret';
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
}
let seen: Seen[] = [];
let upstream: http.Server;
let upstreamPort: number;
let proxy: http.Server;
let proxyPort: number;
/** What the proxy wrote to the server log. */
const logged: string[] = [];
/** Calls per path, for answers that change between the first call and later ones. */
const calls = new Map<string, number>();
/** A stack trace as the Netlify CLI answers it for a function that threw (plain text unless HTML is asked for). */
const CLI_TRACE = `TypeError: Cannot read properties of undefined (reading 'x')
     at Object.handler (/work/site/.netlify/functions-serve/email-quote/email-quote.mjs:1234:17)
    at async file:///work/site/node_modules/netlify-cli/dist/lib/functions/runtimes/js/worker.js:66:24`;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes });
      const self = `localhost:${upstreamPort}`;
      const call = (calls.get(req.url ?? '') ?? 0) + 1;
      calls.set(req.url ?? '', call);
      const cacheable = {
        'content-type': 'text/html; charset=utf-8',
        'netlify-cdn-cache-control': 'public, s-maxage=600',
      };
      // The worker bug: the first answer is an empty 200 (or one cut off half-way), later ones are whole.
      if (req.url?.startsWith('/empty-first')) {
        res.writeHead(200, cacheable);
        return res.end(call === 1 ? '' : '<h1>Blog</h1>');
      }
      if (req.url?.startsWith('/cut-first')) {
        if (call > 1) {
          res.writeHead(200, cacheable);
          return res.end('<h1>Blog</h1>');
        }
        res.writeHead(200, { ...cacheable, 'content-length': 1000 });
        return res.write('<h1>Bl', () => res.destroy());
      }
      if (req.url === '/api/many-fetches') {
        // What the CLI's runtime sends after a call that read hundreds of blobs: a timing per fetch, far past 16 KB.
        const timings = Array.from({ length: 2000 }, (_, i) => `localhost:1;dur=${i};method=GET;status=200`).join(', ');
        res.writeHead(200, { 'content-type': 'application/json', 'x-nf-fetch-timing': timings });
        return res.end('{"items":[]}');
      }
      if (req.url === '/closing') {
        // The CLI ends every answer with `Connection: close`.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
        return res.end('<h1>Page</h1>');
      }
      if (req.url === '/never') return; // a worker that never answers
      if (req.url === '/api/crash') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end(CLI_TRACE);
      }
      if (req.url === '/search-crash') {
        res.writeHead(500, { 'content-type': 'text/html' });
        return res.end(
          `<html><body><pre>${JSON.stringify({ errorType: 'Error', errorMessage: 'boom', trace: CLI_TRACE.split('\n').slice(1) })}</pre></body></html>`,
        );
      }
      if (req.url === '/api/busy') {
        const busy = JSON.stringify({ message: 'Sign-in is busy right now. Please try again in a few seconds.' });
        res.writeHead(503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(busy) });
        return res.end(busy);
      }
      if (req.url === '/leaky') {
        res.writeHead(302, {
          location: `http://${self}/elsewhere`,
          'x-powered-by': 'Express',
          'x-nf-fetch-timing': `${self};dur=1`,
          'content-type': 'text/html; charset=utf-8',
        });
        return res.end(`<a href="http://${self}/elsewhere">moved</a> and http://127.0.0.1:${upstreamPort}/x`);
      }
      if (req.url === '/cached') {
        res.writeHead(200, {
          'content-type': 'application/json',
          'netlify-cdn-cache-control': 'public, s-maxage=600',
          'netlify-cache-tag': 'blog',
          'x-powered-by': 'Express',
        });
        return res.end(JSON.stringify({ n: seen.length }));
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-powered-by': 'Express' });
      res.end(JSON.stringify({ bytes }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
  proxy = await startCompressingProxy({
    port: 0,
    target: upstreamPort,
    secret: SECRET,
    bodyRoutes: () => [/^\/search$/],
    log: (message: string) => logged.push(message),
  });
  proxyPort = (proxy.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => upstream.close(resolve));
});
beforeEach(() => {
  seen = [];
  logged.length = 0;
});

/** A raw request (the path is sent exactly as given), optionally streaming a body in chunks. */
function send(
  path: string,
  {
    method = 'GET',
    headers = {},
    body,
    chunks,
  }: {
    method?: string;
    headers?: Record<string, string | number>;
    body?: Buffer;
    chunks?: { size: number; count: number };
  } = {},
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; raw: Buffer }>(
    (resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: proxyPort, method, path, headers: { 'accept-encoding': 'identity', ...headers } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => {
            const raw = Buffer.concat(parts);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: raw.toString('utf8'), raw });
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        // The proxy may close the connection after refusing a body that is still being sent.
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      });
      // A request the proxy never answers fails the test in time (and says so).
      req.setTimeout(4000, () => req.destroy(new Error(`no answer to ${method} ${path} within 4 s`)));
      if (chunks) {
        let left = chunks.count;
        const pump = () => {
          while (left > 0) {
            left--;
            if (!req.write(Buffer.alloc(chunks.size, 0x61))) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      } else req.end(body);
    },
  );
}

describe('finding 1: one request stops the local site (the local proxy)', () => {
  it('answers a malformed address with 400 JSON and passes nothing on', async () => {
    for (const path of ['/blog/%E0%A4%A', '/%', '/api/blogs/%zz/view']) {
      const answer = await send(path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.text).message).toEqual(expect.any(String));
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(seen).toEqual([]);
  });

  it('answers a body declared over the cap with 413 and passes nothing on', async () => {
    const body = Buffer.alloc(7 * 1024 * 1024, 0x20);
    const answer = await send('/api/email/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
      body,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).message).toEqual(expect.any(String));
    expect(seen).toEqual([]);
  });

  it('answers a streamed body that grows over the cap with 413 and passes nothing on', async () => {
    const answer = await send('/api/email/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: { size: 64 * 1024, count: 110 },
    });
    expect(answer.status).toBe(413);
    expect(seen).toEqual([]);
  });

  it('passes a 5 MB image upload on whole (the cap leaves room for it)', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024 + 2048, 0x62);
    expect(body.length).toBeLessThan(MAX_BODY_BYTES);
    const answer = await send('/api/upload/image', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': body.length },
      body,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ bytes: body.length });
    expect(seen).toHaveLength(1);
  });

  it('listens on 127.0.0.1 unless told otherwise', async () => {
    expect((proxy.address() as AddressInfo).address).toBe('127.0.0.1');
    const open = await startCompressingProxy({ port: 0, target: upstreamPort, host: '0.0.0.0', secret: SECRET });
    try {
      expect((open.address() as AddressInfo).address).toBe('0.0.0.0');
    } finally {
      await new Promise((resolve) => open.close(resolve));
    }
  });
});

describe('finding 1: one request stops the local site (the CLI is restarted)', () => {
  const node = (code: string) => spawn(process.execPath, ['-e', code], { stdio: 'ignore' });

  it('starts the child again with a message when it exits unexpectedly, and not after stop()', async () => {
    const messages: string[] = [];
    const starts: number[] = [];
    const stopped = new Promise<number | null>((resolve) => {
      const supervisor = supervise({
        name: 'The Netlify CLI',
        // First run crashes at once; the second keeps running until stopped.
        start: () => node(starts.length === 0 ? 'process.exit(7)' : 'setInterval(() => {}, 1000)'),
        onStart: (_child: { pid?: number }, attempt: number) => {
          starts.push(attempt);
          if (attempt === 1) supervisor.stop('SIGTERM');
        },
        log: (message: string) => messages.push(message),
        onStopped: resolve,
      });
    });
    await stopped;
    expect(starts).toEqual([0, 1]);
    expect(messages).toEqual(['The Netlify CLI exited unexpectedly (code 7); restarting it.']);
  });

  it('gives up when the child keeps failing', async () => {
    const messages: string[] = [];
    let starts = 0;
    const code = await new Promise<number | null>((resolve) => {
      supervise({
        name: 'The Netlify CLI',
        start: () => {
          starts++;
          return node('process.exit(2)');
        },
        log: (message: string) => messages.push(message),
        maxRestarts: 2,
        onGiveUp: resolve,
      });
    });
    expect(code).toBe(2);
    expect(starts).toBe(3);
    expect(messages.at(-1)).toMatch(/giving up/);
  });
});

describe('the connection to the browser stays open, as the CDN keeps it', () => {
  it("does not pass on the CLI's Connection: close: a second page comes over the same connection", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ reused: boolean; connection: string | undefined; text: string }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port: proxyPort, path: '/closing', agent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (part: string) => (text += part));
          res.on('end', () => resolve({ reused: req.reusedSocket, connection: res.headers.connection, text }));
        });
        req.on('error', reject);
      });
    try {
      const first = await get();
      const second = await get();
      expect(first.text).toBe('<h1>Page</h1>');
      expect(first.connection).toBe('keep-alive');
      expect(second.text).toBe('<h1>Page</h1>');
      expect(second.reused).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});

describe('finding 3: local-only endpoints and internal details stay local', () => {
  it.each([
    '/.netlify/functions/mail-retry',
    '/.NETLIFY/functions/mail-retry',
    '/%2enetlify/functions/mail-retry',
    '/x/../.netlify/functions/mail-retry',
    '/.netlify/functions/mail-retry?x=1',
  ])('refuses %s to visitors and passes nothing on', async (path) => {
    const answer = await send(path, { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(seen).toEqual([]);
  });

  it('lets a caller with the local secret run mail-retry, without passing the secret on', async () => {
    const answer = await send('/.netlify/functions/mail-retry', {
      method: 'POST',
      headers: { 'x-local-secret': SECRET },
    });
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['x-local-secret']).toBeUndefined();
    expect(
      (await send('/.netlify/functions/mail-retry', { method: 'POST', headers: { 'x-local-secret': 'guess' } })).status,
    ).toBe(404);
  });

  it('purges only with the secret generated at start', async () => {
    const first = await send('/cached');
    expect((await send('/cached')).text).toBe(first.text);
    for (const authorization of [undefined, 'Bearer local-cdn', 'Bearer wrong']) {
      const answer = await send('/api/v1/purge', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: Buffer.from('{"cache_tags":["blog"]}'),
      });
      expect(answer.status, authorization).toBe(404);
      expect((await send('/cached')).text).toBe(first.text);
    }
    const purged = await send('/api/v1/purge', {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}` },
      body: Buffer.from('{"cache_tags":["blog"]}'),
    });
    expect(purged.status).toBe(202);
    expect((await send('/cached')).text).not.toBe(first.text);
  });

  it('never shows X-Powered-By or the internal port in headers or bodies', async () => {
    for (const encoding of ['identity', 'gzip']) {
      const answer = await send('/leaky', { headers: { host: 'localhost:8888', 'accept-encoding': encoding } });
      expect(answer.status).toBe(302);
      expect(answer.headers['x-powered-by']).toBeUndefined();
      expect(answer.headers.location).toBe('http://localhost:8888/elsewhere');
      if (encoding === 'gzip') expect(answer.headers['content-encoding']).toBe('gzip');
      const all =
        JSON.stringify(answer.headers) + (encoding === 'gzip' ? gunzipSync(answer.raw).toString() : answer.text);
      expect(all).not.toContain(String(upstreamPort));
    }
    const cached = await send('/cached');
    expect(cached.headers['x-powered-by']).toBeUndefined();
  });

  it('passes on the answer of a function that read hundreds of blobs (a CLI header far past 16 KB), without that header', async () => {
    const answer = await send('/api/many-fetches');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"items":[]}');
    expect(answer.headers['x-nf-fetch-timing']).toBeUndefined();
  });
});

describe('finding 7: one request stops the local site (Host and // addresses)', () => {
  it.each(['[', 'a b', '127.0.0.1:99999'])(
    'finding 7: Host: %j reaches the CLI as a fixed valid host, and not in X-Forwarded-Host',
    async (host) => {
      const answer = await send('/api/categories', { headers: { host, scheme: 'a b', 'x-forwarded-host': '[' } });
      expect(answer.status).toBe(200);
      expect(seen).toHaveLength(1);
      expect(seen[0].headers.host).toBe(`127.0.0.1:${upstreamPort}`);
      expect(seen[0].headers['x-forwarded-host']).toBeUndefined();
      expect(seen[0].headers.scheme).toBeUndefined();
    },
  );

  it('finding 7: a valid Host is kept in X-Forwarded-Host and in the addresses the visitor sees', async () => {
    const answer = await send('/leaky', { headers: { host: 'localhost:8888' } });
    expect(seen[0].headers.host).toBe(`127.0.0.1:${upstreamPort}`);
    expect(seen[0].headers['x-forwarded-host']).toBe('localhost:8888');
    expect(seen[0].headers['x-forwarded-proto']).toBe('http');
    expect(answer.headers.location).toBe('http://localhost:8888/elsewhere');
  });

  it.each([
    '/.//[/x',
    '/a/..//[/x',
    '/%2e//[/x',
    '/%2E%2E//[/x',
    '/./\\[/x',
    '/a/b/../..//evil.example/x',
    '/.%2f/[/x',
  ])(
    'a dot segment before // is judged as the CLI resolves it: GET %s is answered 400 and passes nothing on',
    async (path) => {
      const answer = await send(path);
      expect(answer.status).toBe(400);
      expect(seen).toEqual([]);
    },
  );

  it.each(['/a/../about', '/blog/./x', '/courses/%2e/CPC30220'])(
    'an ordinary dot segment (%s) still passes',
    async (path) => {
      expect((await send(path)).status).toBe(200);
      expect(seen).toHaveLength(1);
    },
  );

  it.each(['//[/x.png', '//evil.example/x', '/\\[/x.png', '//.netlify/functions/mail-retry'])(
    'finding 7: GET %s is answered 400 and passes nothing on',
    async (path) => {
      const answer = await send(path);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).message).toEqual(expect.any(String));
      expect(seen).toEqual([]);
    },
  );
});

describe('finding 8: a 4–6 MB POST to a static page stops the CLI', () => {
  const body = Buffer.alloc(5 * 1024 * 1024, 0x61);

  it.each(['/about', '/', '/courses/BSB60420', '/api/../about', '/no-such-page'])(
    'finding 8: a 5 MB POST to %s is refused with 405 and an Allow header, and passes nothing on',
    async (path) => {
      const answer = await send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'content-length': body.length },
        body,
      });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(JSON.parse(answer.text).message).toEqual(expect.any(String));
      expect(seen).toEqual([]);
    },
  );

  it('finding 8: a GET with a body to a page is refused (400), a bodiless POST still goes through', async () => {
    expect(
      (await send('/about', { headers: { 'transfer-encoding': 'chunked' }, chunks: { size: 1024, count: 2 } })).status,
    ).toBe(400);
    expect(seen).toEqual([]);
    expect((await send('/about', { method: 'POST' })).status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('a GET or HEAD with a body to a function is refused (400) too: the CLI answered it with a 500', async () => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await send('/api/admin/inquiries', {
        method,
        headers: { 'content-type': 'application/json', 'content-length': 7 },
        body: Buffer.from('{"a":1}'),
      });
      expect(answer.status, method).toBe(400);
    }
    expect(seen).toEqual([]);
  });

  it('finding 8: bodies still reach the API, function paths and the routes the build declares', async () => {
    for (const path of ['/api/email/contact', '/search', '/.netlify/functions/mail-retry']) {
      const answer = await send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-local-secret': SECRET },
        body: Buffer.from('{"a":1}'),
      });
      expect(answer.status, path).toBe(200);
      expect(JSON.parse(answer.text), path).toEqual({ bytes: 7 });
    }
    expect(seen.map((request) => request.url)).toEqual([
      '/api/email/contact',
      '/search',
      '/.netlify/functions/mail-retry',
    ]);
  });
});

describe('finding 9: bursts give cache poisoning (the proxy side)', () => {
  it('finding 9: an empty 200 is passed on once and never cached', async () => {
    const first = await send('/empty-first');
    expect(first.status).toBe(200);
    expect(first.text).toBe('');
    const second = await send('/empty-first');
    expect(second.text).toBe('<h1>Blog</h1>');
    expect(seen).toHaveLength(2);
    expect((await send('/empty-first')).headers['cache-status']).toMatch(/hit/);
  });

  it('finding 9: an answer cut off before its Content-Length is a 502, not cached', async () => {
    const first = await send('/cut-first');
    expect(first.status).toBe(502);
    const second = await send('/cut-first');
    expect(second.status).toBe(200);
    expect(second.text).toBe('<h1>Blog</h1>');
    expect(seen).toHaveLength(2);
  });

  it('finding 9: a CLI that never answers gets a 504 after the upstream timeout, and nothing is cached', async () => {
    const impatient = await startCompressingProxy({ port: 0, target: upstreamPort, upstreamTimeoutMs: 300 });
    try {
      const port = (impatient.address() as AddressInfo).port;
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/never' }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.setTimeout(4000, () => req.destroy(new Error('no answer within 4 s')));
        req.on('error', reject);
      });
      expect(answer.status).toBe(504);
      expect(JSON.parse(answer.text).message).toMatch(/took too long/);
    } finally {
      await new Promise((resolve) => impatient.close(resolve));
    }
  });
});

describe('finding 13: 500 answers carry stack traces and absolute paths', () => {
  it('finding 13: an API 500 with a stack trace becomes the generic JSON message, the trace goes to the log', async () => {
    const answer = await send('/api/crash');
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toEqual({ message: GENERIC_ERROR });
    expect(answer.text).not.toMatch(/\/work\/|node_modules|at Object/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(logged.join('\n')).toContain('Cannot read properties of undefined');
  });

  it("finding 13: a page's 500 (the CLI's HTML error page) becomes a short text", async () => {
    const answer = await send('/search-crash', { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(500);
    expect(answer.text.trim()).toBe(GENERIC_ERROR);
    expect(logged).toHaveLength(1);
  });

  it("finding 13: a function's own error message (no trace, no path) is passed on as it is", async () => {
    const answer = await send('/api/busy');
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text).message).toBe('Sign-in is busy right now. Please try again in a few seconds.');
    expect(logged).toEqual([]);
  });
});

describe('finding 9: complete answers only (HEAD)', () => {
  it('finding 9: the answer to a HEAD, whose Content-Length has no body, is not taken for a cut-off one', async () => {
    const answer = await send('/api/busy', { method: 'HEAD' });
    expect(answer.status).toBe(503);
    expect(answer.headers['content-type']).toBe('application/json');
  });
});
