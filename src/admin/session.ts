import * as v from 'valibot';
import { PublicUserSchema, type PublicUser } from '../schemas/auth';

/** The session lives in localStorage under the keys "token" and "user". */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
export const LOGIN_PATH = '/admin/login';
export const HOME_PATH = '/admin/dashboard';

export interface Session {
  token: string;
  user: PublicUser;
}

export function readSession(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const raw = localStorage.getItem(USER_KEY);
    if (!token || !raw) return null;
    const user = v.safeParse(PublicUserSchema, JSON.parse(raw));
    return user.success ? { token, user: user.output } : null;
  } catch {
    return null;
  }
}

export function writeSession(session: Session): void {
  localStorage.setItem(TOKEN_KEY, session.token);
  localStorage.setItem(USER_KEY, JSON.stringify(session.user));
}

export function clearSession(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
  } catch {
    /* storage disabled: nothing to clear */
  }
}

/** Only admin pages of this site may be returned to after login (no open redirect). */
export function safeNext(next: string | null | undefined): string {
  if (!next || !/^\/admin\/[a-z0-9/-]*(\?[^#\s]*)?$/i.test(next) || next.startsWith(LOGIN_PATH)) return HOME_PATH;
  return next;
}

/** Set once the page is on its way to the login page (Logout, or a redirect below): later 401s change nothing. */
let leaving = false;
/**
 * Called when the staff member chose Logout: the page is about to go to the plain login page, so a call of the
 * same page that meets the now revoked token (401) must not send them to the login page "to come back here".
 */
export function markSigningOut(): void {
  leaving = true;
}

/**
 * Goes to the login page, replacing history and remembering where the visitor wanted to go. Once per page: when a
 * session ends, each of the page's calls meets a 401 and the page itself sees no session, and every further
 * navigation to the same place would cancel the one already under way (the browser aborts it).
 */
export function redirectToLogin(from: string = location.pathname + location.search): void {
  if (leaving) return;
  leaving = true;
  const next = safeNext(from);
  location.replace(
    next === HOME_PATH && !from.startsWith(HOME_PATH) ? LOGIN_PATH : `${LOGIN_PATH}?next=${encodeURIComponent(next)}`,
  );
}
