import type { Config, Context } from '@netlify/functions';
import { CATALOGUE_CACHED, loadCatalogue } from '../../src/server/catalogue';
import { searchCourses } from '../../src/lib/course-search';
import { json, methodNotAllowed } from '../../src/server/http';
import { parseQuery } from '../../src/server/validation';
import { CourseQuerySchema } from '../../src/schemas/catalogue';

/**
 * GET /api/courses?search&category&level&featured&limit -> { courses, total }
 * GET /api/courses/search-options -> { categories, levels }
 */
export default async (request: Request, _context: Context) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
  const url = new URL(request.url);
  const { catalogue } = await loadCatalogue();
  const { searchOptions, courseFromSummary } = catalogue.api;
  if (url.pathname.endsWith('/search-options')) return json(searchOptions, { headers: CATALOGUE_CACHED });

  const query = parseQuery(CourseQuerySchema, url);
  if (!query.ok) return query.response;
  const { search, category, level, featured, limit } = query.data;
  let found = searchCourses(catalogue.summaries, { search, category, level });
  if (featured) found = found.filter((course) => course.featured === (featured === 'true'));
  return json(
    { courses: found.slice(0, limit).map(courseFromSummary), total: found.length },
    { headers: CATALOGUE_CACHED },
  );
};

export const config: Config = {
  path: ['/api/courses', '/api/courses/search-options'],
};
