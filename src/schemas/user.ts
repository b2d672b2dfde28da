import * as v from 'valibot';
import { NewUserSchema, UsernameSchema } from './auth.ts';

/**
 * A staff account as kept in the `users` store, keyed by the lower-case username (src/server/users.ts
 * parses every entry it reads with this). Names, role and e-mail follow the rules new accounts are made with.
 */
export const UserRecordSchema = v.object({
  username: UsernameSchema,
  firstName: NewUserSchema.entries.firstName,
  lastName: NewUserSchema.entries.lastName,
  role: NewUserSchema.entries.role,
  /** Optional: where one-time sign-in links go when the account is locked (never shown in the UI). */
  email: NewUserSchema.entries.email,
  passwordHash: v.pipe(v.string(), v.nonEmpty()),
  /** Tokens issued at or before this moment (ms) are no longer accepted: logout and password resets move it. */
  validAfter: v.pipe(v.number(), v.integer(), v.minValue(0)),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type UserRecord = v.InferOutput<typeof UserRecordSchema>;
