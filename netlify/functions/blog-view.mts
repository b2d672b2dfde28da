import type { Config } from '@netlify/functions';
import * as v from 'valibot';
import { error, json, methodNotAllowed, safeDecode } from '../../src/server/http';
import { countView } from '../../src/server/blog-reads';
import { BlogSlugSchema } from '../../src/schemas/blog';
import { BLOG_NOT_FOUND } from '../../src/server/blog-http';

/**
 * POST /api/blogs/{slug}/view -> {views}. Sent once per page view by the post page (the cached page
 * itself counts nothing). Counted apart from the post, so a view never changes the post's version.
 */
export default async (request: Request) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  // A malformed escape (null) names no post, like an unknown slug.
  const slug = safeDecode(new URL(request.url).pathname.split('/')[3] ?? '');
  if (slug === null || !v.is(BlogSlugSchema, slug)) return error(404, BLOG_NOT_FOUND);
  const views = await countView(slug);
  if (views === null) return error(404, BLOG_NOT_FOUND);
  return json({ views });
};

export const config: Config = {
  path: '/api/blogs/:slug/view',
  method: 'POST',
  // One reader cannot inflate the count much: the platform limits calls per address.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
