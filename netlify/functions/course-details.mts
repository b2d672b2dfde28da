import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { findCourseDetail } from '../../src/server/catalogue';
import { cachePolicies, json, methodNotAllowed, notFound } from '../../src/server/http';
import { CourseCodeSchema } from '../../src/schemas/catalogue';

/** GET /api/course-details/{courseCode} (SPEC 3 course detail). */
export default async (request: Request, context: Context) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
  // A path that cannot be a course code names no course: 404, like an unknown code.
  const parsed = v.safeParse(CourseCodeSchema, context.params.code ?? '');
  const detail = parsed.success ? findCourseDetail(parsed.output) : undefined;
  return detail ? json(detail, { headers: cachePolicies.publicCatalogue }) : notFound('Course not found or unavailable');
};

export const config: Config = {
  path: '/api/course-details/:code',
};
