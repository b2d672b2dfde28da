import { createHash, randomBytes } from 'node:crypto';
import { db, iso, isoOf, isUniqueViolation, sql } from '../platform/database.ts';
import { statusFrom, withAdminsLocked } from './last-admin.ts';
import { RefusedInput } from './http.ts';
import { defaultTransport, type MailTransport } from './mail-transports.ts';
import { htmlDocument, mailSettings, sanitizeHeader, textDocument } from './mail-messages.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { EMAIL_TAKEN, editUser, getUser, isEmailTaken, withAccount, type UserRecord } from './users.ts';
import { INVITE_TOKEN_FORMAT, type Invite, type OwnSession, type StaffListItem } from '../schemas/staff.ts';
import type { ROLES } from '../schemas/auth.ts';

export { LAST_ADMIN, deleteStaffFromCli } from './last-admin.ts';
export { EMAIL_TAKEN } from './users.ts';

/**
 * Staff accounts managed from the admin (/admin/users and the Account screen): invitations with a one-time
 * set-password link, role changes, deactivation, deletion, and each person's own name, password and sessions.
 * An invitation link follows the sign-in link pattern: 32 random bytes, only their SHA-256 kept (a `staff_links`
 * row with purpose 'invite'), valid for INVITE_LIFETIME_MS, used once by a single conditional UPDATE.
 */
export const INVITE_LIFETIME_MS = 48 * 60 * 60_000;
export const NOT_YOURSELF_DELETE = 'You cannot delete your own account.';
export const NOT_YOURSELF_DEACTIVATE = 'You cannot deactivate your own account.';
export const USER_NOT_FOUND = 'There is no such account.';
export const WRONG_PASSWORD = 'Your current password is not correct.';
export const INVITE_NOT_SENT =
  'The invitation e-mail could not be sent, so no account was created. Please try again in a few minutes.';
const USERNAME_TAKEN = 'Someone else just took this username. Please try again.';

type Role = (typeof ROLES)[number];

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** What the Users screen shows of an account, straight from its `staff` row. */
const LIST_COLUMNS = sql`username, first_name, last_name, email, role, active, password_hash IS NOT NULL AS has_password,
  last_sign_in_at, created_at`;
interface ListRow {
  username: string;
  first_name: string;
  last_name: string;
  email: string | null;
  role: string;
  active: boolean;
  has_password: boolean;
  last_sign_in_at: unknown;
  created_at: unknown;
}
const fromListRow = (row: ListRow): StaffListItem => ({
  username: row.username,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  role: row.role,
  status: statusFrom(row.active, row.has_password),
  lastSignInAt: iso(row.last_sign_in_at),
  createdAt: isoOf(row.created_at),
});

/** Every account as the Users screen lists it, by last name (one query). */
export async function listStaffAccounts(): Promise<StaffListItem[]> {
  const rows = await db().query<ListRow>(sql`SELECT ${LIST_COLUMNS} FROM staff ORDER BY lower(last_name), username`);
  return rows.map(fromListRow);
}

/** A username for an invited person: the e-mail's local part made safe, with a number if it is taken. */
async function freeUsername(email: string): Promise<string> {
  let base = email
    .split('@')[0]
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 56);
  if (base.length < 3) base = `staff-${base}`.replace(/-$/, '');
  const like = `${base.replace(/[\\%_]/g, '\\$&')}-%`;
  const rows = await db().query<{ username: string }>(
    sql`SELECT username FROM staff WHERE username = ${base} OR username LIKE ${like}`,
  );
  const taken = new Set(rows.map((row) => row.username));
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(name)) return name;
  }
  throw new RefusedInput(409, 'No free username could be made from this e-mail address.', 'email');
}

/**
 * Creates an invited account (no password: it cannot sign in yet) with its one-time link, and e-mails the link.
 * Refused (409) when an account already has this e-mail address: the unique index on the address decides, so of
 * two invitations for one address sent at once only one is made.
 */
export async function inviteStaff(
  invite: Invite,
  transport: MailTransport = defaultTransport(),
  now = Date.now(),
): Promise<StaffListItem> {
  const [existing] = await db().query(
    sql`SELECT 1 FROM staff WHERE lower(email) = lower(${invite.email}) AND email IS NOT NULL`,
  );
  if (existing) throw new RefusedInput(409, EMAIL_TAKEN, 'email');
  const token = randomBytes(32).toString('base64url');
  let created: StaffListItem | null = null;
  // A username another invitation took between the look-up and the insert: take the next free one.
  for (let attempt = 0; !created; attempt++) {
    const username = await freeUsername(invite.email);
    try {
      created = await db().transaction(async (tx) => {
        const [row] = await tx.query<ListRow>(sql`
          INSERT INTO staff (username, first_name, last_name, role, email, invited_at)
          VALUES (${username}, ${invite.firstName}, ${invite.lastName}, ${invite.role}, ${invite.email}, ${now})
          RETURNING ${LIST_COLUMNS}`);
        await tx.query(sql`
          INSERT INTO staff_links (token_hash, purpose, username, created_at, expires_at)
          VALUES (${digest(token)}, 'invite', ${username}, ${now}, ${now + INVITE_LIFETIME_MS})`);
        return fromListRow(row);
      });
    } catch (cause) {
      if (isEmailTaken(cause)) throw new RefusedInput(409, EMAIL_TAKEN, 'email');
      if (!isUniqueViolation(cause)) throw cause;
      if (attempt >= 4) throw new RefusedInput(409, USERNAME_TAKEN);
    }
  }
  const { username } = created;
  const { from, siteUrl } = mailSettings();
  const url = `${siteUrl}/admin/accept-invite#token=${token}`;
  const paragraphs = [
    `Hello ${sanitizeHeader(invite.firstName, 60) || 'there'},`,
    `You have been invited to the RPL Pathways staff admin as ${invite.role === 'admin' ? 'an administrator' : 'an editor'}. Your username is ${username}.`,
    'Open this link within 48 hours to choose your password (it works once):',
    url,
    'If you did not expect this invitation, you can ignore this e-mail.',
  ];
  try {
    await transport.send(
      {
        kind: 'staff-invite',
        from,
        to: sanitizeHeader(invite.email),
        subject: 'Your invitation to the RPL Pathways admin',
        text: textDocument(paragraphs),
        html: htmlDocument('Your invitation', paragraphs),
      },
      `staff-invite-${digest(token).slice(0, 32)}`,
    );
  } catch (cause) {
    // Without the mail nobody can use the invitation: take it back (its link goes with it), so it can simply be
    // sent again.
    console.error(`Invitation mail for "${username}" could not be sent: ${String(cause)}`);
    await db().query(
      sql`DELETE FROM staff WHERE username = ${username} AND invited_at = ${now} AND password_hash IS NULL`,
    );
    throw new RefusedInput(503, INVITE_NOT_SENT);
  }
  return created;
}

/**
 * Redeems an invitation once: sets the chosen password on the invited account. Null when the link is unknown,
 * used or expired, or its account was deleted (the link went with it), is deactivated (reactivating it makes
 * the link work again), was re-invited or already has a password.
 */
export async function acceptInvite(token: string, password: string, now = Date.now()): Promise<UserRecord | null> {
  if (!INVITE_TOKEN_FORMAT.test(token)) return null;
  // Used up by one statement, so two requests can never both use it.
  const [link] = await db().query<{ username: string; created_at: number }>(sql`
    UPDATE staff_links l SET used_at = ${now}
    FROM staff s
    WHERE l.token_hash = ${digest(token)} AND l.purpose = 'invite' AND l.used_at IS NULL AND l.expires_at > ${now}
      AND s.username = l.username AND s.active AND s.password_hash IS NULL AND s.invited_at = l.created_at
    RETURNING l.username, l.created_at::float8 AS created_at`);
  if (!link) return null;
  // Hashed only for a link that works, so unknown tokens cost no scrypt run.
  const passwordHash = await hashPassword(password);
  const [set] = await db().query(sql`
    UPDATE staff SET password_hash = ${passwordHash}, invited_at = NULL, updated_at = now()
    WHERE username = ${link.username} AND active AND password_hash IS NULL AND invited_at = ${link.created_at}
    RETURNING username`);
  return set ? getUser(link.username) : null;
}

/**
 * An administrator changes another account's role or (de)activates it. Never leaves no active admin;
 * nobody deactivates themselves. Deactivating ends every session of the account at once.
 */
export function changeStaff(
  me: UserRecord,
  username: string,
  change: { role?: Role; active?: boolean },
): Promise<StaffListItem> {
  return withAdminsLocked(username, async (tx, account, assertAnotherAdmin) => {
    if (!account) throw new RefusedInput(404, USER_NOT_FOUND);
    const deactivating = change.active === false;
    if (deactivating && account.username === me.username) throw new RefusedInput(409, NOT_YOURSELF_DEACTIVATE);
    if (account.activeAdmin && (deactivating || (change.role && change.role !== 'admin'))) assertAnotherAdmin();
    const [row] = await tx.query<ListRow>(sql`
      UPDATE staff SET
        role = COALESCE(${change.role ?? null}::text, role),
        active = COALESCE(${change.active ?? null}::boolean, active),
        valid_after = CASE WHEN ${deactivating} THEN greatest(${Date.now()}::bigint, valid_after + 1) ELSE valid_after END,
        updated_at = now()
      WHERE username = ${account.username}
      RETURNING ${LIST_COLUMNS}`);
    if (deactivating) await tx.query(sql`DELETE FROM staff_sessions WHERE username = ${account.username}`);
    return fromListRow(row);
  });
}

/** Deletes an account: never your own, never the last active admin. */
export function deleteStaff(me: UserRecord, username: string): Promise<void> {
  return withAdminsLocked(username, async (tx, account, assertAnotherAdmin) => {
    if (!account) throw new RefusedInput(404, USER_NOT_FOUND);
    if (account.username === me.username) throw new RefusedInput(409, NOT_YOURSELF_DELETE);
    if (account.activeAdmin) assertAnotherAdmin();
    // Its sessions, recovery codes, links and link mails go with it (ON DELETE CASCADE).
    await tx.query(sql`DELETE FROM staff WHERE username = ${account.username}`);
  });
}

export const setOwnName = (me: UserRecord, name: { firstName: string; lastName: string }) =>
  editUser(me.username, () => name);

/**
 * Changes the signed-in person's password after checking the current one. Every other session of the
 * account ends; this one stays.
 */
export async function changeOwnPassword(me: UserRecord, sessionId: string, current: string, next: string) {
  if (!(await verifyPassword(current, me.passwordHash ?? ''))) throw new RefusedInput(400, WRONG_PASSWORD, 'current');
  const passwordHash = await hashPassword(next);
  await withAccount(me.username, async (tx, user) => {
    await tx.query(
      sql`UPDATE staff SET password_hash = ${passwordHash}, updated_at = now() WHERE username = ${user.username}`,
    );
    const others = user.sessions.filter((session) => session.id !== sessionId).map((session) => session.id);
    if (others.length)
      await tx.query(sql`DELETE FROM staff_sessions WHERE username = ${user.username} AND id = ANY(${others}::uuid[])`);
  });
}

export function ownSessions(user: UserRecord, sessionId: string): OwnSession[] {
  return [...user.sessions]
    .sort((a, b) => b.lastSeenAt - a.lastSeenAt)
    .map((session) => ({
      id: session.id,
      device: session.device,
      createdAt: new Date(session.createdAt).toISOString(),
      lastSeenAt: new Date(session.lastSeenAt).toISOString(),
      current: session.id === sessionId,
    }));
}
