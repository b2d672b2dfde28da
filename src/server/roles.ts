import { error } from './http.ts';
import { authenticate, type AuthResult } from './auth.ts';
import { can, forbiddenMessage, type Permission } from '../lib/roles.ts';

export type { Permission } from '../lib/roles.ts';

/**
 * Every admin endpoint starts here: a valid session (else 401, see authenticate) whose role has the
 * permission (else 403 with a clear message). Roles and permissions are defined in src/lib/roles.ts.
 */
export async function authorize(request: Request, permission: Permission): Promise<AuthResult> {
  const auth = await authenticate(request);
  if (!auth.ok) return auth;
  if (!can(auth.user.role, permission)) return { ok: false, response: error(403, forbiddenMessage(auth.user.role)) };
  return auth;
}
