import type { Config } from '@netlify/functions';
import { courseRedirect } from '../../src/lib/course-redirects';
import { SECURITY_HEADERS } from '../../src/server/http';

/**
 * Course pages are pre-rendered for every code in the catalogue; `preferStatic` lets those win.
 * Any other /courses/{code} lands here and gets the 'Course Not Found' page with a real 404 status.
 */
export default async (request: Request) => {
  const moved = courseRedirect(new URL(request.url).pathname); // superseded code or wrong case: 301 (src/lib/course-redirects.ts)
  if (moved) return new Response(null, { status: 301, headers: { ...SECURITY_HEADERS, location: moved, 'cache-control': 'public, max-age=3600' } });
  const page = await fetch(new URL('/course-not-found', request.url));
  const headers = new Headers(page.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  headers.set('cache-control', 'public, max-age=0, must-revalidate');
  headers.set('x-robots-tag', 'noindex');
  return new Response(await page.text(), { status: 404, headers });
};

export const config: Config = {
  path: '/courses/:code',
  preferStatic: true,
};
