import { SECURITY_HEADERS } from './security-headers.ts';

/**
 * The request/response layer every function uses: JSON answers with a real status and the security
 * headers the static pages get (Netlify's header rules do not apply to functions), one error shape,
 * one capped body reader and the named cache policies.
 */
export { SECURITY_HEADERS };

type HeaderMap = Record<string, string>;

/**
 * Cache policies by name, for functions and pages rendered on request. `Cache-Control` is for browsers;
 * `Netlify-CDN-Cache-Control` for Netlify's CDN only (durable: shared by all edge nodes). Times are in
 * docs/limits.md.
 */
export const cachePolicies = {
  /** Never kept anywhere: admin, sign-in and form answers, errors. */
  noStore: { 'Cache-Control': 'no-store' },
  /** Catalogue API: five minutes in the browser, a day at the CDN (each deploy starts afresh). */
  publicCatalogue: {
    'Cache-Control': 'public, max-age=300',
    'Netlify-CDN-Cache-Control': 'public, durable, s-maxage=86400, stale-while-revalidate=604800',
  },
  /** Search result pages: the browser always asks again, the CDN keeps each query for a day. */
  searchPage: {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Netlify-CDN-Cache-Control': 'public, durable, s-maxage=86400, stale-while-revalidate=604800',
  },
  /** Blog pages, feeds and API: the CDN keeps them until a write purges their tags (src/server/blogs.ts). */
  blog: {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Netlify-CDN-Cache-Control': 'public, durable, s-maxage=31536000, stale-while-revalidate=60',
  },
  /** Public site settings: kept at the CDN until a change purges them, never served stale. */
  siteSettings: {
    'Cache-Control': 'public, max-age=0, must-revalidate',
    'Netlify-CDN-Cache-Control': 'public, durable, s-maxage=31536000',
  },
  /** Not-found pages: the same for everyone, but the address may exist tomorrow. */
  notFoundPage: { 'Cache-Control': 'public, max-age=0, must-revalidate' },
  /** Uploaded images: each upload gets a fresh name, so an address never changes its content. */
  upload: {
    'Cache-Control': 'public, max-age=31536000, immutable',
    'Netlify-CDN-Cache-Control': 'public, durable, max-age=31536000, immutable',
  },
  /** Permanent redirects of old addresses. */
  redirectHour: { 'Cache-Control': 'public, max-age=3600' },
  redirectDay: { 'Cache-Control': 'public, max-age=86400' },
} as const satisfies Record<string, HeaderMap>;

export function json(data: unknown, init: { status?: number; headers?: HeaderMap } = {}): Response {
  return new Response(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...SECURITY_HEADERS,
      ...cachePolicies.noStore,
      ...init.headers,
    },
  });
}

export type FieldError = { field: string; message: string };

/** The one error shape: `{ message, errors? }`, `errors` only when there are field errors. */
export function errorBody(message: string, errors?: FieldError[]): { message: string; errors?: FieldError[] } {
  return errors?.length ? { message, errors } : { message };
}

export function error(status: number, message: string, errors?: FieldError[], headers?: HeaderMap): Response {
  return json(errorBody(message, errors), { status, headers });
}

export const notFound = (message = 'Not found') => error(404, message);

/** Input refused for a reason the sender can fix: answered with its status, message and the field at fault, if any. */
export class RefusedInput extends Error {
  readonly status: number;
  readonly field: string | undefined;
  constructor(status: number, message: string, field?: string) {
    super(message);
    this.status = status;
    this.field = field;
  }

  answer(): Response {
    return error(this.status, this.message, this.field ? [{ field: this.field, message: this.message }] : undefined);
  }
}
export const methodNotAllowed = (allow: string[]) =>
  error(405, `Method not allowed. Use ${allow.join(' or ')}.`, undefined, { Allow: allow.join(', ') });

/**
 * The whole request body, read with a hard cap: null as soon as it grows past `maxBytes` (or when
 * Content-Length already says so), whatever the client declared. Throws only when the stream fails.
 */
export async function readCappedBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

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
