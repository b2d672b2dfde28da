import type { Config, Context } from '@netlify/functions';
import { error, json, methodNotAllowed, RefusedInput } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { parseJsonBody } from '../../src/server/validation';
import { InviteSchema, UserChangeSchema } from '../../src/schemas/staff';
import { UsernameSchema } from '../../src/schemas/auth';
import {
  changeStaff,
  deleteStaff,
  inviteStaff,
  listStaffAccounts,
  USER_NOT_FOUND,
} from '../../src/server/staff-accounts';
import { actorOf, diff, recordActivity } from '../../src/server/activity';
import { getUser } from '../../src/server/users';
import * as v from 'valibot';

/** Names and e-mail addresses are shown as changed, never with their values, in the activity log. */
const USER_MASK = ['email', 'firstName', 'lastName'];
const logged = (fields: {
  role: string;
  active?: boolean;
  email?: string | null;
  firstName: string;
  lastName: string;
}) => ({
  email: fields.email ?? null,
  firstName: fields.firstName,
  lastName: fields.lastName,
  role: fields.role,
  active: fields.active ?? true,
});

/**
 * Staff accounts (administrators only).
 * GET    /api/admin/users                          -> {users} (never a password hash, token or session)
 * POST   /api/admin/users {email, firstName, lastName, role} -> the invited account (201); e-mails its link
 * PATCH  /api/admin/users/{username} {role?, active?} -> the changed account
 * DELETE /api/admin/users/{username}               -> {success}
 * Refusals: 404 unknown account, 409 the last active admin, yourself, or an e-mail address already in use.
 */
export default async (request: Request, context: Context) => {
  const auth = await authorize(request, 'users');
  if (!auth.ok) return auth.response;
  const { username: rawName } = context.params ?? {};
  /** Logs a change of an account; a role "change" to the role it already had is no change and is not logged. */
  const log = async (action: string, username: string, before: object, after: object) => {
    const changes = diff(before, after, USER_MASK);
    if (!changes.length && action === 'role changed') return;
    await recordActivity({
      actor: actorOf(auth.user),
      kind: 'user',
      action,
      target: { id: username, label: username },
      changes,
    });
  };
  try {
    if (rawName === undefined) {
      if (request.method === 'GET') return json({ users: await listStaffAccounts() });
      if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
      const body = await parseJsonBody(InviteSchema, request, 4096);
      if (!body.ok) return body.response;
      const invited = await inviteStaff(body.data);
      await log('invited', invited.username, {}, logged(invited));
      return json(invited, { status: 201 });
    }
    const name = v.safeParse(UsernameSchema, rawName);
    if (!name.success) return error(404, USER_NOT_FOUND);
    if (request.method === 'PATCH') {
      const body = await parseJsonBody(UserChangeSchema, request, 1024);
      if (!body.ok) return body.response;
      const before = await getUser(name.output);
      const changed = await changeStaff(auth.user, name.output, body.data);
      const action =
        body.data.active === false && before?.active !== false
          ? 'deactivated'
          : body.data.active === true && before?.active === false
            ? 'reactivated'
            : 'role changed';
      await log(
        action,
        changed.username,
        before ? logged(before) : {},
        logged({ ...changed, active: changed.status !== 'deactivated' }),
      );
      return json(changed);
    }
    if (request.method === 'DELETE') {
      const before = await getUser(name.output);
      await deleteStaff(auth.user, name.output);
      await log('deleted', name.output, before ? logged(before) : {}, {});
      return json({ success: true, message: 'The account has been deleted.' });
    }
    return methodNotAllowed(['PATCH', 'DELETE']);
  } catch (cause) {
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
};

export const config: Config = {
  path: ['/api/admin/users', '/api/admin/users/:username'],
};
