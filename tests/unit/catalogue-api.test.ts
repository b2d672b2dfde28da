import { describe, expect, it } from 'vitest';
import type { Context } from '@netlify/functions';
import categoriesHandler from '../../netlify/functions/categories.mts';
import coursesHandler from '../../netlify/functions/courses.mts';
import detailsHandler from '../../netlify/functions/course-details.mts';
import redirectHandler from '../../netlify/functions/category-redirect.mts';
import coursesJson from '../../content/courses.json';
import { SEARCH_MAX_LENGTH } from '../../src/lib/course-search';
import { SEARCH_TEXT_LIMIT } from '../../src/schemas/catalogue';
import { LIMITS } from '../../src/schemas/inquiry';

const call = async (
  handler: (r: Request, c: Context) => Promise<Response>,
  path: string,
  params: Record<string, string> = {},
  method = 'GET',
) => {
  const response = await handler(new Request(`http://localhost${path}`, { method }), { params } as unknown as Context);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
};

describe('GET /api/categories', () => {
  it('lists the categories with counts and pictures, cacheable at the CDN', async () => {
    const { status, body, headers } = await call(categoriesHandler, '/api/categories');
    expect(status).toBe(200);
    expect(body).toHaveLength(11);
    expect(body[0]).toMatchObject({
      _id: expect.any(String),
      slug: expect.any(String),
      color: expect.stringMatching(/^#/),
      courseCount: expect.any(Number),
    });
    expect(headers.get('netlify-cdn-cache-control')).toContain('s-maxage');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });
  it('answers one category by slug and 404 JSON for an unknown or malformed one', async () => {
    expect(
      (await call(categoriesHandler, '/api/categories/health-fitness', { slug: 'health-fitness' })).body.name,
    ).toBe('Health & Fitness');
    const missing = await call(categoriesHandler, '/api/categories/aviation', { slug: 'aviation' });
    expect(missing).toMatchObject({ status: 404, body: { message: 'Category not found.' } });
    expect((await call(categoriesHandler, '/api/categories/x', { slug: '<script>' })).status).toBe(404);
  });
  it("lists a category's courses", async () => {
    const { body } = await call(categoriesHandler, '/api/categories/security-cleaning/courses', {
      slug: 'security-cleaning',
    });
    expect(body).toHaveLength(10);
    expect(body.every((c: { category: { slug: string } }) => c.category.slug === 'security-cleaning')).toBe(true);
  });
  it('refuses other methods', async () => {
    expect((await call(categoriesHandler, '/api/categories', {}, 'POST')).status).toBe(405);
  });
});

describe('GET /api/courses', () => {
  it('returns every course with its category object by default (limit 1000)', async () => {
    const { body } = await call(coursesHandler, '/api/courses');
    expect(body.total).toBe(coursesJson.length);
    expect(body.courses).toHaveLength(coursesJson.length);
    expect(body.courses[0].category).toMatchObject({ _id: expect.any(String), color: expect.stringMatching(/^#/) });
  });
  it('searches, filters and limits', async () => {
    const { body } = await call(coursesHandler, '/api/courses?search=%20%20bsb50120&limit=5');
    expect(body.courses[0].code).toBe('BSB50120');
    const diplomas = await call(coursesHandler, '/api/courses?category=civil-construction&level=Diploma');
    expect(diplomas.body.courses.every((c: { level: string }) => c.level === 'Diploma')).toBe(true);
    const featured = await call(coursesHandler, '/api/courses?featured=true');
    expect(featured.body.total).toBe(22);
  });
  it.each([
    ['limit=0'],
    ['limit=1001'],
    ['limit=abc'],
    ['level=Masters'],
    ['category=Not%20A%20Slug'],
    ['featured=yes'],
  ])('answers 400 with a message for %s', async (query) => {
    const { status, body } = await call(coursesHandler, `/api/courses?${query}`);
    expect(status).toBe(400);
    expect(body.message).toEqual(expect.any(String));
    expect(body.errors[0].field).toEqual(expect.any(String));
  });
  it('finding 2: a 120-character sentence about tiling answers tiling first, no 400 and not the whole catalogue', async () => {
    const sentence =
      'I have been doing tiling for 15 years mostly bathrooms and splashbacks and some commercial work, no formal papers at all';
    expect(sentence.length).toBeGreaterThan(100);
    const { status, body } = await call(coursesHandler, `/api/courses?${new URLSearchParams({ search: sentence })}`);
    expect(status).toBe(200);
    expect(body.courses[0].code).toBe('CPC31320');
    expect(body.total).toBeLessThanOrEqual(3);
    expect(body.note).toBeUndefined();
  });
  it('finding 2: a text longer than the experience field is trimmed with a note, never refused or answered with everything', async () => {
    const long = `tiler ${'and more about my work '.repeat(120)}`;
    expect(long.length).toBeGreaterThan(LIMITS.longText);
    const { status, body } = await call(coursesHandler, `/api/courses?${new URLSearchParams({ search: long })}`);
    expect(status).toBe(200);
    expect(body.note).toMatch(/first 2,000 characters/);
    expect(body.courses[0].code).toBe('CPC31320');
    expect(body.total).toBeLessThan(10);
    expect(SEARCH_MAX_LENGTH).toBe(LIMITS.longText);
    expect(SEARCH_TEXT_LIMIT).toBe(LIMITS.longText);
  });
  it('finding 1: a trade the catalogue lacks gets no course and says which trade, not a neighbour', async () => {
    for (const search of ['real estate agent', 'A grade electrician trained in UK', 'truck driver HR licence']) {
      const { status, body } = await call(coursesHandler, `/api/courses?${new URLSearchParams({ search })}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ courses: [], total: 0, notOffered: expect.any(String) });
    }
  });
  it('serves the search options', async () => {
    const { body } = await call(coursesHandler, '/api/courses/search-options');
    expect(body.categories).toHaveLength(11);
    expect(body.levels[0]).toBe('Certificate II');
  });
});

describe('GET /api/course-details/{code}', () => {
  it('answers the course detail shape, case-insensitively', async () => {
    const { status, body } = await call(detailsHandler, '/api/course-details/chc33021', { code: 'chc33021' });
    expect(status).toBe(200);
    for (const key of [
      'courseCode',
      'courseTitle',
      'courseOverview',
      'aboutCertification',
      'scopeOfWork',
      'experienceRequirements',
      'eligibility',
      'regulatoryRequirements',
      'careerOutcomes',
      'studyPathway',
      'assessmentMethods',
    ]) {
      expect(body, key).toHaveProperty(key);
    }
    expect(body.courseCode).toBe('CHC33021');
  });
  it('answers 404 JSON for an unknown or malformed code', async () => {
    expect(await call(detailsHandler, '/api/course-details/ABC12345', { code: 'ABC12345' })).toMatchObject({
      status: 404,
      body: { message: 'Course not found or unavailable' },
    });
    expect(await call(detailsHandler, '/api/course-details/x', { code: '../../etc' })).toMatchObject({
      status: 404,
      body: { message: 'Course not found or unavailable' },
    });
  });
});

describe('legacy category addresses', () => {
  it('redirect permanently to /category/{slug}', async () => {
    const response = await redirectHandler(new Request('http://localhost/categories/health-fitness'), {
      params: { slug: 'health-fitness' },
    } as unknown as Context);
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/category/health-fitness');
  });
});
