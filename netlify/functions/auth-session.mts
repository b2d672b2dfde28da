import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authenticate } from '../../src/server/auth';
import { revokeSessions, toPublicUser } from '../../src/server/users';

/**
 * GET  /api/auth/verify -> {valid, user} for a live token, 401 otherwise.
 * POST /api/auth/logout -> revokes every token issued to the account so far.
 */
export default async (request: Request) => {
  const path = new URL(request.url).pathname;
  const isLogout = path.endsWith('/logout');
  if (isLogout ? request.method !== 'POST' : request.method !== 'GET')
    return methodNotAllowed([isLogout ? 'POST' : 'GET']);

  const auth = await authenticate(request);
  if (!auth.ok) return auth.response;
  if (isLogout) {
    await revokeSessions(auth.user.username);
    return json({ success: true, message: 'You have been logged out.' });
  }
  return json({ valid: true, user: toPublicUser(auth.user) });
};

export const config: Config = {
  path: ['/api/auth/verify', '/api/auth/logout'],
};
