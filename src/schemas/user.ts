import * as v from 'valibot';
import { NewUserSchema, UsernameSchema } from './auth.ts';

/** Sessions kept per account at most; a sign-in beyond this ends the oldest one. */
export const MAX_SESSIONS = 50;

/**
 * One signed-in device: the session id its token carries (`sid`), a short label of the browser it came
 * from, and when it started and was last seen (ms): a `staff_sessions` row. Ending it (logout, "End") deletes
 * the row, and a token whose session is not on the account is refused.
 */
export const StaffSessionSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  device: v.pipe(v.string(), v.maxLength(80)),
  createdAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lastSeenAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** A base32 TOTP secret (RFC 4648 alphabet, no padding): 160 bits are 32 characters. */
const TotpSecretSchema = v.pipe(v.string(), v.regex(/^[A-Z2-7]{32}$/));

/**
 * The account's second factor once set up: the authenticator app's shared secret, the last 30-second step a
 * code was accepted for (a code is never accepted twice), and the recovery codes, kept only as SHA-256 digests
 * (`staff_recovery_codes` rows: each one works once; a used one is deleted).
 */
export const TotpRecordSchema = v.object({
  secret: TotpSecretSchema,
  enabledAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lastStep: v.pipe(v.number(), v.integer(), v.minValue(0)),
  recoveryCodes: v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-f0-9]{64}$/))), v.maxLength(10)),
});

/** A second factor being set up: the secret shown to the person, until they prove their app has it. */
export const TotpPendingSchema = v.object({
  secret: TotpSecretSchema,
  createdAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/**
 * A staff account as the code uses it: assembled by src/server/users.ts from its `staff` row (keyed by the
 * lower-case username), its `staff_sessions` rows and its `staff_recovery_codes`, and parsed with this. Names,
 * role and e-mail follow the rules new accounts are made with.
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
  /** An authenticator app's codes are asked for at sign-in once this is set (administrators may set it up). */
  totp: v.optional(TotpRecordSchema),
  totpPending: v.optional(TotpPendingSchema),
  lastSignInAt: v.optional(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type UserRecord = v.InferOutput<typeof UserRecordSchema>;
