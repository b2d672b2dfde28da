import type { MiddlewareHandler } from 'astro';
import { SECURITY_HEADERS } from './server/security-headers.ts';

/**
 * Pages rendered on request (search results, the blog) are answered by a function, and Netlify's header
 * rules in netlify.toml only reach files it serves itself. These pages get the same security headers
 * here; their Content-Security-Policy (with the hashes of their inline scripts) comes from Astro.
 * Pre-rendered pages are left alone: their headers come from netlify.toml and the build.
 */
const PAGE_HEADERS = Object.entries(SECURITY_HEADERS).filter(([name]) => name !== 'Content-Security-Policy');

export const onRequest: MiddlewareHandler = async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of PAGE_HEADERS) if (!headers.has(name)) headers.set(name, value);
  // A fresh Response: some (redirects, fetched answers) have immutable headers.
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};
