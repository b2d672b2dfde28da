import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { CATALOGUE_CACHED, loadCatalogue } from '../../src/server/catalogue';
import { json, methodNotAllowed, notFound } from '../../src/server/http';
import { SlugSchema } from '../../src/schemas/catalogue';

/** GET /api/categories, /api/categories/{slug}, /api/categories/{slug}/courses. */
export default async (request: Request, context: Context) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
  // The list only at /api/categories itself: the route's parameters can be missing on other paths
  // (the local server retries a 404 as /api/categories/{slug}.html and /index.html), which must not
  // turn an unknown category into the whole list.
  const pathname = new URL(request.url).pathname.replace(/\/+$/, '');
  const { categories, courses, findCategory } = (await loadCatalogue()).catalogue.api;
  if (pathname === '/api/categories') return json(categories, { headers: CATALOGUE_CACHED });
  const route = /^\/api\/categories\/([^/]+)(\/courses)?$/.exec(pathname);
  const slug = route ? (context.params?.slug ?? route[1]) : undefined;

  // A path that cannot be a slug names no category: 404, like an unknown slug.
  const parsed = v.safeParse(SlugSchema, slug);
  const category = parsed.success ? findCategory(parsed.output) : undefined;
  if (!category) return notFound('Category not found.');

  if (route?.[2]) {
    return json(
      courses.filter((course) => course.category.slug === category.slug),
      { headers: CATALOGUE_CACHED },
    );
  }
  return json(category, { headers: CATALOGUE_CACHED });
};

export const config: Config = {
  path: ['/api/categories', '/api/categories/:slug', '/api/categories/:slug/courses'],
};
