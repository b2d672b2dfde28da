import type { Config, Context } from '@netlify/functions';
import { LoginSchema } from '../../src/schemas/auth';
import { error, json, methodNotAllowed } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { decoyHash, verifyPassword } from '../../src/server/passwords';
import { getUser, toPublicUser } from '../../src/server/users';
import { AuthNotConfiguredError, issueToken } from '../../src/server/tokens';
import { notConfigured } from '../../src/server/auth';
import { lockedFor, lockedMessage, recordFailure, recordSuccess } from '../../src/server/throttle';

export const INVALID_CREDENTIALS = 'Invalid username or password.';

/** POST /api/auth/login {username, password} -> {token, user, message} (SPEC 2.13, 3, 8). */
export default async (request: Request, context: Context) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const body = await parseJsonBody(LoginSchema, request, 4096);
  if (!body.ok) return body.response;
  const { username, password } = body.data;
  const ip = context.ip || 'unknown';

  const wait = await lockedFor(username, ip);
  if (wait > 0) {
    const response = error(429, lockedMessage(wait));
    response.headers.set('Retry-After', String(Math.ceil(wait / 1000)));
    return response;
  }

  const user = await getUser(username);
  // Always hash, even for unknown names, so the answer time does not reveal which accounts exist.
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !valid) {
    await recordFailure(username, ip);
    return error(401, INVALID_CREDENTIALS);
  }

  try {
    const token = await issueToken(user);
    await recordSuccess(username, ip);
    return json({ token, user: toPublicUser(user), message: 'Login successful! Redirecting...' });
  } catch (cause) {
    if (cause instanceof AuthNotConfiguredError) return notConfigured();
    throw cause;
  }
};

export const config: Config = {
  path: '/api/auth/login',
  method: 'POST',
  // The platform's own per-IP limit in front of the account lockout.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
