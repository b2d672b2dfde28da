import * as v from 'valibot';

/**
 * A row of `sign_in_counters` (src/server/throttle.ts) as the code uses it: one sign-in counter per scope.
 * Parsed on every read; attempts in flight of the wrong shape are forgotten, so a damaged row never blocks
 * sign-in.
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
