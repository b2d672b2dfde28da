import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { test, expect, type APIRequestContext } from '@playwright/test';
import net from 'node:net';
import { ONCE } from './helpers/viewports';
import { createStaff, staffSession } from './helpers/accounts';
import { openLocalData } from '../../scripts/lib/local-data.ts';
import { setEmail } from '../../src/server/users.ts';
import { POLICIES, recordFailure } from '../../src/server/throttle.ts';
import { keptMailTo, withLocalData } from './helpers/outbox.ts';
import { db, sql } from '../../src/platform/database.ts';

/**
 * Sends `head` (a request line and headers, exactly as written) and then `bodyBytes` bytes on a raw
 * connection, as no HTTP client would, and returns the status code of the answer (0 when none came).
 */
function rawRequest(baseURL: string, head: string, bodyBytes = 0): Promise<number> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.setTimeout(30_000, () => socket.destroy());
    socket.write(head);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let left = bodyBytes;
    const pump = () => {
      while (left > 0) {
        const size = Math.min(left, chunk.length);
        left -= size;
        if (!socket.write(chunk.subarray(0, size))) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

/**
 * The site keeps answering a page and a function, again and again for the next two seconds: a CLI that
 * exits during or just after its answer (as it did after a refused body) shows here as a 502.
 */
async function keepsAnswering(request: APIRequestContext) {
  const until = Date.now() + 2000;
  do {
    expect((await request.get('/about', { timeout: 10_000 })).status()).toBe(200);
    expect((await request.get('/api/auth/verify', { timeout: 10_000 })).status()).toBe(401);
  } while (Date.now() < until);
}

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

  for (const [name, head] of [
    ['Host: [', 'GET / HTTP/1.1\r\nHost: [\r\nConnection: close\r\n\r\n'],
    ['Host: a b', 'GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'],
    ['Host: 127.0.0.1:99999', 'GET / HTTP/1.1\r\nHost: 127.0.0.1:99999\r\nConnection: close\r\n\r\n'],
    ['an empty Host', 'GET / HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n'],
    ['Scheme: a b', 'GET / HTTP/1.1\r\nHost: localhost\r\nScheme: a b\r\nConnection: close\r\n\r\n'],
  ] as const) {
    test(`finding 7: ${name} does not stop the site`, async ({ request, baseURL }) => {
      expect(await rawRequest(baseURL!, head)).toBe(200);
      await keepsAnswering(request);
    });
  }

  for (const target of ['//[/x.png', '/\\[/x.png']) {
    test(`finding 7: GET ${target} is answered 400 and does not stop the site`, async ({ request, baseURL }) => {
      expect(await rawRequest(baseURL!, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)).toBe(
        400,
      );
      await keepsAnswering(request);
    });
  }

  test('finding 8: a 5 MB POST to a static page is refused with 405 and does not stop the CLI', async ({
    request,
    baseURL,
  }) => {
    const size = 5 * 1024 * 1024;
    const head = `POST /about HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`;
    expect(await rawRequest(baseURL!, head, size)).toBe(405);
    await keepsAnswering(request);
    const refused = await request.post('/free-quote', { data: { any: 'thing' } });
    expect(refused.status()).toBe(405);
    expect(refused.headers().allow).toBe('GET, HEAD');
    // The functions still take their bodies.
    const login = await request.post('/api/auth/login', { data: { username: 'nobody-here', password: 'wrong' } });
    expect(login.status()).toBe(401);
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

/** The sign-in link in the local outbox's mail to this address ('' while there is none). */
async function signInLinkFor(email: string): Promise<string> {
  for (const mail of await keptMailTo(email, 'sign-in-link-')) {
    const link = /https?:\/\/[^\s/]+\/admin\/login\?link=[\w-]+/.exec(mail.text)?.[0];
    if (link) return link;
  }
  return '';
}

test.describe('finding 13: internal details in answers and mails', ONCE, () => {
  test("finding 13: the e-mailed sign-in link points at the site's address, not the CLI's port", async ({
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const account = await createStaff('link-address');
    const email = `${account.username}@example.com`;
    const store = await openLocalData({});
    try {
      await setEmail(account.username, email);
      for (let i = 0; i < POLICIES.account.threshold; i++) await recordFailure(account.username, `10.31.${i % 20}.1`);
    } finally {
      await store.close();
    }
    const answer = await request.post('/api/auth/login', {
      data: { username: account.username, password: account.password },
    });
    expect((await answer.json()).message).toMatch(/a one-time sign-in link has been e-mailed/);
    await expect.poll(() => signInLinkFor(email), { timeout: 15_000 }).not.toBe('');
    const link = new URL(await signInLinkFor(email));
    expect(link.origin).toBe(new URL(baseURL!).origin);
  });
});

test.describe('finding 9: bursts of parallel requests', ONCE, () => {
  test('finding 9: 40 parallel requests (cached page, search, sign-in, session) end without a 500, a hung request or an empty cached answer', async ({
    request,
  }) => {
    test.setTimeout(180_000); // each request may take up to the proxy's 35 s limit on a busy machine
    const session = await staffSession(request, 'burst');
    const wrong = await createStaff('burst-wrong');
    // The blog list and search pages are kept by the CDN stand-in; the search query is new to this run.
    const cachedPage = '/blog';
    const search = `/search?q=carpenter+${Date.now()}`;
    const calls: { label: string; run: () => ReturnType<APIRequestContext['get']>; ok: number[] }[] = [];
    for (let i = 0; i < 10; i++) {
      calls.push({ label: cachedPage, run: () => request.get(cachedPage, { timeout: 40_000 }), ok: [200] });
      calls.push({ label: search, run: () => request.get(search, { timeout: 40_000 }), ok: [200] });
      calls.push({
        label: 'POST /api/auth/login',
        run: () =>
          request.post('/api/auth/login', {
            data: { username: wrong.username, password: `wrong-${i}` },
            timeout: 40_000,
          }),
        ok: [401, 429],
      });
      calls.push({
        label: 'GET /api/auth/verify',
        run: () => request.get('/api/auth/verify', { headers: session.auth, timeout: 40_000 }),
        ok: [200],
      });
    }
    const results = await Promise.all(
      calls.map(async ({ label, run, ok }) => {
        try {
          const response = await run();
          return { label, status: response.status(), ok, body: await response.text() };
        } catch (cause) {
          return { label, status: 0, ok, body: String(cause) };
        }
      }),
    );
    const unexpected = results.filter(({ status, ok }) => !ok.includes(status));
    // Soft, so the checks of what the burst left behind below run (and report) either way.
    expect
      .soft(
        unexpected.map(({ label, status, body }) => `${label}: ${status} ${body.slice(0, 200)}`),
        'every request answered in time, with no 5xx',
      )
      .toEqual([]);

    // Nothing empty was kept: each page is whole again, and what the CDN stand-in then serves from its copy too.
    for (const path of [cachedPage, search]) {
      await expect
        .poll(async () => (await (await request.get(path, { timeout: 40_000 })).text()).includes('</main>'), {
          message: `${path} answers whole`,
          timeout: 60_000,
        })
        .toBe(true);
      const copy = await request.get(path);
      expect(copy.headers()['cache-status'], path).toMatch(/; hit$/);
      expect(await copy.text(), path).toContain('</main>');
    }
    expect((await request.get('/about')).status()).toBe(200);
  });
});

test.describe('no replays: a function refusal is the answer', ONCE, () => {
  test("an editor's refused start of two-step sign-in stays refused (403), and nothing else runs", async ({
    request,
  }) => {
    const { auth, account } = await staffSession(request, 'replay-editor', 'editor');
    const answer = await request.post('/api/admin/me/second-factor', {
      headers: auth,
      data: { password: account.password },
    });
    expect(answer.status()).toBe(403);
    // The CLI as published sent the refused call again to `/api/admin/me/second-factor.html`, which the function
    // took for "turn two-step sign-in off": an activity entry in the editor's name.
    const entries = await withLocalData(() =>
      db().query(sql`SELECT action FROM activity WHERE actor_username = ${account.username}`),
    );
    expect(entries).toEqual([]);
  });
});
