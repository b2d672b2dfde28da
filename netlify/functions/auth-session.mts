import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authenticate } from '../../src/server/auth';
import { endSession, revokeSessions, toPublicUser, touchSession } from '../../src/server/users';
import { MAIL_NOT_SET_UP, mailProblems } from '../../src/server/mail-config';

/**
 * GET  /api/auth/verify             -> {valid, user, notices} for a live token, 401 otherwise (notices: what every
 *                                      admin page shows in a banner, such as e-mail not set up). Every admin page asks this
 *                                      when it opens, so it notes the session's "last seen" time (at most every 5 min).
 * POST /api/auth/logout             -> ends this session only (the token's device); other devices stay signed in.
 * POST /api/auth/logout-everywhere  -> ends every session of the account (every token issued so far).
 */
export default async (request: Request) => {
  const path = new URL(request.url).pathname.replace(/\/$/, '');
  const everywhere = path.endsWith('/logout-everywhere');
  const isLogout = everywhere || path.endsWith('/logout');
  if (isLogout ? request.method !== 'POST' : request.method !== 'GET')
    return methodNotAllowed([isLogout ? 'POST' : 'GET']);

  const auth = await authenticate(request);
  if (!auth.ok) return auth.response;
  if (everywhere) {
    await revokeSessions(auth.user.username);
    return json({ success: true, message: 'You have been signed out on every device.' });
  }
  if (isLogout) {
    await endSession(auth.user.username, auth.sessionId);
    return json({ success: true, message: 'You have been logged out.' });
  }
  await touchSession(auth.user, auth.sessionId);
  // What every admin page shows in a banner until it is fixed: e-mail that cannot go out.
  const notices = mailProblems().length ? [MAIL_NOT_SET_UP] : [];
  return json({ valid: true, user: toPublicUser(auth.user), notices });
};

export const config: Config = {
  path: ['/api/auth/verify', '/api/auth/logout', '/api/auth/logout-everywhere'],
};
