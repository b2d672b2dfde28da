import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { error, json, methodNotAllowed, notFound, RefusedInput } from '../../src/server/http';
import { authenticate } from '../../src/server/auth';
import { parseJsonBody } from '../../src/server/validation';
import {
  OwnNameSchema,
  OwnPasswordSchema,
  SecondFactorCodeSchema,
  SecondFactorPasswordSchema,
} from '../../src/schemas/staff';
import { changeOwnPassword, ownSessions, setOwnName } from '../../src/server/staff-accounts';
import { endSession, toPublicUser } from '../../src/server/users';
import { confirmSetup, secondFactorStatus, startSetup, turnOff } from '../../src/server/second-factor';
import { actorOf, recordActivity } from '../../src/server/activity';

const SESSION_NOT_FOUND = 'This session has already ended.';

/**
 * The signed-in person's own account (every role).
 * GET    /api/admin/me                    -> {user, email, secondFactor}
 * PATCH  /api/admin/me {firstName, lastName} -> {user}
 * POST   /api/admin/me/password {current, next} -> {success}; every other session of the account ends
 * GET    /api/admin/me/sessions           -> {sessions} (this device marked `current`)
 * DELETE /api/admin/me/sessions/{id}      -> {success}; ending this device's session signs it out
 * POST   /api/admin/me/second-factor {password} -> {secret, uri}: starts setting up an authenticator app (admins)
 * POST   /api/admin/me/second-factor/confirm {code} -> {recoveryCodes}: the app's first code turns it on
 * POST   /api/admin/me/second-factor/off {password} -> {success}
 */
export default async (request: Request, context: Context) => {
  const auth = await authenticate(request);
  if (!auth.ok) return auth.response;
  const path = new URL(request.url).pathname.replace(/\/$/, '');
  const { id } = context.params ?? {};
  try {
    if (id !== undefined) {
      if (request.method !== 'DELETE') return methodNotAllowed(['DELETE']);
      if (!v.is(v.pipe(v.string(), v.uuid()), id)) return error(404, SESSION_NOT_FOUND);
      if (!(await endSession(auth.user.username, id))) return error(404, SESSION_NOT_FOUND);
      return json({ success: true, message: 'The session has ended.' });
    }
    if (path.endsWith('/me/sessions')) {
      if (request.method !== 'GET') return methodNotAllowed(['GET']);
      return json({ sessions: ownSessions(auth.user, auth.sessionId) });
    }
    if (path.endsWith('/me/password')) {
      if (request.method !== 'POST') return methodNotAllowed(['POST']);
      const body = await parseJsonBody(OwnPasswordSchema, request, 1024);
      if (!body.ok) return body.response;
      await changeOwnPassword(auth.user, auth.sessionId, body.data.current, body.data.next);
      return json({ success: true, message: 'Your password has been changed. Your other sessions have ended.' });
    }
    if (path.includes('/me/second-factor')) return await secondFactor(request, path, auth.user);
    if (request.method === 'GET')
      return json({
        user: toPublicUser(auth.user),
        email: auth.user.email ?? null,
        secondFactor: secondFactorStatus(auth.user),
      });
    if (request.method !== 'PATCH') return methodNotAllowed(['GET', 'PATCH']);
    const body = await parseJsonBody(OwnNameSchema, request, 1024);
    if (!body.ok) return body.response;
    const updated = await setOwnName(auth.user, body.data);
    return json({ user: toPublicUser(updated), message: 'Your name has been saved.' });
  } catch (cause) {
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
};

type Account = Extract<Awaited<ReturnType<typeof authenticate>>, { ok: true }>['user'];

/** Who turned a second factor on or off is kept in the activity log (never the secret or the codes). */
const logSecondFactor = (user: Account, action: string) =>
  recordActivity({
    actor: actorOf(user),
    kind: 'user',
    action,
    target: { id: user.username, label: user.username },
  });

async function secondFactor(request: Request, path: string, user: Account): Promise<Response> {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  if (path.endsWith('/second-factor')) {
    const body = await parseJsonBody(SecondFactorPasswordSchema, request, 1024);
    if (!body.ok) return body.response;
    return json(await startSetup(user, body.data.password));
  }
  if (path.endsWith('/second-factor/confirm')) {
    const body = await parseJsonBody(SecondFactorCodeSchema, request, 1024);
    if (!body.ok) return body.response;
    const recoveryCodes = await confirmSetup(user, body.data.code);
    await logSecondFactor(user, 'two-step sign-in turned on');
    return json({
      recoveryCodes,
      message: 'Your authenticator app is set up. Keep the recovery codes somewhere safe: each works once.',
    });
  }
  // Each action at its own path only: an address this function does not declare is no action at all.
  if (!path.endsWith('/second-factor/off')) return notFound();
  const body = await parseJsonBody(SecondFactorPasswordSchema, request, 1024);
  if (!body.ok) return body.response;
  await turnOff(user, body.data.password);
  await logSecondFactor(user, 'two-step sign-in turned off');
  return json({ success: true, message: 'The authenticator app is no longer asked for at sign-in.' });
}

export const config: Config = {
  path: [
    '/api/admin/me',
    '/api/admin/me/password',
    '/api/admin/me/sessions',
    '/api/admin/me/sessions/:id',
    '/api/admin/me/second-factor',
    '/api/admin/me/second-factor/confirm',
    '/api/admin/me/second-factor/off',
  ],
};
