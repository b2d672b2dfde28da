import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SECURITY_HEADERS, SITE_SECURITY_HEADERS } from '../../src/server/security-headers';
import { cachePolicies, error, json, methodNotAllowed, readCappedBody } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { parseFormSubmission } from '../../src/server/form-request';

/** The header values netlify.toml sets for one `for` pattern (a small reader for its flat [[headers]] blocks). */
function tomlHeaders(pattern: string): Record<string, string> {
  const toml = readFileSync(new URL('../../netlify.toml', import.meta.url), 'utf8');
  for (const block of toml.split('[[headers]]').slice(1)) {
    const target = /^\s*for\s*=\s*"([^"]*)"/m.exec(block)?.[1];
    if (target !== pattern) continue;
    const values = block.split('[headers.values]')[1] ?? '';
    return Object.fromEntries([...values.matchAll(/^\s*([A-Za-z-]+)\s*=\s*"([^"]*)"\s*$/gm)].map((m) => [m[1], m[2]]));
  }
  return {};
}

/** A request whose body arrives in chunks, so no Content-Length tells the size up front. */
function streamed(chunks: number, chunkBytes: number, type = 'application/json') {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ >= chunks) controller.close();
      else controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
    },
  });
  return {
    request: new Request('http://localhost/api/x', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': type },
    } as RequestInit),
    sent: () => sent,
  };
}

describe('security headers have one source', () => {
  it('netlify.toml gives static files exactly the site-wide list', () => {
    expect(tomlHeaders('/*')).toEqual(SITE_SECURITY_HEADERS);
  });

  it('function answers carry the site-wide list plus their own policy, and no other rule sets security headers', () => {
    for (const [name, value] of Object.entries(SITE_SECURITY_HEADERS)) expect(SECURITY_HEADERS[name]).toBe(value);
    expect(SECURITY_HEADERS['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    const names = new Set(Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()));
    const toml = readFileSync(new URL('../../netlify.toml', import.meta.url), 'utf8');
    const patterns = [...toml.matchAll(/^\s*for\s*=\s*"([^"]*)"/gm)].map((m) => m[1]).filter((p) => p !== '/*');
    for (const pattern of patterns) {
      for (const name of Object.keys(tomlHeaders(pattern)))
        expect(names.has(name.toLowerCase()), `${pattern}: ${name}`).toBe(false);
    }
  });

  it('JSON answers and errors carry every header and are never stored', async () => {
    for (const answer of [json({ ok: true }), error(400, 'Bad'), methodNotAllowed(['GET', 'POST'])]) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(answer.headers.get(name)).toBe(value);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    const refused = methodNotAllowed(['GET', 'POST']);
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, POST');
    expect(await refused.json()).toEqual({ message: 'Method not allowed. Use GET or POST.' });
  });

  it('a cache policy passed to json() replaces the default', () => {
    const answer = json([], { headers: cachePolicies.publicCatalogue });
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.headers.get('netlify-cdn-cache-control')).toMatch(/durable/);
  });
});

describe('one capped body reader', () => {
  it('returns the body when it fits', async () => {
    const request = new Request('http://localhost/', { method: 'POST', body: 'hello' });
    expect(new TextDecoder().decode((await readCappedBody(request, 5)) ?? undefined)).toBe('hello');
  });

  it('refuses a declared length over the cap without reading', async () => {
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: 'x',
      headers: { 'content-length': '999999' },
    });
    expect(await readCappedBody(request, 1000)).toBeNull();
    expect(request.bodyUsed).toBe(false);
  });

  it('stops reading a streamed body as soon as it passes the cap', async () => {
    const { request, sent } = streamed(1000, 1024);
    expect(await readCappedBody(request, 4096)).toBeNull();
    expect(sent()).toBeLessThan(10);
  });

  it('JSON endpoints answer 413, 415 and 400 in the one error shape', async () => {
    const schema = v.object({ name: v.pipe(v.string(), v.minLength(1, 'Name is required')) });
    const tooLarge = await parseJsonBody(schema, streamed(100, 1024).request, 2048);
    expect(tooLarge.ok || tooLarge.response.status).toBe(413);
    if (!tooLarge.ok)
      expect(await tooLarge.response.json()).toEqual({ message: 'The request body is too large (at most 2 KB).' });

    const notJson = await parseJsonBody(schema, streamed(1, 10, 'text/plain').request, 2048);
    expect(notJson.ok || notJson.response.status).toBe(415);

    const invalid = await parseJsonBody(
      schema,
      new Request('http://localhost/', {
        method: 'POST',
        body: '{"name":""}',
        headers: { 'content-type': 'application/json' },
      }),
      2048,
    );
    expect(invalid.ok).toBe(false);
    if (!invalid.ok) {
      expect(invalid.response.status).toBe(400);
      expect(await invalid.response.json()).toEqual({
        message: 'Name is required',
        errors: [{ field: 'name', message: 'Name is required' }],
      });
    }
  });

  it('public forms use the same reader and shape, with success: false', async () => {
    const answer = await parseFormSubmission(streamed(100, 1024).request, v.object({}));
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.response.status).toBe(413);
      expect(await answer.response.json()).toMatchObject({
        success: false,
        message: expect.stringMatching(/too large/),
      });
    }
  });
});
