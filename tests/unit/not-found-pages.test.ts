import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import courseNotFound from '../../netlify/functions/course-not-found.mts';
import categoryNotFound from '../../netlify/functions/category-not-found.mts';
import categoriesHandler from '../../netlify/functions/categories.mts';

const context = (params: Record<string, string> = {}) => ({ params }) as unknown as Context;
const saved = { URL: process.env.URL, SITE_URL: process.env.SITE_URL };

beforeEach(() => {
  delete process.env.URL;
  delete process.env.SITE_URL;
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A local listener standing in for the attacker's host: counts every request it receives. */
async function attackerHost() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<h1>attacker content</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { hits, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('finding 2: SSRF through the Host header on the course not-found page', () => {
  it('never fetches from the host a request names, and still answers the Course Not Found page with 404', async () => {
    const attacker = await attackerHost();
    try {
      const request = new Request(`http://127.0.0.1:${attacker.port}/courses/XYZ99999`, {
        headers: { host: `127.0.0.1:${attacker.port}` },
      });
      const response = await courseNotFound(request);
      const html = await response.text();
      expect(attacker.hits).toEqual([]);
      expect(response.status).toBe(404);
      expect(html).toContain('Course Not Found');
      expect(html).not.toContain('attacker content');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await attacker.close();
    }
  });

  it('fetches the page only from the configured site origin', async () => {
    process.env.URL = 'https://site.example';
    const fetchStub = vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response('<!DOCTYPE html><h1>Course Not Found</h1>', {
          headers: { 'content-type': 'text/html; charset=utf-8', 'x-powered-by': 'Express' },
        }),
    );
    const response = await courseNotFound(
      new Request('http://attacker.example:6379/courses/XYZ99999', { headers: { host: 'attacker.example:6379' } }),
    );
    expect(fetchStub).toHaveBeenCalledTimes(1);
    const target = String(fetchStub.mock.calls[0][0]);
    expect(target).toBe('https://site.example/course-not-found');
    expect(fetchStub.mock.calls.flat().map(String).join(' ')).not.toContain('attacker');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('Course Not Found');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(response.headers.has('x-powered-by')).toBe(false);
  });

  it('answers a plain Course Not Found page with 404 when the site page cannot be fetched', async () => {
    process.env.URL = 'https://site.example';
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
    const response = await courseNotFound(new Request('http://localhost/courses/XYZ99999'));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('Course Not Found');
    expect(html).toContain('Course not found or unavailable');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});

describe("finding 4: unknown categories answer 404 'Category not found.'", () => {
  const call = async (path: string, params: Record<string, string> = {}) => {
    const response = await categoriesHandler(new Request(`http://localhost${path}`), context(params));
    return { status: response.status, body: await response.json(), headers: response.headers };
  };

  it.each([
    ['/api/categories/nope', { slug: 'nope' }],
    ['/api/categories/nope/courses', { slug: 'nope' }],
    // What the local server sends after a 404: the same function, an alternative path, no parameters.
    ['/api/categories/nope.html', {}],
    ['/api/categories/nope/index.html', {}],
    ['/api/categories/nope/courses.html', {}],
    ['/api/categories/nope/courses/index.html', {}],
  ])('%s answers 404 with the exact message', async (path, params) => {
    const { status, body, headers } = await call(path, params);
    expect(status).toBe(404);
    expect(body).toEqual({ message: 'Category not found.' });
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('still lists every category at /api/categories and one category by slug', async () => {
    expect((await call('/api/categories')).body).toHaveLength(11);
    expect((await call('/api/categories/health-fitness', { slug: 'health-fitness' })).body.slug).toBe('health-fitness');
    expect(
      (await call('/api/categories/health-fitness/courses', { slug: 'health-fitness' })).body.length,
    ).toBeGreaterThan(0);
  });

  it("the category page function answers the 'Category not found.' page with 404, never fetching the request's host", async () => {
    const attacker = await attackerHost();
    try {
      const response = await categoryNotFound();
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('Category not found.');
      expect(attacker.hits).toEqual([]);
    } finally {
      await attacker.close();
    }
  });
});
