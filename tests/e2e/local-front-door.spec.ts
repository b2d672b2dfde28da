import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { test, expect } from '@playwright/test';

// The production-like local server (scripts/serve.mjs) behind its front door (scripts/compressing-proxy.mjs).
// Server behaviour does not depend on the viewport: desktop only.
test.describe('the local server survives hostile requests', { tag: '@desktop-only' }, () => {
  test('finding 1: one request stops the local site — a malformed address and a 7 MB body are refused and the site keeps answering', async ({
    request,
  }) => {
    const malformed = await request.get('/blog/%E0%A4%A');
    expect(malformed.status()).toBe(400);
    expect((await malformed.json()).message).toEqual(expect.any(String));
    expect(malformed.headers()['x-content-type-options']).toBe('nosniff');

    const big = await request.post('/api/email/contact', {
      headers: { 'content-type': 'application/json' },
      data: Buffer.alloc(7 * 1024 * 1024, 0x20),
    });
    expect(big.status()).toBe(413);

    expect((await request.get('/')).status()).toBe(200);
    expect((await request.get('/api/categories')).status()).toBe(200);
  });

  test('finding 3: visitors cannot run mail-retry or purge, and answers hide X-Powered-By and the internal port', async ({
    request,
    baseURL,
  }) => {
    expect((await request.post('/.netlify/functions/mail-retry')).status()).toBe(404);
    expect(
      (
        await request.post('/api/v1/purge', {
          headers: { authorization: 'Bearer local-cdn' },
          data: { cache_tags: ['blog'] },
        })
      ).status(),
    ).toBe(404);

    const internalPort = String(Number(new URL(baseURL!).port) + 1);
    for (const path of [
      '/api/categories',
      '/courses/XYZ99999',
      '/category/no-such-category',
      '/blog/',
      '/no-such-page',
    ]) {
      const response = await request.get(path, { maxRedirects: 0 });
      const headers = response.headers();
      expect(headers['x-powered-by'], path).toBeUndefined();
      expect(JSON.stringify(headers), path).not.toMatch(new RegExp(`(localhost|127\\.0\\.0\\.1):${internalPort}\\b`));
      expect(await response.text(), path).not.toMatch(new RegExp(`(localhost|127\\.0\\.0\\.1):${internalPort}\\b`));
    }
  });

  test('finding 9: 40 parallel calls to one function all answer 2xx/4xx with whole bodies, and the site answers after', async ({
    request,
  }) => {
    test.setTimeout(180_000);
    // A different search each, so no answer comes from the front door's cache: each one is a call of the function.
    const run = `${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        try {
          const response = await request.get(`/api/courses?search=${encodeURIComponent(`carpenter ${run}${i}`)}`, {
            timeout: 60_000,
          });
          // Whole: the JSON the function sent, not an empty or cut-off body.
          let complete = false;
          try {
            const json = JSON.parse((await response.body()).toString('utf8'));
            complete = typeof json.total === 'number' || typeof json.message === 'string';
          } catch {}
          return `${response.status()}${complete ? '' : ' incomplete'}`;
        } catch (error) {
          return `no answer: ${String(error).split('\n')[0]}`;
        }
      }),
    );
    expect(answers.filter((answer) => !/^[24]\d\d$/.test(answer))).toEqual([]);
    expect((await request.get('/api/categories')).status()).toBe(200);
  });

  test("finding 11: the CLI and its functions server refuse connections on this machine's network addresses", async ({
    request,
    baseURL,
  }) => {
    const port = Number(new URL(baseURL!).port);
    // scripts/serve.mjs: the CLI one port up, its functions server on 3999 for the default port, else port + 1100.
    const internalPorts = [port + 1, port === 8888 ? 3999 : port + 1100];
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((net) => net && !net.internal && !net.address.startsWith('fe80:'))
      .map((net) => net!.address);
    const reach = (host: string, target: number) =>
      new Promise<string>((resolve) => {
        const socket = connect({ host, port: target, timeout: 5000 });
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('timeout', () => {
          socket.destroy();
          resolve('timeout');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
    for (const host of outside)
      for (const target of internalPorts) expect(await reach(host, target), `${host}:${target}`).toBe('ECONNREFUSED');

    // Whether or not this machine has another address: the kernel's list of listening sockets shows them bound
    // to 127.0.0.1 only (Linux).
    const listening: string[] = [];
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      const rows = await readFile(table, 'utf8').catch(() => '');
      for (const row of rows.split('\n').slice(1)) {
        const [, local, , state] = row.trim().split(/\s+/);
        if (state !== '0A' || !local) continue; // 0A: LISTEN
        const [address, hexPort] = local.split(':');
        if (internalPorts.includes(Number.parseInt(hexPort, 16)))
          listening.push(`${address}:${Number.parseInt(hexPort, 16)}`);
      }
    }
    if (listening.length > 0)
      expect(listening.sort()).toEqual(internalPorts.map((target) => `0100007F:${target}`).sort());

    // The front door still reaches both: a page, a function, and a function that fetches a page from the site.
    expect((await request.get('/')).status()).toBe(200);
    expect((await request.get('/api/categories')).status()).toBe(200);
    const notFound = await request.get('/courses/XYZ99999');
    expect(notFound.status()).toBe(404);
    expect(await notFound.text()).toContain('</html>');
  });
});
