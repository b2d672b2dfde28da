import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { cachePolicies, SECURITY_HEADERS } from '../../src/server/http';
import { SlugSchema } from '../../src/schemas/catalogue';

/**
 * The category page's canonical address is /category/{slug}; other readings of the route are old addresses.
 * Old addresses answer a permanent redirect; anything that is not a slug is simply not found.
 * A function rather than a redirect rule, so the local server and production behave the same. Netlify's
 * header rules do not reach function answers, so these carry the security headers themselves.
 */
export default async (request: Request, context: Context) => {
  const slug = context.params.slug ?? '';
  if (!v.is(SlugSchema, slug)) {
    return new Response('Not found', {
      status: 404,
      headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  return new Response(null, {
    status: 301,
    headers: {
      ...SECURITY_HEADERS,
      location: new URL(`/category/${slug}`, request.url).pathname,
      ...cachePolicies.redirectDay,
    },
  });
};

export const config: Config = {
  path: ['/categories/:slug', '/courses/category/:slug'],
};
