import { error } from './http.ts';
import { getUser, type UserRecord } from './users.ts';
import { AuthNotConfiguredError, isRevoked, readToken } from './tokens.ts';

export const SESSION_EXPIRED = 'Your session has ended. Please log in again.';

export type AuthResult = { ok: true; user: UserRecord; sessionId: string } | { ok: false; response: Response };

/** The bearer token of a request, if it carries one. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{10,4096})$/i.exec(header.trim());
  return match ? match[1] : null;
}

/**
 * Every admin endpoint starts here: a valid, unexpired, unrevoked token of an existing, active account
 * whose session has not been ended, or 401. (Nothing is written here, so a refused request changes nothing.)
 * (Without a JWT secret the platform is misconfigured: 503, never an open door.)
 */
export async function authenticate(request: Request): Promise<AuthResult> {
  const token = bearerToken(request);
  if (!token) return { ok: false, response: unauthorized('Please log in to continue.') };
  try {
    const claims = await readToken(token);
    if (!claims) return { ok: false, response: unauthorized(SESSION_EXPIRED) };
    const user = await getUser(claims.username);
    if (!user || isRevoked(claims, user)) return { ok: false, response: unauthorized(SESSION_EXPIRED) };
    return { ok: true, user, sessionId: claims.sessionId };
  } catch (cause) {
    if (cause instanceof AuthNotConfiguredError) return { ok: false, response: notConfigured() };
    throw cause;
  }
}

export function unauthorized(message: string): Response {
  const response = error(401, message);
  response.headers.set('WWW-Authenticate', 'Bearer realm="admin"');
  return response;
}

export function notConfigured(): Response {
  console.error('Staff sign-in is disabled: set JWT_SECRET (at least 32 random characters).');
  return error(503, 'Sign-in is not available right now. Please try again later.');
}
