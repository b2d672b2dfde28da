import * as v from 'valibot';
import { db, iso, isoOf, isUniqueViolation, sql, type Queryable } from '../platform/database.ts';
import { hashPassword } from './passwords.ts';
import { NewUserSchema, ROLES, StaffEmailSchema, type NewUser, type PublicUser } from '../schemas/auth.ts';
import { MAX_SESSIONS, UserRecordSchema, type UserRecord } from '../schemas/user.ts';
import { can } from '../lib/roles.ts';

export type { UserRecord } from '../schemas/user.ts';

/**
 * Staff accounts: one row of `staff` per account (keyed by the lower-case username), its signed-in devices in
 * `staff_sessions` and its second factor's recovery codes in `staff_recovery_codes`. A UserRecord is assembled
 * from the three by one query (the children as JSON arrays) and parsed with UserRecordSchema. Every change to
 * an account is one statement, or one transaction that first locks its `staff` row, so two requests changing
 * one account at once (two sign-ins recording sessions, a logout and a touch) never undo each other.
 */
const keyFor = (username: string) => username.trim().toLowerCase();
const USERNAME = /^[a-z0-9][a-z0-9._-]{2,63}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const EMAIL_TAKEN = 'An account with this e-mail address already exists.';

interface StaffRow {
  username: string;
  first_name: string;
  last_name: string;
  role: string;
  email: string | null;
  password_hash: string | null;
  active: boolean;
  invited_at: number | null;
  valid_after: number;
  totp_secret: string | null;
  totp_enabled_at: number | null;
  totp_last_step: number | null;
  totp_pending_secret: string | null;
  totp_pending_at: number | null;
  last_sign_in_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}
interface AccountRow extends StaffRow {
  sessions: { id: string; device: string; createdAt: number; lastSeenAt: number }[];
  recovery_codes: string[];
}

/** The staff columns as the code reads them (bigint milliseconds as numbers). */
const STAFF_COLUMNS = sql`
  s.username, s.first_name, s.last_name, s.role, s.email, s.password_hash, s.active,
  s.invited_at::float8 AS invited_at, s.valid_after::float8 AS valid_after,
  s.totp_secret, s.totp_enabled_at::float8 AS totp_enabled_at, s.totp_last_step::float8 AS totp_last_step,
  s.totp_pending_secret, s.totp_pending_at::float8 AS totp_pending_at,
  s.last_sign_in_at, s.created_at, s.updated_at`;

/** A whole account: the staff row with its sessions (oldest first) and recovery codes, in one statement. */
const ACCOUNT = sql`
  SELECT ${STAFF_COLUMNS},
    COALESCE((
      SELECT json_agg(json_build_object('id', x.id, 'device', x.device, 'createdAt', x.created_at,
        'lastSeenAt', x.last_seen_at) ORDER BY x.created_at, x.id)
      FROM staff_sessions x WHERE x.username = s.username), '[]'::json) AS sessions,
    COALESCE((
      SELECT json_agg(c.code_hash ORDER BY c.code_hash) FROM staff_recovery_codes c WHERE c.username = s.username
    ), '[]'::json) AS recovery_codes
  FROM staff s`;

/** An account as the code uses it, or null (and a log line) when the row does not make a valid account. */
function fromRow(row: AccountRow): UserRecord | null {
  const parsed = v.safeParse(UserRecordSchema, {
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    ...(row.email ? { email: row.email } : {}),
    ...(row.password_hash ? { passwordHash: row.password_hash } : {}),
    active: row.active,
    ...(row.invited_at === null ? {} : { invitedAt: row.invited_at }),
    validAfter: row.valid_after,
    sessions: row.sessions,
    ...(row.totp_secret === null
      ? {}
      : {
          totp: {
            secret: row.totp_secret,
            enabledAt: row.totp_enabled_at,
            lastStep: row.totp_last_step,
            recoveryCodes: row.recovery_codes,
          },
        }),
    ...(row.totp_pending_secret === null
      ? {}
      : { totpPending: { secret: row.totp_pending_secret, createdAt: row.totp_pending_at } }),
    ...(row.last_sign_in_at === null ? {} : { lastSignInAt: iso(row.last_sign_in_at) }),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  });
  if (parsed.success) return parsed.output;
  console.error(`Stored account "${row.username}" is not valid and is ignored:`, parsed.issues[0]?.message);
  return null;
}

export function toPublicUser(user: UserRecord): PublicUser {
  return { username: user.username, firstName: user.firstName, lastName: user.lastName, role: user.role };
}

async function readAccount(q: Queryable, username: string, lock = false): Promise<UserRecord | null> {
  const [row] = await q.query<AccountRow>(
    lock
      ? sql`${ACCOUNT} WHERE s.username = ${username} FOR UPDATE OF s`
      : sql`${ACCOUNT} WHERE s.username = ${username}`,
  );
  return row ? fromRow(row) : null;
}

export async function getUser(username: string): Promise<UserRecord | null> {
  const key = keyFor(username);
  if (!USERNAME.test(key)) return null;
  return readAccount(db(), key);
}

/** Every account, by username. */
export async function listUsers(): Promise<UserRecord[]> {
  const rows = await db().query<AccountRow>(sql`${ACCOUNT} ORDER BY s.username`);
  return rows.map(fromRow).filter((user): user is UserRecord => user !== null);
}

/**
 * Whether an inquiry can be given to this account: it can open the inbox and sign in (not deactivated, and not
 * an invitation nobody has taken up yet). A lead given to anyone else would wait for a person who never sees it.
 */
export const canTakeInquiries = (user: UserRecord) =>
  can(user.role, 'inquiries') && user.active !== false && Boolean(user.passwordHash);

/** Every account that may work the inbox (so an inquiry can be assigned to it), as staff see it named, by name. */
export async function listStaff(): Promise<{ username: string; name: string }[]> {
  // The same rule as canTakeInquiries, in the query.
  const roles = ROLES.filter((role) => can(role, 'inquiries'));
  const rows = await db().query<{ username: string; first_name: string; last_name: string }>(sql`
    SELECT username, first_name, last_name FROM staff
    WHERE role = ANY(${roles}) AND active AND password_hash IS NOT NULL
    ORDER BY lower(first_name || ' ' || last_name), username`);
  return rows.map((row) => ({
    username: row.username,
    name: staffName({ firstName: row.first_name, lastName: row.last_name }),
  }));
}

/** The names of these accounts as staff see them (accounts that no longer exist are left out). */
export async function staffNames(usernames: string[]): Promise<Map<string, string>> {
  if (!usernames.length) return new Map();
  const rows = await db().query<{ username: string; first_name: string; last_name: string }>(
    sql`SELECT username, first_name, last_name FROM staff WHERE username = ANY(${usernames})`,
  );
  return new Map(rows.map((row) => [row.username, staffName({ firstName: row.first_name, lastName: row.last_name })]));
}

export const staffName = (user: Pick<UserRecord, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;

export class UserExistsError extends Error {}
export class UnknownUserError extends Error {}

/** The name of the constraint a statement broke (node-postgres and PGlite both report it). */
const constraintOf = (cause: unknown): string => {
  const constraint = (cause as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : '';
};
/** A unique violation of the e-mail address index: another account has this address. */
export const isEmailTaken = (cause: unknown) => isUniqueViolation(cause) && constraintOf(cause) === 'staff_email_key';

/** Creates an account; never overwrites an existing one (nor takes another account's e-mail address). */
export async function createUser(input: NewUser): Promise<PublicUser> {
  const data = v.parse(NewUserSchema, input);
  const passwordHash = await hashPassword(data.password);
  try {
    await db().query(sql`
      INSERT INTO staff (username, first_name, last_name, role, email, password_hash)
      VALUES (${data.username}, ${data.firstName}, ${data.lastName}, ${data.role}, ${data.email ?? null}, ${passwordHash})`);
  } catch (cause) {
    if (isEmailTaken(cause)) throw new UserExistsError(EMAIL_TAKEN);
    if (isUniqueViolation(cause)) throw new UserExistsError(`The user "${data.username}" already exists`);
    throw cause;
  }
  return { username: data.username, firstName: data.firstName, lastName: data.lastName, role: data.role };
}

/**
 * Runs `work` in one transaction holding the account's row lock: every change to an account goes through
 * here, so changes made at the same moment never overwrite each other. Throws UnknownUserError when there
 * is no such account.
 */
export async function withAccount<T>(
  username: string,
  work: (tx: Queryable, user: UserRecord) => Promise<T>,
): Promise<T> {
  const key = keyFor(username);
  if (!USERNAME.test(key)) throw new UnknownUserError(`There is no user "${key}"`);
  return db().transaction(async (tx) => {
    const user = await readAccount(tx, key, true);
    if (!user) throw new UnknownUserError(`There is no user "${key}"`);
    return work(tx, user);
  });
}

/** Writes the account as `next` says, changing only the session and recovery code rows that differ from `current`. */
async function writeAccount(tx: Queryable, current: UserRecord, next: UserRecord): Promise<void> {
  await tx.query(sql`
    UPDATE staff SET
      first_name = ${next.firstName}, last_name = ${next.lastName}, role = ${next.role}, email = ${next.email ?? null},
      password_hash = ${next.passwordHash ?? null}, active = ${next.active}, invited_at = ${next.invitedAt ?? null},
      valid_after = ${next.validAfter},
      totp_secret = ${next.totp?.secret ?? null}, totp_enabled_at = ${next.totp?.enabledAt ?? null},
      totp_last_step = ${next.totp?.lastStep ?? null},
      totp_pending_secret = ${next.totpPending?.secret ?? null}, totp_pending_at = ${next.totpPending?.createdAt ?? null},
      last_sign_in_at = ${next.lastSignInAt ?? null}::timestamptz, updated_at = now()
    WHERE username = ${current.username}`);

  const before = new Map(current.sessions.map((session) => [session.id, session]));
  const after = new Map(next.sessions.map((session) => [session.id, session]));
  const ended = [...before.keys()].filter((id) => !after.has(id));
  if (ended.length)
    await tx.query(sql`DELETE FROM staff_sessions WHERE username = ${current.username} AND id = ANY(${ended}::uuid[])`);
  for (const session of after.values()) {
    const old = before.get(session.id);
    if (!old)
      await tx.query(sql`
        INSERT INTO staff_sessions (id, username, device, created_at, last_seen_at)
        VALUES (${session.id}, ${current.username}, ${session.device}, ${session.createdAt}, ${session.lastSeenAt})`);
    else if (
      old.device !== session.device ||
      old.lastSeenAt !== session.lastSeenAt ||
      old.createdAt !== session.createdAt
    )
      await tx.query(sql`
        UPDATE staff_sessions SET device = ${session.device}, created_at = ${session.createdAt},
          last_seen_at = ${session.lastSeenAt}
        WHERE username = ${current.username} AND id = ${session.id}`);
  }

  const codesBefore = new Set(current.totp?.recoveryCodes ?? []);
  const codesAfter = new Set(next.totp?.recoveryCodes ?? []);
  const used = [...codesBefore].filter((code) => !codesAfter.has(code));
  const added = [...codesAfter].filter((code) => !codesBefore.has(code));
  if (used.length)
    await tx.query(
      sql`DELETE FROM staff_recovery_codes WHERE username = ${current.username} AND code_hash = ANY(${used})`,
    );
  for (const code of added)
    await tx.query(sql`INSERT INTO staff_recovery_codes (username, code_hash) VALUES (${current.username}, ${code})`);
}

/**
 * Edits an account (read, change, write in one transaction with its row locked); `edit` returns null to leave
 * it as it is (nothing is written). Throws UnknownUserError for a missing account, UserExistsError when the
 * change would give it another account's e-mail address.
 */
export async function editUser(
  username: string,
  edit: (user: UserRecord) => Partial<UserRecord> | null,
): Promise<UserRecord> {
  try {
    return await withAccount(username, async (tx, current) => {
      const patch = edit(current);
      if (patch === null) return current;
      const next = v.parse(UserRecordSchema, {
        ...current,
        ...patch,
        username: current.username,
        updatedAt: new Date().toISOString(),
      });
      await writeAccount(tx, current, next);
      return next;
    });
  } catch (cause) {
    if (isEmailTaken(cause)) throw new UserExistsError(EMAIL_TAKEN);
    throw cause;
  }
}

/** Sets a new password and signs the account out everywhere. */
export async function setPassword(username: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await withAccount(username, async (tx, user) => {
    await tx.query(sql`
      UPDATE staff SET password_hash = ${passwordHash}, valid_after = ${Math.max(Date.now(), user.validAfter + 1)},
        updated_at = now()
      WHERE username = ${user.username}`);
    await tx.query(sql`DELETE FROM staff_sessions WHERE username = ${user.username}`);
  });
}

/** Revokes every token issued to the account until now and ends all its sessions ("Sign out everywhere"). */
export async function revokeSessions(username: string): Promise<number> {
  return withAccount(username, async (tx, user) => {
    const validAfter = Math.max(Date.now(), user.validAfter + 1);
    await tx.query(
      sql`UPDATE staff SET valid_after = ${validAfter}, updated_at = now() WHERE username = ${user.username}`,
    );
    await tx.query(sql`DELETE FROM staff_sessions WHERE username = ${user.username}`);
    return validAfter;
  });
}

/** Sessions older than a token's lifetime have ended by themselves. */
const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

/**
 * Records a new signed-in device on the account (called for every token issued). Expired sessions are
 * dropped; beyond MAX_SESSIONS the oldest end. A missing account records nothing (its token is refused).
 */
export async function recordSession(username: string, id: string, device: string, now: number): Promise<void> {
  const key = keyFor(username);
  if (!USERNAME.test(key)) return;
  await db().transaction(async (tx) => {
    // Locks the account (and finds out whether it exists) before its sessions change.
    const [found] = await tx.query(sql`
      UPDATE staff SET last_sign_in_at = ${new Date(now).toISOString()}::timestamptz, updated_at = now()
      WHERE username = ${key} RETURNING username`);
    if (!found) return;
    await tx.query(
      sql`DELETE FROM staff_sessions WHERE username = ${key} AND created_at <= ${now - SESSION_LIFETIME_MS}`,
    );
    await tx.query(sql`
      INSERT INTO staff_sessions (id, username, device, created_at, last_seen_at)
      VALUES (${id}, ${key}, ${device.slice(0, 80)}, ${now}, ${now})`);
    await tx.query(sql`
      DELETE FROM staff_sessions WHERE username = ${key} AND id IN (
        SELECT id FROM staff_sessions WHERE username = ${key}
        ORDER BY (id = ${id}) DESC, created_at DESC, id DESC OFFSET ${MAX_SESSIONS})`);
  });
}

/** Ends one session of the account (Logout on this device, or "End" on the Account screen); false if unknown. */
export async function endSession(username: string, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const ended = await db().query(
    sql`DELETE FROM staff_sessions WHERE username = ${keyFor(username)} AND id = ${id} RETURNING id`,
  );
  return ended.length > 0;
}

/** How often a session's "last seen" time is written at most (each write is a database round trip). */
export const LAST_SEEN_EVERY_MS = 5 * 60_000;

/** Notes that a session was used now, at most every LAST_SEEN_EVERY_MS (best effort, never fails a request). */
export async function touchSession(user: UserRecord, id: string, now = Date.now()): Promise<void> {
  const session = user.sessions.find((s) => s.id === id);
  if (!session || now - session.lastSeenAt < LAST_SEEN_EVERY_MS) return;
  // One statement, so a logout at the same moment is never undone by it.
  await db()
    .query(sql`
      UPDATE staff_sessions SET last_seen_at = ${now}
      WHERE username = ${user.username} AND id = ${id} AND last_seen_at <= ${now - LAST_SEEN_EVERY_MS}`)
    .catch((cause) => console.error(`Could not note a session as seen: ${String(cause)}`));
}

/** Sets (or with null removes) the account's e-mail address for sign-in links. */
export async function setEmail(username: string, email: string | null): Promise<UserRecord> {
  const checked = email === null ? null : v.parse(StaffEmailSchema, email);
  return editUser(username, () => ({ email: checked ?? undefined }));
}
