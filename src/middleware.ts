import type { MiddlewareHandler } from 'astro';
import { SECURITY_HEADERS } from './server/security-headers.ts';
import { pagePolicy } from './lib/page-policy.mjs';

/**
 * Pages rendered on request (search results, the blog) are answered by a function, and Netlify's header
 * rules in netlify.toml only reach files it serves itself. These pages get the same security headers
 * here; their Content-Security-Policy comes from Astro, trimmed to the hashes of the inline scripts and
 * styles the page really contains (Astro lists every hash of the site: some 3 KB of header in front of
 * the page's first byte), as scripts/postbuild-headers.mjs does for pre-rendered pages.
 * Pre-rendered pages are left alone: their headers come from netlify.toml and the build.
 */
const PAGE_HEADERS = Object.entries(SECURITY_HEADERS).filter(([name]) => name !== 'Content-Security-Policy');

export const onRequest: MiddlewareHandler = async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of PAGE_HEADERS) if (!headers.has(name)) headers.set(name, value);
  const policy = headers.get('Content-Security-Policy');
  if (policy && headers.get('Content-Type')?.startsWith('text/html')) {
    const html = await response.text();
    headers.set('Content-Security-Policy', pagePolicy(policy, html));
    return new Response(html, { status: response.status, statusText: response.statusText, headers });
  }
  // A fresh Response: some (redirects, fetched answers) have immutable headers.
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};
