import type { Config } from '@netlify/functions';
import { error, json, methodNotAllowed } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { AcceptInviteSchema, INVITE_INVALID } from '../../src/schemas/staff';
import { acceptInvite } from '../../src/server/staff-accounts';

/**
 * POST /api/auth/accept-invite {token, password} -> {username, message}: the invited person sets their
 * password through the one-time link (48 hours, once); then they sign in at /admin/login. A password the
 * rules refuse leaves the link unused.
 */
export default async (request: Request) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const body = await parseJsonBody(AcceptInviteSchema, request, 1024);
  if (!body.ok) return body.response;
  let user: Awaited<ReturnType<typeof acceptInvite>>;
  try {
    user = await acceptInvite(body.data.token, body.data.password);
  } catch (cause) {
    console.error(`Invitation could not be checked: ${String(cause)}`);
    return error(503, 'This is busy right now. Please try again in a few seconds.');
  }
  if (!user) return error(400, INVITE_INVALID);
  return json({
    username: user.username,
    message: `Your password is set. Log in with your username ${user.username}.`,
  });
};

export const config: Config = {
  path: '/api/auth/accept-invite',
  method: 'POST',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
