import * as v from 'valibot';
import { dataStore, updateJSON } from './blobs.ts';
import { hashPassword } from './passwords.ts';
import { NewUserSchema, StaffEmailSchema, type NewUser, type PublicUser, type Role } from '../schemas/auth.ts';

/** A staff account as stored in the `users` store, keyed by the lower-case username. */
export interface UserRecord {
  username: string;
  firstName: string;
  lastName: string;
  role: Role;
  /** Optional: where one-time sign-in links go when the account is locked (never shown in the UI). */
  email?: string;
  passwordHash: string;
  /** Tokens issued at or before this moment (ms) are no longer accepted: logout and password resets move it. */
  validAfter: number;
  createdAt: string;
  updatedAt: string;
}

const users = () => dataStore('users');
const keyFor = (username: string) => username.trim().toLowerCase();

export function toPublicUser(user: UserRecord): PublicUser {
  return { username: user.username, firstName: user.firstName, lastName: user.lastName, role: user.role };
}

export async function getUser(username: string): Promise<UserRecord | null> {
  const key = keyFor(username);
  if (!/^[a-z0-9][a-z0-9._-]{2,63}$/.test(key)) return null;
  return (await users().get(key, { type: 'json' })) as UserRecord | null;
}

export async function listUsers(): Promise<UserRecord[]> {
  const { blobs } = await users().list();
  const found = await Promise.all(blobs.map(({ key }) => users().get(key, { type: 'json' }) as Promise<UserRecord | null>));
  return found.filter((user): user is UserRecord => user !== null);
}

export class UserExistsError extends Error {}
export class UnknownUserError extends Error {}

/** Creates an account; never overwrites an existing one. */
export async function createUser(input: NewUser): Promise<PublicUser> {
  const data = v.parse(NewUserSchema, input);
  const now = new Date().toISOString();
  const record: UserRecord = {
    username: data.username,
    firstName: data.firstName,
    lastName: data.lastName,
    role: data.role,
    ...(data.email ? { email: data.email } : {}),
    passwordHash: await hashPassword(data.password),
    validAfter: 0,
    createdAt: now,
    updatedAt: now,
  };
  const result = await users().setJSON(record.username, record, { onlyIfNew: true });
  if (!result.modified) throw new UserExistsError(`The user "${record.username}" already exists`);
  return toPublicUser(record);
}

async function change(username: string, edit: (user: UserRecord) => Partial<UserRecord>): Promise<UserRecord> {
  const key = keyFor(username);
  const updated = await updateJSON<UserRecord>(users(), key, (current) => {
    if (!current) return undefined;
    return { ...current, ...edit(current), updatedAt: new Date().toISOString() };
  });
  if (!updated) throw new UnknownUserError(`There is no user "${key}"`);
  return updated;
}

/** Sets a new password and signs the account out everywhere. */
export async function setPassword(username: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await change(username, () => ({ passwordHash, validAfter: Date.now() }));
}

/** Revokes every token issued to the account until now (logout). */
export async function revokeSessions(username: string): Promise<number> {
  const now = Date.now();
  const user = await change(username, (current) => ({ validAfter: Math.max(now, current.validAfter + 1) }));
  return user.validAfter;
}

/** Sets (or with null removes) the account's e-mail address for sign-in links. */
export async function setEmail(username: string, email: string | null): Promise<UserRecord> {
  const checked = email === null ? null : v.parse(StaffEmailSchema, email);
  // An undefined e-mail is dropped when the record is stored as JSON.
  return change(username, () => ({ email: checked ?? undefined }));
}
