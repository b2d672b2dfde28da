import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { CATALOGUE_CACHED, loadCatalogue } from '../../src/server/catalogue';
import { json, methodNotAllowed, notFound } from '../../src/server/http';
import { CourseCodeSchema } from '../../src/schemas/catalogue';

/** GET /api/course-details/{courseCode}: the written details of one published course. */
export default async (request: Request, context: Context) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
  // A path that cannot be a course code names no course: 404, like an unknown code.
  const parsed = v.safeParse(CourseCodeSchema, context.params.code ?? '');
  const detail = parsed.success ? (await loadCatalogue()).catalogue.api.findCourseDetail(parsed.output) : undefined;
  return detail ? json(detail, { headers: CATALOGUE_CACHED }) : notFound('Course not found or unavailable');
};

export const config: Config = {
  path: '/api/course-details/:code',
};
