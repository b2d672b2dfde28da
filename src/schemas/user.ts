import * as v from 'valibot';
import { NewUserSchema, UsernameSchema } from './auth.ts';

/** Sessions kept per account at most; a sign-in beyond this ends the oldest one. */
export const MAX_SESSIONS = 50;

/**
 * One signed-in device: the session id its token carries (`sid`), a short label of the browser it came
 * from, and when it started and was last seen (ms). Ending it (logout, "End") removes it from the account,
 * and a token whose session is not on the account is refused.
 */
export const StaffSessionSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  device: v.pipe(v.string(), v.maxLength(80)),
  createdAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lastSeenAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/**
 * A staff account as kept in the `users` store, keyed by the lower-case username (src/server/users.ts
 * parses every entry it reads with this). Names, role and e-mail follow the rules new accounts are made with.
 */
export const UserRecordSchema = v.object({
  username: UsernameSchema,
  firstName: NewUserSchema.entries.firstName,
  lastName: NewUserSchema.entries.lastName,
  role: NewUserSchema.entries.role,
  /** Optional: where one-time sign-in links and invitations go (never shown outside the Users screen). */
  email: NewUserSchema.entries.email,
  /** Missing while an invited person has not yet set a password (they cannot sign in until then). */
  passwordHash: v.optional(v.pipe(v.string(), v.nonEmpty())),
  /** False once an administrator deactivated the account: it cannot sign in and its tokens are refused. */
  active: v.optional(v.boolean(), true),
  /** When the current invitation was made (ms); its one-time link only works for this account as it is. */
  invitedAt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** Tokens issued at or before this moment (ms) are no longer accepted: sign-out everywhere and password resets move it. */
  validAfter: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** The signed-in devices; a token counts only while its session is here. */
  sessions: v.optional(v.array(StaffSessionSchema), []),
  lastSignInAt: v.optional(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type UserRecord = v.InferOutput<typeof UserRecordSchema>;
