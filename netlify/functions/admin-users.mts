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
import * as v from 'valibot';

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
  try {
    if (rawName === undefined) {
      if (request.method === 'GET') return json({ users: await listStaffAccounts() });
      if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
      const body = await parseJsonBody(InviteSchema, request, 4096);
      if (!body.ok) return body.response;
      return json(await inviteStaff(body.data), { status: 201 });
    }
    const name = v.safeParse(UsernameSchema, rawName);
    if (!name.success) return error(404, USER_NOT_FOUND);
    if (request.method === 'PATCH') {
      const body = await parseJsonBody(UserChangeSchema, request, 1024);
      if (!body.ok) return body.response;
      return json(await changeStaff(auth.user, name.output, body.data));
    }
    if (request.method === 'DELETE') {
      await deleteStaff(auth.user, name.output);
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
