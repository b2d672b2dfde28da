import { clearSession, readSession, redirectToLogin } from './session';

/** The configured API address, else this site's /api; JSON (or a form for uploads); bearer token; time limit. */
const BASE = (import.meta.env.PUBLIC_API_URL as string | undefined)?.replace(/\/$/, '') || '/api';
export const API_TIMEOUT_MS = 10_000;

/** A refused or failed call: the status, the server's message and field errors, and its whole answer. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: { field: string; message: string }[] = [],
    /** True when the message is the server's own words, not a fallback made up here. */
    readonly fromServer = false,
    /** The parsed JSON answer (e.g. the newer post a 409 carries); undefined when there was none. */
    readonly body: unknown = undefined,
  ) {
    super(message);
  }
}

export const NETWORK_ERROR = 'Network error. Please try again.';

/**
 * What a screen says about a failed call: the server's own words, or the network message, else the screen's
 * own fallback (the specification's text), never the stand-in "Request failed (500)".
 */
export function failureText(cause: unknown, fallback: string): string {
  if (cause instanceof ApiError && (cause.fromServer || cause.status === 0)) return cause.message;
  return fallback;
}

interface Options {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as it is when it is a FormData (multipart uploads). */
  body?: unknown;
  /** Sign-in itself answers 401 for a wrong password; only other calls end the session on 401. */
  endSessionOn401?: boolean;
  timeoutMs?: number;
}

/** The one client of the admin: every call goes through here, so errors look the same everywhere. */
export async function api<T>(
  path: string,
  { method = 'GET', body, endSessionOn401 = true, timeoutMs = API_TIMEOUT_MS }: Options = {},
): Promise<T> {
  const token = readSession()?.token;
  const isForm = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (cause) {
    console.error(`${method} ${path} failed`, cause);
    throw new ApiError(NETWORK_ERROR, 0);
  }
  const data: unknown = await response.json().catch(() => undefined);
  const fields = (typeof data === 'object' && data !== null ? data : {}) as { message?: unknown; errors?: unknown };
  if (response.status === 401 && endSessionOn401) {
    // Any 401 ends the session and sends the user to the login page.
    clearSession();
    redirectToLogin();
  }
  if (!response.ok) {
    const serverText = typeof fields.message === 'string' && fields.message.trim() !== '';
    const errors = Array.isArray(fields.errors) ? (fields.errors as ApiError['errors']) : [];
    throw new ApiError(
      serverText ? (fields.message as string) : `Request failed (${response.status})`,
      response.status,
      errors,
      serverText,
      data,
    );
  }
  return (data ?? {}) as T;
}
