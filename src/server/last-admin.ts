import { db, sql, type Queryable } from '../platform/database.ts';
import { RefusedInput } from './http.ts';
import { UnknownUserError, type UserRecord } from './users.ts';
import type { StaffListItem } from '../schemas/staff.ts';

/**
 * The rules that keep the site administrable, shared by the admin API (src/server/staff-accounts.ts) and the
 * users CLI (which cannot load the mail code): an account's status, and never removing the last active admin.
 */
export const LAST_ADMIN = 'This is the last active administrator. Make another account an active administrator first.';

export const statusFrom = (active: boolean, hasPassword: boolean): StaffListItem['status'] =>
  !active ? 'deactivated' : hasPassword ? 'active' : 'invited';

export const statusOf = (user: Pick<UserRecord, 'active' | 'passwordHash'>) =>
  statusFrom(user.active, Boolean(user.passwordHash));

/** The account a change is about, as read with its row locked. */
export interface LockedAccount {
  username: string;
  firstName: string;
  lastName: string;
  role: string;
  active: boolean;
  hasPassword: boolean;
  /** An administrator who can sign in now. */
  activeAdmin: boolean;
}

/**
 * Runs `work` in one transaction that first locks the account's row and the rows of every active administrator
 * (one statement, in username order, so two such transactions never wait for each other in a circle). A second
 * demotion, deactivation or deletion of an administrator waits here until the first has committed, and then
 * counts the administrators as they are after it: two of them can never together remove the last one, whichever
 * function instance each runs in. `work` gets the account (null when there is none) and `assertAnotherAdmin`,
 * which refuses (409) when the account is the last active administrator.
 */
export function withAdminsLocked<T>(
  username: string,
  work: (tx: Queryable, account: LockedAccount | null, assertAnotherAdmin: () => void) => Promise<T>,
): Promise<T> {
  const key = username.trim().toLowerCase();
  return db().transaction(async (tx) => {
    const rows = await tx.query<{
      username: string;
      first_name: string;
      last_name: string;
      role: string;
      active: boolean;
      has_password: boolean;
    }>(sql`
      SELECT username, first_name, last_name, role, active, password_hash IS NOT NULL AS has_password
      FROM staff
      WHERE username = ${key} OR (role = 'admin' AND active AND password_hash IS NOT NULL)
      ORDER BY username
      FOR UPDATE`);
    const accounts = rows.map(
      (row): LockedAccount => ({
        username: row.username,
        firstName: row.first_name,
        lastName: row.last_name,
        role: row.role,
        active: row.active,
        hasPassword: row.has_password,
        activeAdmin: row.role === 'admin' && row.active && row.has_password,
      }),
    );
    const account = accounts.find((entry) => entry.username === key) ?? null;
    const assertAnotherAdmin = () => {
      if (!accounts.some((entry) => entry.username !== key && entry.activeAdmin))
        throw new RefusedInput(409, LAST_ADMIN);
    };
    return work(tx, account, assertAnotherAdmin);
  });
}

/** Deletes an account from the command line (no "yourself" there), never the last active admin. */
export function deleteStaffFromCli(username: string): Promise<LockedAccount> {
  return withAdminsLocked(username, async (tx, account, assertAnotherAdmin) => {
    if (!account) throw new UnknownUserError(`There is no user "${username.trim().toLowerCase()}"`);
    if (account.activeAdmin) assertAnotherAdmin();
    // Its sessions, recovery codes, links and link mails go with it (ON DELETE CASCADE).
    await tx.query(sql`DELETE FROM staff WHERE username = ${account.username}`);
    return account;
  });
}
