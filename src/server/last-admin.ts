import { dataStore, serialised } from './blobs.ts';
import { RefusedInput } from './http.ts';
import { getUser, listUsers, UnknownUserError, type UserRecord } from './users.ts';
import type { StaffListItem } from '../schemas/staff.ts';

/**
 * The rules that keep the site administrable, shared by the admin API (src/server/staff-accounts.ts) and the
 * users CLI (which cannot load the mail code): an account's status, and never removing the last active admin.
 */
export const LAST_ADMIN = 'This is the last active administrator. Make another account an active administrator first.';

export function statusOf(user: UserRecord): StaffListItem['status'] {
  if (!user.active) return 'deactivated';
  return user.passwordHash ? 'active' : 'invited';
}

/** An administrator who can sign in now. */
export const isActiveAdmin = (user: UserRecord) => user.role === 'admin' && user.active && Boolean(user.passwordHash);

/** One change at a time to roles and activity, so two of them cannot together remove the last admin. */
export const adminLock = <T>(task: () => Promise<T>) => serialised('users\nlast-admin', task);

export async function assertAnotherAdmin(username: string): Promise<void> {
  const others = (await listUsers()).filter((user) => user.username !== username && isActiveAdmin(user));
  if (others.length === 0) throw new RefusedInput(409, LAST_ADMIN);
}

/** Deletes an account from the command line (no "yourself" there), never the last active admin. */
export function deleteStaffFromCli(username: string): Promise<UserRecord> {
  return adminLock(async () => {
    const user = await getUser(username);
    if (!user) throw new UnknownUserError(`There is no user "${username.trim().toLowerCase()}"`);
    if (isActiveAdmin(user)) await assertAnotherAdmin(user.username);
    await dataStore('users').delete(user.username);
    return user;
  });
}
