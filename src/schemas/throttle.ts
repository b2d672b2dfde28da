import * as v from 'valibot';

/**
 * Entries of the `throttle` store (src/server/throttle.ts): one sign-in counter per scope. Parsed on
 * every read; an entry that does not match counts as absent, so a damaged counter never blocks sign-in.
 */
const Time = v.pipe(v.number(), v.integer(), v.minValue(0));

export const ThrottleCounterSchema = v.object({
  failures: v.pipe(v.number(), v.integer(), v.minValue(0)),
  lastFailureAt: Time,
  lockedUntil: Time,
  /** Account scope only: hashes of addresses that signed in successfully (most recent last). */
  trusted: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(64))), v.maxLength(20))),
  /** Attempts reserved and not yet settled (their password check is running), each expiring by itself. */
  pending: v.optional(v.array(v.object({ id: v.pipe(v.string(), v.maxLength(64)), until: Time }))),
});
export type ThrottleCounter = v.InferOutput<typeof ThrottleCounterSchema>;

/** The link mails sent for one account (sign-in-links.ts): their times, to cap them per window. */
export const LinkMailLogSchema = v.object({ sentAt: v.array(Time) });
export type LinkMailLog = v.InferOutput<typeof LinkMailLogSchema>;
