import { describe, expect, it } from 'vitest';
import type { Context } from '@netlify/functions';
import blogs from '../../netlify/functions/blogs.mts';
import blogView from '../../netlify/functions/blog-view.mts';
import uploads from '../../netlify/functions/uploads.mts';
import categories from '../../netlify/functions/categories.mts';
import courseDetails from '../../netlify/functions/course-details.mts';
import { SECURITY_HEADERS, safeDecode } from '../../src/server/http';

type Handler = (request: Request, context: Context) => Promise<Response | undefined>;
const BAD = '%E0%A4%A';

describe('finding 1: one request stops the local site (malformed escapes in function addresses)', () => {
  it('safeDecode gives null for a malformed escape and decodes good ones', () => {
    expect(safeDecode(BAD)).toBeNull();
    expect(safeDecode('%')).toBeNull();
    expect(safeDecode('caf%C3%A9')).toBe('café');
  });

  it.each<[string, Handler, string, string, Record<string, string>]>([
    ['GET /api/blogs/{slug}', blogs as Handler, 'GET', `/api/blogs/${BAD}`, { slug: BAD }],
    ['PUT /api/blogs/{id}', blogs as Handler, 'PUT', `/api/blogs/${BAD}`, { slug: BAD }],
    ['DELETE /api/blogs/{id}', blogs as Handler, 'DELETE', `/api/blogs/x${BAD}`, { slug: `x${BAD}` }],
    ['POST /api/blogs/{slug}/view', blogView as Handler, 'POST', `/api/blogs/${BAD}/view`, { slug: BAD }],
    ['GET /api/uploads/{key}', uploads as Handler, 'GET', `/api/uploads/${BAD}.webp`, { key: `${BAD}.webp` }],
    ['GET /api/categories/{slug}', categories as Handler, 'GET', `/api/categories/${BAD}`, { slug: BAD }],
    [
      'GET /api/categories/{slug}/courses',
      categories as Handler,
      'GET',
      `/api/categories/${BAD}/courses`,
      { slug: BAD },
    ],
    ['GET /api/course-details/{code}', courseDetails as Handler, 'GET', `/api/course-details/${BAD}`, { code: BAD }],
  ])(
    '%s answers a malformed escape with a JSON 404 and the security headers',
    async (_name, handler, method, path, params) => {
      const response = await handler(
        new Request(`http://localhost${path}?q=${BAD}`, { method, body: method === 'PUT' ? '{}' : undefined }),
        { params } as unknown as Context,
      );
      expect(response).toBeInstanceOf(Response);
      const answer = response as Response;
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toContain('application/json');
      expect(await answer.json()).toEqual({ message: expect.any(String) });
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        if (name === 'Content-Security-Policy' || name === 'Cross-Origin-Resource-Policy')
          expect(answer.headers.get(name)).toBeTruthy();
        else expect(answer.headers.get(name)).toBe(value);
      }
    },
  );
});
