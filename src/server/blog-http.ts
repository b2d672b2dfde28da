import { cachePolicies, json } from './http.ts';
import { LIST_CACHE_TAG, CACHE_TAG, postCacheTag } from './blogs.ts';

/**
 * Public blog answers (pages and API): the browser always revalidates, the CDN keeps them until a
 * write purges them by tag (src/server/blogs.ts purgeBlogCache), so a publish shows at once.
 */
export function blogCacheHeaders(tags: string[], vary?: string): Record<string, string> {
  return {
    ...cachePolicies.blog,
    'Netlify-Cache-Tag': [CACHE_TAG, ...tags].join(','),
    ...(vary ? { 'Netlify-Vary': vary } : {}),
  };
}

export const listCacheHeaders = () => blogCacheHeaders([LIST_CACHE_TAG], 'query=page|limit|search');
export const postCacheHeaders = (slug: string) => blogCacheHeaders([postCacheTag(slug)]);

export const BLOG_NOT_FOUND = 'Blog not found or no longer available.';

export function cachedJson(data: unknown, headers: Record<string, string>, status = 200): Response {
  return json(data, { status, headers });
}
