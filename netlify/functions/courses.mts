import type { Config, Context } from '@netlify/functions';
import { CATALOGUE_CACHED, loadCatalogue } from '../../src/server/catalogue';
import { answerSearch } from '../../src/lib/course-search';
import { searchNote } from '../../src/lib/search-query';
import { json, methodNotAllowed } from '../../src/server/http';
import { parseQuery } from '../../src/server/validation';
import { CourseQuerySchema } from '../../src/schemas/catalogue';

/**
 * GET /api/courses?search&category&level&featured&limit -> { courses, total, notOffered?, note? }: only the
 * matches the search is confident of (none is a valid answer); a search text over 2,000 characters is cut
 * to them, with a note.
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
  const answer = answerSearch(catalogue.summaries, { search, category, level });
  let found = answer.courses;
  if (featured) found = found.filter((course) => course.featured === (featured === 'true'));
  const note = searchNote(url.searchParams);
  return json(
    {
      courses: found.slice(0, limit).map(courseFromSummary),
      total: found.length,
      // Said with an empty answer to a text naming a trade the catalogue lacks ("electrician").
      ...(answer.notOffered && !found.length ? { notOffered: answer.notOffered } : {}),
      ...(note ? { note } : {}),
    },
    { headers: CATALOGUE_CACHED },
  );
};

export const config: Config = {
  path: ['/api/courses', '/api/courses/search-options'],
};
