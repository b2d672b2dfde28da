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
});
