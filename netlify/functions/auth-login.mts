import type { Config, Context } from '@netlify/functions';
import { LoginSchema } from '../../src/schemas/auth';
import { error, json, methodNotAllowed } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { DECOY_HASH, verifyPassword } from '../../src/server/passwords';
import { getUser, toPublicUser } from '../../src/server/users';
import { AuthNotConfiguredError, deviceLabel, issueToken } from '../../src/server/tokens';
import { notConfigured } from '../../src/server/auth';
import { lockedFor, lockedMessage, reserveAttempt, settle } from '../../src/server/throttle';
import { LINK_SENT, sendSignInLink } from '../../src/server/sign-in-links';
import { CODE_NEEDED, CODE_WRONG, hasSecondFactor, redeemSecondFactor } from '../../src/server/second-factor';

export const INVALID_CREDENTIALS = 'Invalid username or password.';
export const SIGN_IN_BUSY = 'Sign-in is busy right now. Please try again in a few seconds.';
export const ACCOUNT_DEACTIVATED = 'This account has been deactivated. Ask an administrator if you need access again.';

/**
 * POST /api/auth/login {username, password, code?} -> {token, user, message}; messages in docs/texts.md.
 * An account with an authenticator app also needs `code`: without it the right password gets 401 with
 * `secondFactor: true` (the attempt neither counts as a failure nor clears any), a wrong code counts as a
 * failed attempt like a wrong password.
 */
export default async (request: Request, context: Context) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const body = await parseJsonBody(LoginSchema, request, 4096);
  if (!body.ok) return body.response;
  const { username, password, code } = body.data;
  const ip = context.ip || 'unknown';

  // Reserve the attempt before any hashing, so parallel guesses cannot slip past the lock.
  const reservation = await reserveAttempt(username, ip);
  if (!reservation.ok) {
    if (reservation.failed) return busy();
    // Only the account-wide lock stands in the way (an attack from many addresses): see below.
    if (reservation.refusedBy.length === 1 && reservation.refusedBy[0] === 'account')
      return accountLocked(username, password, ip, context);
    return tooMany(reservation.waitMs);
  }

  const user = await getUser(username);
  // Always one real scrypt check (a fixed decoy hash for unknown names), so time does not reveal accounts.
  const valid = await verifyPassword(password, user?.passwordHash ?? DECOY_HASH);
  // A deactivated account is refused even with the right password (which alone earns the clearer message).
  if (!user || !valid || !user.active) {
    try {
      await settle(reservation, 'failure');
    } catch (cause) {
      // The failure could not be counted: refuse rather than answer without bookkeeping.
      console.error(`Sign-in throttle: could not record a failure: ${String(cause)}`);
      return busy();
    }
    return error(401, user && valid ? ACCOUNT_DEACTIVATED : INVALID_CREDENTIALS);
  }

  if (hasSecondFactor(user)) {
    if (!code) {
      await settle(reservation, 'release').catch((cause) =>
        console.error(`Sign-in throttle: could not release an attempt: ${String(cause)}`),
      );
      return secondFactor(CODE_NEEDED);
    }
    if (!(await redeemSecondFactor(user.username, code))) {
      try {
        await settle(reservation, 'failure');
      } catch (cause) {
        console.error(`Sign-in throttle: could not record a failure: ${String(cause)}`);
        return busy();
      }
      return secondFactor(CODE_WRONG);
    }
  }

  try {
    const token = await issueToken(user, Date.now(), deviceLabel(request.headers.get('user-agent')));
    await settle(reservation, 'success').catch((cause) =>
      console.error(`Sign-in throttle: could not record a success: ${String(cause)}`),
    );
    return json({ token, user: toPublicUser(user), message: 'Login successful! Redirecting...' });
  } catch (cause) {
    if (cause instanceof AuthNotConfiguredError) return notConfigured();
    throw cause;
  }
};

/**
 * The account is locked account-wide and this address has never signed in to it. Every such attempt gets
 * the same treatment, so the lock tells nothing about the account: this address's own limits apply and
 * count, one password check is made (against the account's hash if it has an e-mail address, else the
 * decoy), and the answer is the same 429 text whether the account exists, has an e-mail address, or the
 * password is right. The attempt counts as a failure even when the password is right, so no address tests
 * more candidates than its limit while the account is locked. Only a right password for an account with an
 * e-mail address sends a one-time sign-in link (at most 3 per 15 minutes): the owner gets in, an attacker
 * who lacks the mailbox does not. Without an e-mail address the lock holds (a staff unlock ends it).
 */
async function accountLocked(username: string, password: string, ip: string, context: Context): Promise<Response> {
  const user = await getUser(username);
  const accountWait = await lockedFor(username, ip);
  const reservation = await reserveAttempt(username, ip, Date.now(), ['account']);
  if (!reservation.ok) return reservation.failed ? busy() : tooMany(reservation.waitMs);
  const owner = user?.email && user.active ? user : null;
  const valid = await verifyPassword(password, owner?.passwordHash ?? DECOY_HASH);
  try {
    await settle(reservation, 'failure');
  } catch (cause) {
    console.error(`Sign-in throttle: could not record an attempt: ${String(cause)}`);
    return busy();
  }
  if (valid && owner) {
    const sending = sendSignInLink(owner).catch((cause) =>
      console.error(`Sign-in link for "${owner.username}" could not be sent: ${String(cause)}`),
    );
    // The answer does not wait for the mail (its time would tell a right password from a wrong one).
    if (typeof context.waitUntil === 'function') context.waitUntil(sending);
  }
  const response = error(429, LINK_SENT);
  response.headers.set('Retry-After', String(Math.max(1, Math.ceil(accountWait / 1000))));
  return response;
}

/** The password was right; the authenticator app's code is asked for (or was wrong). */
function secondFactor(message: string): Response {
  return json({ message, secondFactor: true }, { status: 401 });
}

/** A counter could not be written: the attempt is refused (never checked, never a 500). */
function busy(): Response {
  const response = error(429, SIGN_IN_BUSY);
  response.headers.set('Retry-After', '5');
  return response;
}

function tooMany(waitMs: number): Response {
  const response = error(429, lockedMessage(waitMs));
  response.headers.set('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
  return response;
}

export const config: Config = {
  path: '/api/auth/login',
  method: 'POST',
  // The platform's own per-IP limit in front of the account lockout.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
