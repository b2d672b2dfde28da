/**
 * Every function answer goes through here: JSON with a real status, and the same strict
 * security headers the static pages get (Netlify's header rules do not apply to functions).
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Public catalogue answers: short browser cache, long CDN cache (refreshed by each deploy). */
export const CDN_CACHED: Record<string, string> = {
  'Cache-Control': 'public, max-age=300',
  'Netlify-CDN-Cache-Control': 'public, durable, s-maxage=86400, stale-while-revalidate=604800',
};

export const NO_STORE: Record<string, string> = { 'Cache-Control': 'no-store' };

export function json(data: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...SECURITY_HEADERS, ...NO_STORE, ...init.headers },
  });
}

export interface ErrorBody {
  message: string;
  errors?: { field: string; message: string }[];
}

export function error(status: number, message: string, errors?: ErrorBody['errors']): Response {
  return json(errors?.length ? { message, errors } : { message }, { status });
}

export const notFound = (message = 'Not found') => error(404, message);
export const methodNotAllowed = (allow: string[]) =>
  new Response(JSON.stringify({ message: `Method not allowed. Use ${allow.join(' or ')}.` }), {
    status: 405,
    headers: { 'Content-Type': 'application/json; charset=utf-8', Allow: allow.join(', '), ...SECURITY_HEADERS, ...NO_STORE },
  });

/**
 * decodeURIComponent that never throws: a malformed escape such as `%E0%A4%A` gives `null`, so a
 * handler answers it with a 4xx like any other unknown address instead of failing with a URIError.
 */
export function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
