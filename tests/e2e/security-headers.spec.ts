import { test, expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { headerMap, missingRequired, scan, type Scan } from './helpers/observatory';
import { staffSession } from './helpers/accounts';

/**
 * Every answer of the running site, static and function alike, success and error, carries the security
 * headers (CSP without unsafe scripts and with frame-ancestors, HSTS, nosniff, Referrer-Policy,
 * Permissions-Policy), and every HTML page scores A+ (100 or more) by Mozilla's HTTP Observatory rules
 * (helpers/observatory.ts). Note: the local Netlify CLI adds netlify.toml's header rules to function
 * answers, which production does not; tests/unit/hostile-api.test.ts and security-headers.test.ts check
 * what the functions and the on-demand pages send themselves.
 */

const PAGES = [
  '/',
  '/about',
  '/how-rpl-works',
  '/faq',
  '/privacy-policy',
  '/terms-conditions',
  '/contact',
  '/free-quote',
  '/courses',
  '/category/civil-construction',
  '/courses/CPC30220',
  '/search?search=diploma',
  '/search?search=%3Cscript%3E',
  '/admin/login',
  '/admin/dashboard',
  '/admin/settings',
  '/admin/inquiries',
  '/admin/categories',
  '/admin/courses',
];
/** Pages that answer 404 on purpose, with the site's not-found pages. */
const NOT_FOUND_PAGES = ['/no-such-page', '/courses/ZZZ99999', '/category/no-such-category', '/_astro/missing.js'];

// What a cross-origin GET of an address gets back does not depend on how the first call was made: probe each
// address once (several calls below share one).
const corsProbes = new Map<string, Promise<APIResponse>>();

async function scanOf(request: APIRequestContext, path: string, response: APIResponse): Promise<Scan> {
  let probe = corsProbes.get(path);
  if (!probe) {
    probe = request.get(path, { headers: { Origin: 'https://evil.example' }, maxRedirects: 0 });
    corsProbes.set(path, probe);
  }
  const cors = await probe;
  const body = (response.headers()['content-type'] ?? '').includes('html') ? await response.text() : undefined;
  return scan({
    url: response.url(),
    headers: headerMap(response.headersArray()),
    body,
    corsHeaders: headerMap(cors.headersArray()),
  });
}

const explain = (path: string, result: Scan) =>
  `${path}: ${result.score} (${result.grade}) ${result.results
    .filter((r) => r.modifier !== 0)
    .map((r) => `${r.result} ${r.modifier > 0 ? '+' : ''}${r.modifier}`)
    .join(', ')}`;

// Headers do not depend on the viewport: desktop only.
test.describe('Observatory grade of every page type', { tag: '@desktop-only' }, () => {
  test('public, admin and search pages score A+', async ({ request }) => {
    test.setTimeout(120_000);
    const pages = [...PAGES];
    const blogs = await request.get('/api/blogs');
    if (blogs.ok()) {
      const slug = (await blogs.json()).blogs?.[0]?.slug;
      pages.push('/blog', ...(slug ? [`/blog/${slug}`] : []));
    }
    const report: string[] = [];
    for (const path of pages) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      const result = await scanOf(request, path, response);
      report.push(explain(path, result));
      expect(missingRequired(headerMap(response.headersArray())), path).toEqual([]);
      expect(result.score, explain(path, result)).toBeGreaterThanOrEqual(100);
      expect(result.grade).toBe('A+');
      // The strong results, not just the total: no unsafe script source, clickjacking blocked by CSP.
      const by = Object.fromEntries(result.results.map((r) => [r.test, r.result]));
      expect(by['content-security-policy'], path).toMatch(/^csp-implemented-with-no-unsafe/);
      expect(by['x-frame-options'], path).toBe('x-frame-options-implemented-via-csp');
      expect(by['cross-origin-resource-sharing'], path).toBe('cross-origin-resource-sharing-not-implemented');
    }
    console.log(report.join('\n'));
  });

  test('not-found pages keep the same headers and grade', async ({ request }) => {
    test.setTimeout(90_000);
    for (const path of NOT_FOUND_PAGES) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(missingRequired(headerMap(response.headersArray())), path).toEqual([]);
      const result = await scanOf(request, path, response);
      expect(result.score, explain(path, result)).toBeGreaterThanOrEqual(100);
    }
  });
});

test.describe('headers on every other answer', { tag: '@desktop-only' }, () => {
  // Pages carry their CSS inline (astro.config.mjs), so there are no stylesheet files to check.
  test('static assets: scripts, fonts, images, media (whole, ranges, bad ranges), feeds', async ({ request }) => {
    const home = await (await request.get('/')).text();
    const script =
      /<script[^>]+src="(\/_astro\/[^"]+\.js)"/.exec(home)?.[1] ?? /"(\/_astro\/[^"]+\.js)"/.exec(home)?.[1];
    const font = /(\/_astro\/fonts\/[^")]+\.woff2)/.exec(home)?.[1];
    const assets = [
      script,
      font,
      '/favicon.svg',
      '/robots.txt',
      '/sitemap-index.xml',
      '/images/categories/civil-construction.svg',
      '/media/how-rpl-works.mp4',
      '/media/how-rpl-works.en.vtt',
    ].filter(Boolean) as string[];
    expect(assets.length).toBeGreaterThanOrEqual(7);
    for (const path of assets) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expect(missingRequired(headerMap(response.headersArray())), path).toEqual([]);
    }
    for (const range of ['bytes=0-99', 'bytes=-100', 'bytes=999999999-', 'bytes=abc']) {
      const response = await request.get('/media/how-rpl-works.mp4', { headers: { Range: range } });
      expect([206, 416], range).toContain(response.status());
      expect(missingRequired(headerMap(response.headersArray())), `Range ${range}`).toEqual([]);
    }
  });

  test('every function endpoint, including its errors', async ({ request }) => {
    test.setTimeout(240_000); // about 45 calls, each also probed for CORS; functions start cold locally
    const { auth } = await staffSession(request, 'headers');
    const json = { 'Content-Type': 'application/json' };

    const calls: [string, string, Parameters<APIRequestContext['fetch']>[1]?][] = [
      ['GET', '/api/categories'],
      ['GET', '/api/categories/civil-construction'],
      ['GET', '/api/categories/civil-construction/courses'],
      ['GET', '/api/categories/no-such-thing'],
      ['DELETE', '/api/categories'],
      ['GET', '/api/courses?search=diploma'],
      ['GET', '/api/courses?limit=abc'],
      ['GET', '/api/courses/search-options'],
      ['GET', '/api/course-details/CPC30220'],
      ['GET', '/api/course-details/NOPE0000'],
      ['GET', '/api/public/site-settings'],
      ['POST', '/api/auth/login', { headers: json, data: '{}' }],
      [
        'POST',
        '/api/auth/login',
        { headers: json, data: { username: `nobody-${Date.now()}`, password: 'wrong password' } },
      ],
      ['POST', '/api/auth/login', { headers: { 'Content-Type': 'text/plain' }, data: 'x' }],
      [
        'POST',
        '/api/auth/login',
        { headers: json, data: JSON.stringify({ username: 'x', password: 'y'.repeat(10_000) }) },
      ],
      ['GET', '/api/auth/verify'],
      ['GET', '/api/auth/verify', { headers: auth }],
      ['POST', '/api/auth/logout', { headers: { Authorization: 'Bearer not.a.token' } }],
      ['GET', '/api/admin/dashboard-stats'],
      ['GET', '/api/admin/dashboard-stats', { headers: auth }],
      ['GET', '/api/admin/site-settings', { headers: auth }],
      ['POST', '/api/admin/site-settings', { headers: { ...auth, ...json }, data: { contactInfo: {} } }],
      ['PUT', '/api/admin/site-settings', { headers: auth }],
      ['GET', '/api/admin/inquiries', { headers: auth }],
      ['GET', '/api/admin/inquiries?limit=0', { headers: auth }],
      ['GET', '/api/admin/inquiries/export.csv', { headers: auth }],
      ['GET', '/api/admin/inquiries/export.csv'],
      [
        'PATCH',
        '/api/admin/inquiries/20990101T000000000Z-00000000',
        { headers: { ...auth, ...json }, data: { status: 'handled' } },
      ],
      ['POST', '/api/email/contact', { headers: { 'Content-Type': 'text/plain' }, data: 'hello' }],
      ['POST', '/api/email/contact', { headers: json, data: JSON.stringify({ message: 'x'.repeat(40_000) }) }],
      [
        'POST',
        '/api/email/contact',
        { headers: json, data: { firstName: 'A', website: 'http://spam.example', elapsedMs: 5000 } },
      ],
      ['POST', '/api/email/quote', { headers: json, data: { elapsedMs: 5000 } }],
      ['GET', '/categories/health-fitness'],
      ['GET', '/courses/category/health-fitness'],
      ['GET', '/categories/Not_A_Slug'],
      ['GET', '/api/no-such-endpoint'],
      ['GET', '/api/blogs'],
      ['GET', '/api/blogs?page=abc'],
      ['GET', '/api/blogs/no-such-post'],
      ['GET', '/api/blogs/admin/all'],
      ['GET', '/api/blogs/admin/all', { headers: auth }],
      ['POST', '/api/blogs', { headers: { ...auth, ...json }, data: {} }],
      ['POST', '/api/blogs/no-such-post/view'],
      ['POST', '/api/upload/image'],
      ['POST', '/api/upload/image', { headers: { ...auth, ...json }, data: {} }],
      ['GET', '/api/uploads/0123456789abcdef0123456789abcdef.webp'],
    ];
    const statuses = new Set<number>();
    for (const [method, path, options] of calls) {
      const response = await request.fetch(path, { method, maxRedirects: 0, ...options });
      statuses.add(response.status());
      const where = `${method} ${path} -> ${response.status()}`;
      expect(response.status(), where).toBeLessThan(500);
      expect(missingRequired(headerMap(response.headersArray())), where).toEqual([]);
      const result = await scanOf(request, path, response);
      expect(result.score, explain(where, result)).toBeGreaterThanOrEqual(100);
    }
    // The list really covers successes, redirects and every kind of refusal.
    for (const status of [200, 301, 400, 401, 404, 405, 413, 415]) expect([...statuses]).toContain(status);
  });
});

test('the scorer itself marks weak headers down (it can fail)', async () => {
  const strong = {
    'content-security-policy': ["default-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'"],
    'strict-transport-security': ['max-age=63072000; includeSubDomains; preload'],
    'x-content-type-options': ['nosniff'],
    'referrer-policy': ['strict-origin-when-cross-origin'],
    'content-type': ['text/html'],
  };
  const of = (headers: Record<string, string[]>, body = '<script src="/a.js"></script>') =>
    scan({ url: 'https://rplpathways.com.au/', headers, body });
  expect(of(strong)).toMatchObject({ score: 115, grade: 'A+' });
  expect(
    of({
      ...strong,
      'content-security-policy': ["default-src 'self'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'"],
    }).grade,
  ).not.toBe('A+');
  expect(
    of({
      ...strong,
      'content-security-policy': [
        "default-src 'self'; script-src 'self' 'sha256-abc=' 'unsafe-inline'; frame-ancestors 'none'",
      ],
    }).score,
  ).toBe(115); // hashes cancel unsafe-inline
  expect(
    of({ ...strong, 'content-security-policy': ["default-src 'self'; default-src 'none'"] }).results[0].result,
  ).toBe('csp-header-invalid');
  const { 'content-security-policy': _csp, ...noCsp } = strong;
  expect(of(noCsp)).toMatchObject({ score: 55, grade: 'C' }); // -25 CSP, -20 no frame protection
  expect(
    of({ ...strong, 'strict-transport-security': ['max-age=300'] }).results.find(
      (r) => r.test === 'strict-transport-security',
    ),
  ).toMatchObject({ result: 'hsts-implemented-max-age-less-than-six-months', modifier: -10 });
  expect(of({ ...strong, 'strict-transport-security': ['max-age=300'] }).score).toBe(105); // 90 after penalties keeps the bonuses
  expect(of({ ...strong, 'referrer-policy': ['unsafe-url'] }).score).toBe(105);
  expect(of({ ...strong, 'strict-transport-security': [] }).score).toBe(80); // -20, and no bonuses below 90
  expect(of({ ...strong, 'set-cookie': ['session=abc; Path=/'] }).grade).not.toBe('A+');
  expect(of(strong, '<script src="http://cdn.example.com/x.js"></script>').score).toBeLessThan(100);
  expect(
    scan({
      url: 'https://x.example/',
      headers: strong,
      corsHeaders: {
        'access-control-allow-origin': ['https://evil.example'],
        'access-control-allow-credentials': ['true'],
      },
    }).score,
  ).toBeLessThan(100);
});
