import * as v from 'valibot';
import { dataStore, updateJSON } from './blobs.ts';
import { hashPassword } from './passwords.ts';
import { NewUserSchema, StaffEmailSchema, type NewUser, type PublicUser } from '../schemas/auth.ts';
import { MAX_SESSIONS, UserRecordSchema, type UserRecord } from '../schemas/user.ts';
import { can } from '../lib/roles.ts';

export type { UserRecord } from '../schemas/user.ts';

const users = () => dataStore('users');
const keyFor = (username: string) => username.trim().toLowerCase();

/** A stored account, or null (and a log line) when the entry is missing or not a valid account. */
function parseUser(key: string, stored: unknown): UserRecord | null {
  if (stored === null || stored === undefined) return null;
  const parsed = v.safeParse(UserRecordSchema, stored);
  if (parsed.success) return parsed.output;
  console.error(`Stored account "${key}" is not valid and is ignored:`, parsed.issues[0]?.message);
  return null;
}

export function toPublicUser(user: UserRecord): PublicUser {
  return { username: user.username, firstName: user.firstName, lastName: user.lastName, role: user.role };
}

export async function getUser(username: string): Promise<UserRecord | null> {
  const key = keyFor(username);
  if (!/^[a-z0-9][a-z0-9._-]{2,63}$/.test(key)) return null;
  return parseUser(key, await users().get(key, { type: 'json' }));
}

export async function listUsers(): Promise<UserRecord[]> {
  const { blobs } = await users().list();
  const found = await Promise.all(
    blobs.map(async ({ key }) => parseUser(key, await users().get(key, { type: 'json' }))),
  );
  return found.filter((user): user is UserRecord => user !== null);
}

/**
 * Whether an inquiry can be given to this account: it can open the inbox and sign in (not deactivated, and not
 * an invitation nobody has taken up yet). A lead given to anyone else would wait for a person who never sees it.
 */
export const canTakeInquiries = (user: UserRecord) =>
  can(user.role, 'inquiries') && user.active !== false && Boolean(user.passwordHash);

/** Every account that may work the inbox (so an inquiry can be assigned to it), as staff see it named, by name. */
export async function listStaff(): Promise<{ username: string; name: string }[]> {
  return (await listUsers())
    .filter(canTakeInquiries)
    .map((user) => ({ username: user.username, name: staffName(user) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en-AU') || a.username.localeCompare(b.username));
}

export const staffName = (user: Pick<UserRecord, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;

export class UserExistsError extends Error {}
export class UnknownUserError extends Error {}

/** Creates an account; never overwrites an existing one. */
export async function createUser(input: NewUser): Promise<PublicUser> {
  const data = v.parse(NewUserSchema, input);
  const now = new Date().toISOString();
  const record: UserRecord = v.parse(UserRecordSchema, {
    username: data.username,
    firstName: data.firstName,
    lastName: data.lastName,
    role: data.role,
    ...(data.email ? { email: data.email } : {}),
    passwordHash: await hashPassword(data.password),
    validAfter: 0,
    active: true,
    sessions: [],
    createdAt: now,
    updatedAt: now,
  });
  const result = await users().setJSON(record.username, record, { onlyIfNew: true });
  if (!result.modified) throw new UserExistsError(`The user "${record.username}" already exists`);
  return toPublicUser(record);
}

/** Edits an account; `edit` returns null to leave it as it is (nothing is written). */
async function change(username: string, edit: (user: UserRecord) => Partial<UserRecord> | null): Promise<UserRecord> {
  const key = keyFor(username);
  const updated = await updateJSON<UserRecord>(users(), key, (stored) => {
    const current = parseUser(key, stored);
    if (!current) return undefined;
    const patch = edit(current);
    if (patch === null) return undefined;
    return v.parse(UserRecordSchema, { ...current, ...patch, updatedAt: new Date().toISOString() });
  });
  if (!updated || !v.is(UserRecordSchema, updated)) throw new UnknownUserError(`There is no user "${key}"`);
  return updated;
}

/** Sets a new password and signs the account out everywhere. */
export async function setPassword(username: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await change(username, () => ({ passwordHash, validAfter: Date.now(), sessions: [] }));
}

/** Revokes every token issued to the account until now and ends all its sessions ("Sign out everywhere"). */
export async function revokeSessions(username: string): Promise<number> {
  const now = Date.now();
  const user = await change(username, (current) => ({
    validAfter: Math.max(now, current.validAfter + 1),
    sessions: [],
  }));
  return user.validAfter;
}

/** Sessions older than a token's lifetime have ended by themselves. */
const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

/**
 * Records a new signed-in device on the account (called for every token issued). Expired sessions are
 * dropped; beyond MAX_SESSIONS the oldest ends. A missing account records nothing (its token is refused).
 */
export async function recordSession(username: string, id: string, device: string, now: number): Promise<void> {
  try {
    await change(username, (current) => {
      const live = current.sessions.filter((session) => now - session.createdAt < SESSION_LIFETIME_MS);
      const sessions = [...live, { id, device: device.slice(0, 80), createdAt: now, lastSeenAt: now }];
      return {
        sessions: sessions.slice(-MAX_SESSIONS),
        lastSignInAt: new Date(now).toISOString(),
      };
    });
  } catch (cause) {
    if (!(cause instanceof UnknownUserError)) throw cause;
  }
}

/** Ends one session of the account (Logout on this device, or "End" on the Account screen); false if unknown. */
export async function endSession(username: string, id: string): Promise<boolean> {
  let found = false;
  await change(username, (current) => {
    found = current.sessions.some((session) => session.id === id);
    return found ? { sessions: current.sessions.filter((session) => session.id !== id) } : null;
  });
  return found;
}

/** How often a session's "last seen" time is written at most (each write is a store round trip). */
export const LAST_SEEN_EVERY_MS = 5 * 60_000;

/** Notes that a session was used now, at most every LAST_SEEN_EVERY_MS (best effort, never fails a request). */
export async function touchSession(user: UserRecord, id: string, now = Date.now()): Promise<void> {
  const session = user.sessions.find((s) => s.id === id);
  if (!session || now - session.lastSeenAt < LAST_SEEN_EVERY_MS) return;
  await change(user.username, (current) => ({
    sessions: current.sessions.map((s) => (s.id === id ? { ...s, lastSeenAt: now } : s)),
  })).catch((cause) => console.error(`Could not note a session as seen: ${String(cause)}`));
}

/** Sets (or with null removes) the account's e-mail address for sign-in links. */
export async function setEmail(username: string, email: string | null): Promise<UserRecord> {
  const checked = email === null ? null : v.parse(StaffEmailSchema, email);
  // An undefined e-mail is dropped when the record is stored as JSON.
  return change(username, () => ({ email: checked ?? undefined }));
}

/** Edits an account in one conditional write (`edit` returns null to leave it as it is); throws UnknownUserError. */
export const editUser = change;
