import type { Config, Context } from '@netlify/functions';
import { cachePolicies, SECURITY_HEADERS } from '../../src/server/http';

/**
 * The category page's canonical address is /category/{slug} (SPEC 2.1 lists other readings of the route).
 * Old addresses answer a permanent redirect; anything that is not a slug is simply not found.
 * A function rather than a redirect rule, so the local server and production behave the same. Netlify's
 * header rules do not reach function answers, so these carry the security headers themselves.
 */
export default async (request: Request, context: Context) => {
  const slug = context.params.slug ?? '';
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 80) {
    return new Response('Not found', { status: 404, headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
  }
  return new Response(null, {
    status: 301,
    headers: { ...SECURITY_HEADERS, location: new URL(`/category/${slug}`, request.url).pathname, ...cachePolicies.redirectDay },
  });
};

export const config: Config = {
  path: ['/categories/:slug', '/courses/category/:slug'],
};
