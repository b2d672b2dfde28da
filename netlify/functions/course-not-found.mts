import type { Config } from '@netlify/functions';
import { notFoundPage } from '../../src/server/not-found-page';

/**
 * Course pages are pre-rendered for every code in the catalogue; `preferStatic` lets those win.
 * Any other /courses/{code} lands here and gets the 'Course Not Found' page with a real 404 status.
 * The page comes from the site's configured origin, never from the request's Host (src/server/not-found-page.ts).
 */
export default async (_request: Request) => {
  return notFoundPage('/course-not-found', { title: 'Course Not Found', message: 'Course not found or unavailable' });
};

export const config: Config = {
  path: '/courses/:code',
  preferStatic: true,
};
