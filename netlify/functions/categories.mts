import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { categories, courses, findCategory } from '../../src/server/catalogue';
import { cachePolicies, json, methodNotAllowed, notFound } from '../../src/server/http';
import { SlugSchema } from '../../src/schemas/catalogue';

/** GET /api/categories, /api/categories/{slug}, /api/categories/{slug}/courses (SPEC 7). */
export default async (request: Request, context: Context) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
  // The list only at /api/categories itself: the route's parameters can be missing on other paths
  // (the local server retries a 404 as /api/categories/{slug}.html and /index.html), which must not
  // turn an unknown category into the whole list.
  const pathname = new URL(request.url).pathname.replace(/\/+$/, '');
  if (pathname === '/api/categories') return json(categories, { headers: cachePolicies.publicCatalogue });
  const route = /^\/api\/categories\/([^/]+)(\/courses)?$/.exec(pathname);
  const slug = route ? context.params?.slug ?? route[1] : undefined;

  // A path that cannot be a slug names no category: 404, like an unknown slug.
  const parsed = v.safeParse(SlugSchema, slug);
  const category = parsed.success ? findCategory(parsed.output) : undefined;
  if (!category) return notFound('Category not found.');

  if (route?.[2]) {
    return json(courses.filter((course) => course.category.slug === category.slug), { headers: cachePolicies.publicCatalogue });
  }
  return json(category, { headers: cachePolicies.publicCatalogue });
};

export const config: Config = {
  path: ['/api/categories', '/api/categories/:slug', '/api/categories/:slug/courses'],
};
