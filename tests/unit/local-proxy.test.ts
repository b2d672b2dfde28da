/**
 * The local front door (scripts/compressing-proxy.mjs) against a tiny stub upstream standing in for the
 * Netlify CLI, and the supervisor that restarts the CLI (scripts/supervise.mjs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCompressingProxy, MAX_BODY_BYTES } from '../../scripts/compressing-proxy.mjs';
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

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes });
      const self = `localhost:${upstreamPort}`;
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
  proxy = await startCompressingProxy({ port: 0, target: upstreamPort, secret: SECRET });
  proxyPort = (proxy.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => upstream.close(resolve));
});
beforeEach(() => {
  seen = [];
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

describe('finding 3: local-only endpoints and internal details stay local', () => {
  it.each([
    '/.netlify/functions/mail-retry',
    '/.NETLIFY/functions/mail-retry',
    '//.netlify/functions/mail-retry',
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
});
