import { clearSession, readSession, redirectToLogin } from './session';

/** SPEC 7: the configured API address, else this site's /api; JSON; bearer token; 10 s timeout. */
const BASE = (import.meta.env.PUBLIC_API_URL as string | undefined)?.replace(/\/$/, '') || '/api';
export const API_TIMEOUT_MS = 10_000;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: { field: string; message: string }[] = [],
    /** True when the message is the server's own words, not a fallback made up here. */
    readonly fromServer = false,
  ) {
    super(message);
  }
}

export const NETWORK_ERROR = 'Network error. Please try again.';

interface Options {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Sign-in itself answers 401 for a wrong password; only other calls end the session on 401. */
  endSessionOn401?: boolean;
}

export async function api<T>(path: string, { method = 'GET', body, endSessionOn401 = true }: Options = {}): Promise<T> {
  const token = readSession()?.token;
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch (cause) {
    console.error(`${method} ${path} failed`, cause);
    throw new ApiError(NETWORK_ERROR, 0);
  }
  const data = (await response.json().catch(() => ({}))) as { message?: string; errors?: ApiError['errors'] };
  if (response.status === 401 && endSessionOn401) {
    // SPEC 4: any 401 removes the token and sends the user to the login page.
    clearSession();
    redirectToLogin();
  }
  if (!response.ok) {
    const serverText = typeof data.message === 'string' && data.message.trim() !== '';
    throw new ApiError(serverText ? data.message! : `Request failed (${response.status})`, response.status, data.errors ?? [], serverText);
  }
  return data as T;
}
