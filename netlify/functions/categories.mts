import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { categories, courses, findCategory } from '../../src/server/catalogue';
import { CDN_CACHED, json, methodNotAllowed, notFound } from '../../src/server/http';
import { SlugSchema } from '../../src/schemas/catalogue';

/** GET /api/categories, /api/categories/{slug}, /api/categories/{slug}/courses (SPEC 7). */
export default async (request: Request, context: Context) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
  const { slug } = context.params;
  if (slug === undefined) return json(categories, { headers: CDN_CACHED });

  // A path that cannot be a slug names no category: 404, like an unknown slug.
  const parsed = v.safeParse(SlugSchema, slug);
  const category = parsed.success ? findCategory(parsed.output) : undefined;
  if (!category) return notFound('Category not found.');

  if (new URL(request.url).pathname.endsWith('/courses')) {
    return json(courses.filter((course) => course.category.slug === category.slug), { headers: CDN_CACHED });
  }
  return json(category, { headers: CDN_CACHED });
};

export const config: Config = {
  path: ['/api/categories', '/api/categories/:slug', '/api/categories/:slug/courses'],
};
