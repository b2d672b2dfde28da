import { cachePolicies, SECURITY_HEADERS } from './http';

/**
 * Serves a pre-rendered "not found" page (e.g. /course-not-found) with a real 404 status.
 * The page is fetched from the site's configured origin only (Netlify's `URL`, or `SITE_URL`), never
 * from the address in the request: the Host header is the visitor's to choose, so building the fetch
 * address from it would let anyone make the server fetch (and relay) any host. Without a configured
 * origin, or when the fetch fails, a small plain page with the same heading and text answers instead.
 */
export async function notFoundPage(path: string, fallback: { title: string; message: string }): Promise<Response> {
  const origin = siteOrigin();
  if (origin) {
    try {
      const page = await fetch(new URL(path, origin), { redirect: 'manual' });
      if (page.ok && (page.headers.get('content-type') ?? '').startsWith('text/html')) {
        const headers = new Headers(page.headers);
        for (const name of [
          'content-length',
          'content-encoding',
          'transfer-encoding',
          'connection',
          'set-cookie',
          'x-powered-by',
        ])
          headers.delete(name);
        return new Response(await page.text(), { status: 404, headers: notFoundHeaders(headers) });
      }
    } catch {
      /* fall through to the plain page */
    }
  }
  const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!DOCTYPE html><html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(fallback.title)} | RPL Pathways</title></head><body><main><h1>${escapeHtml(fallback.title)}</h1><p>${escapeHtml(fallback.message)}</p><p><a href="/courses">Browse all courses</a></p></main></body></html>`;
  return new Response(html, {
    status: 404,
    headers: notFoundHeaders(new Headers({ ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' })),
  });
}

function notFoundHeaders(headers: Headers): Headers {
  for (const [name, value] of Object.entries(cachePolicies.notFoundPage)) headers.set(name, value);
  headers.set('x-robots-tag', 'noindex');
  return headers;
}

/** The site's own origin, from configuration only (never from a request). */
export function siteOrigin(): string | undefined {
  for (const value of [process.env.URL, process.env.SITE_URL]) {
    if (!value) continue;
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      /* not an address: try the next */
    }
  }
  return undefined;
}
