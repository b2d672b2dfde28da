import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { dataStore, updateJSON } from './blobs.ts';
import { adminLock, assertAnotherAdmin, isActiveAdmin, statusOf } from './last-admin.ts';
import { RefusedInput } from './http.ts';
import { defaultTransport, type MailTransport } from './mail-transports.ts';
import { htmlDocument, mailSettings, sanitizeHeader, textDocument } from './mail-messages.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { getUser, listUsers, UnknownUserError, type UserRecord } from './users.ts';
import { INVITE_TOKEN_FORMAT, type Invite, type OwnSession, type StaffListItem } from '../schemas/staff.ts';
import { UserRecordSchema } from '../schemas/user.ts';
import type { ROLES } from '../schemas/auth.ts';

export { LAST_ADMIN, deleteStaffFromCli } from './last-admin.ts';

/**
 * Staff accounts managed from the admin (/admin/users and the Account screen): invitations with a one-time
 * set-password link, role changes, deactivation, deletion, and each person's own name, password and sessions.
 * An invitation link follows the sign-in link pattern: 32 random bytes, only their SHA-256 stored (`sessions`
 * store), valid for INVITE_LIFETIME_MS, claimed once by a conditional write.
 */
export const INVITE_LIFETIME_MS = 48 * 60 * 60_000;
export const NOT_YOURSELF_DELETE = 'You cannot delete your own account.';
export const NOT_YOURSELF_DEACTIVATE = 'You cannot deactivate your own account.';
export const EMAIL_TAKEN = 'An account with this e-mail address already exists.';
export const USER_NOT_FOUND = 'There is no such account.';
export const WRONG_PASSWORD = 'Your current password is not correct.';
export const INVITE_NOT_SENT =
  'The invitation e-mail could not be sent, so no account was created. Please try again in a few minutes.';

type Role = (typeof ROLES)[number];

const users = () => dataStore('users');
const links = () => dataStore('sessions');
const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const inviteKey = (token: string) => `invite/${digest(token)}`;

export function toListItem(user: UserRecord): StaffListItem {
  return {
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email ?? null,
    role: user.role,
    status: statusOf(user),
    lastSignInAt: user.lastSignInAt ?? null,
    createdAt: user.createdAt,
  };
}

export async function listStaffAccounts(): Promise<StaffListItem[]> {
  return (await listUsers())
    .map(toListItem)
    .sort((a, b) => a.lastName.localeCompare(b.lastName, 'en-AU') || a.username.localeCompare(b.username));
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
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!(await getUser(name))) return name;
  }
  throw new RefusedInput(409, 'No free username could be made from this e-mail address.', 'email');
}

/**
 * Creates an invited account (no password: it cannot sign in yet) and e-mails its one-time link. Refused
 * (409) when an account already has this e-mail address.
 */
export async function inviteStaff(
  invite: Invite,
  transport: MailTransport = defaultTransport(),
  now = Date.now(),
): Promise<StaffListItem> {
  const existing = await listUsers();
  if (existing.some((user) => user.email === invite.email)) throw new RefusedInput(409, EMAIL_TAKEN, 'email');
  const username = await freeUsername(invite.email);
  const stamp = new Date(now).toISOString();
  const record = v.parse(UserRecordSchema, {
    username,
    firstName: invite.firstName,
    lastName: invite.lastName,
    role: invite.role,
    email: invite.email,
    active: true,
    invitedAt: now,
    validAfter: 0,
    sessions: [],
    createdAt: stamp,
    updatedAt: stamp,
  });
  const created = await users().setJSON(username, record, { onlyIfNew: true });
  if (!created.modified) throw new RefusedInput(409, 'Someone else just took this username. Please try again.');

  const token = randomBytes(32).toString('base64url');
  await links().setJSON(
    inviteKey(token),
    { username, invitedAt: now, expiresAt: now + INVITE_LIFETIME_MS, usedAt: null, usedBy: null },
    { onlyIfNew: true },
  );
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
    // Without the mail nobody can use the invitation: take it back, so it can simply be sent again.
    console.error(`Invitation mail for "${username}" could not be sent: ${String(cause)}`);
    await Promise.all([users().delete(username), links().delete(inviteKey(token))]);
    throw new RefusedInput(503, INVITE_NOT_SENT);
  }
  return toListItem(record);
}

/**
 * Redeems an invitation once: sets the chosen password on the invited account. Null when the link is
 * unknown, used, expired, or its account was deleted, re-invited or already has a password.
 */
export async function acceptInvite(token: string, password: string, now = Date.now()): Promise<UserRecord | null> {
  if (!INVITE_TOKEN_FORMAT.test(token)) return null;
  const claim = randomUUID();
  type InviteRecord = {
    username: string;
    invitedAt: number;
    expiresAt: number;
    usedAt: number | null;
    usedBy: string | null;
  };
  const result = await updateJSON<InviteRecord>(links(), inviteKey(token), (current) => {
    if (!current || current.usedAt !== null || current.expiresAt <= now) return undefined;
    return { ...current, usedAt: now, usedBy: claim };
  });
  if (!result || result.usedBy !== claim) return null;
  // Hashed only for a link that works, so unknown tokens cost no scrypt run.
  const passwordHash = await hashPassword(password);
  let accepted: UserRecord | null = null;
  await updateJSON<UserRecord>(users(), result.username, (stored) => {
    accepted = null;
    const parsed = v.safeParse(UserRecordSchema, stored);
    if (!parsed.success) return undefined;
    const user = parsed.output;
    if (user.passwordHash || user.invitedAt !== result.invitedAt || !user.active) return undefined;
    accepted = { ...user, passwordHash, invitedAt: undefined, updatedAt: new Date(now).toISOString() };
    return accepted;
  });
  return accepted;
}

async function editUser(username: string, edit: (user: UserRecord) => Partial<UserRecord>): Promise<UserRecord> {
  const updated = await updateJSON<UserRecord>(users(), username, (stored) => {
    const parsed = v.safeParse(UserRecordSchema, stored);
    if (!parsed.success) return undefined;
    return v.parse(UserRecordSchema, { ...parsed.output, ...edit(parsed.output), updatedAt: new Date().toISOString() });
  });
  const checked = v.safeParse(UserRecordSchema, updated);
  if (!checked.success) throw new UnknownUserError(USER_NOT_FOUND);
  return checked.output;
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
  return adminLock(async () => {
    const user = await getUser(username);
    if (!user) throw new RefusedInput(404, USER_NOT_FOUND);
    if (change.active === false && user.username === me.username) throw new RefusedInput(409, NOT_YOURSELF_DEACTIVATE);
    const losesAdmin = isActiveAdmin(user) && (change.active === false || (change.role && change.role !== 'admin'));
    if (losesAdmin) await assertAnotherAdmin(user.username);
    const updated = await editUser(user.username, (current) => ({
      ...(change.role ? { role: change.role } : {}),
      ...(change.active === undefined ? {} : { active: change.active }),
      ...(change.active === false ? { sessions: [], validAfter: Math.max(Date.now(), current.validAfter + 1) } : {}),
    }));
    return toListItem(updated);
  });
}

/** Deletes an account: never your own, never the last active admin. */
export function deleteStaff(me: UserRecord, username: string): Promise<void> {
  return adminLock(async () => {
    const user = await getUser(username);
    if (!user) throw new RefusedInput(404, USER_NOT_FOUND);
    if (user.username === me.username) throw new RefusedInput(409, NOT_YOURSELF_DELETE);
    if (isActiveAdmin(user)) await assertAnotherAdmin(user.username);
    await users().delete(user.username);
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
  await editUser(me.username, (user) => ({
    passwordHash,
    sessions: user.sessions.filter((session) => session.id === sessionId),
  }));
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
