import type { Config } from '@netlify/functions';
import { loadCatalogue } from '../../src/server/catalogue';
import { SECURITY_HEADERS } from '../../src/server/http';
import { notFoundPage } from '../../src/server/not-found-page';

/**
 * Course pages are pre-rendered for every code in the catalogue; `preferStatic` lets those win.
 * Any other /courses/{code} lands here: a superseded code or a code in the wrong case gets a 301
 * (the current catalogue, so a course retired by staff points to its successor), anything else the 'Course Not Found' page with a real 404 status.
 * The page comes from the site's configured origin, never from the request's Host (src/server/not-found-page.ts).
 */
export default async (request: Request) => {
  const moved = (await loadCatalogue()).catalogue.courseRedirect(new URL(request.url).pathname);
  if (moved)
    return new Response(null, {
      status: 301,
      headers: { ...SECURITY_HEADERS, location: moved, 'cache-control': 'public, max-age=3600' },
    });
  return notFoundPage('/course-not-found', { title: 'Course Not Found', message: 'Course not found or unavailable' });
};

export const config: Config = {
  path: '/courses/:code',
  preferStatic: true,
};
