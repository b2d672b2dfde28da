import type { Config } from '@netlify/functions';

/**
 * Course pages are pre-rendered for every code in the catalogue; `preferStatic` lets those win.
 * Any other /courses/{code} lands here and gets the 'Course Not Found' page with a real 404 status.
 */
export default async (request: Request) => {
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
