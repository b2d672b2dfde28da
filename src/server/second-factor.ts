import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RefusedInput } from './http.ts';
import { db, sql } from '../platform/database.ts';
import { verifyPassword } from './passwords.ts';
import { editUser, getUser, type UserRecord } from './users.ts';
import { can, forbiddenMessage } from '../lib/roles.ts';

/**
 * A second factor for staff sign-in: the six-digit codes of an authenticator app (TOTP, RFC 6238: SHA-1,
 * 30-second steps, the step before and after accepted for clock drift), offered to administrators. Setting it
 * up takes two calls: the first creates a secret (kept as pending on the account and shown once as a QR code
 * and as text), the second proves the app has it with a current code, turns the factor on and answers ten
 * recovery codes, each good for one sign-in when the phone is lost. Only the recovery codes' SHA-256 digests
 * are kept; an accepted code's step is remembered, so a code seen over someone's shoulder cannot be used again.
 */
export const TOTP_ISSUER = 'RPL Pathways';
export const RECOVERY_CODE_COUNT = 10;
/** How long a set-up may take between showing the QR code and entering the first code. */
export const SETUP_LIFETIME_MS = 15 * 60_000;
const PERIOD_S = 30;

export const CODE_NEEDED = 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.';
export const CODE_WRONG = 'That code is not right. Enter the newest code from your authenticator app.';
export const ALREADY_ON = 'An authenticator app is already set up for your account. Turn it off first.';
export const NO_SETUP = 'The set-up has expired or was not started. Start again to get a new QR code.';
export const WRONG_PASSWORD = 'Your current password is not correct.';

const totp = (secret: string, username: string) =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

const digest = (code: string) => createHash('sha256').update(code).digest('hex');
/** Recovery codes as people may type them back: any case, with or without the dashes and spaces. */
const normalRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const RECOVERY_FORMAT = /^[a-z2-7]{12}$/;
const TOTP_FORMAT = /^\d{6}$/;

/** Setting up an app is for the roles that manage staff accounts (administrators). */
function mayUseApp(user: UserRecord) {
  if (!can(user.role, 'users')) throw new RefusedInput(403, forbiddenMessage(user.role));
}

async function checkPassword(user: UserRecord, password: string) {
  if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash)))
    throw new RefusedInput(400, WRONG_PASSWORD, 'password');
}

/** Whether the account asks for a code at sign-in. */
export const hasSecondFactor = (user: Pick<UserRecord, 'totp'>) => user.totp !== undefined;

/**
 * Starts a set-up after checking the person's password (a session left open on someone's desk must not be
 * enough to tie the account to another phone): a new secret kept as pending on the account; answers it and
 * its otpauth:// address.
 */
export async function startSetup(
  user: UserRecord,
  password: string,
  now = Date.now(),
): Promise<{ secret: string; uri: string }> {
  mayUseApp(user);
  if (user.totp) throw new RefusedInput(409, ALREADY_ON);
  await checkPassword(user, password);
  const secret = new Secret({ size: 20 }).base32;
  await editUser(user.username, () => ({ totpPending: { secret, createdAt: now } }));
  return { secret, uri: totp(secret, user.username).toString() };
}

/** The 30-second step a code from the secret's app was made for, or null when it matches none near `now`. */
function stepOf(secret: string, username: string, code: string, now: number): number | null {
  const token = code.replace(/\s/g, '');
  if (!TOTP_FORMAT.test(token)) return null;
  const delta = totp(secret, username).validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/** Ends a set-up with the app's current code: the factor is on; answers the recovery codes (shown once). */
export async function confirmSetup(user: UserRecord, code: string, now = Date.now()): Promise<string[]> {
  mayUseApp(user);
  const recovery = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    new Secret({ size: 8 }).base32.toLowerCase().slice(0, 12),
  );
  let refusal: RefusedInput | null = null;
  await editUser(user.username, (current) => {
    refusal = null;
    if (current.totp) refusal = new RefusedInput(409, ALREADY_ON);
    else if (!current.totpPending || now - current.totpPending.createdAt > SETUP_LIFETIME_MS)
      refusal = new RefusedInput(409, NO_SETUP);
    if (refusal || !current.totpPending) return null;
    const step = stepOf(current.totpPending.secret, current.username, code, now);
    if (step === null) {
      refusal = new RefusedInput(400, CODE_WRONG);
      return null;
    }
    return {
      totp: {
        secret: current.totpPending.secret,
        enabledAt: now,
        lastStep: step,
        recoveryCodes: recovery.map((entry) => digest(entry)),
      },
      totpPending: undefined,
    };
  });
  if (refusal) throw refusal;
  return recovery.map((entry) => `${entry.slice(0, 4)}-${entry.slice(4, 8)}-${entry.slice(8)}`);
}

/** Turns the factor off (and drops any set-up) after checking the person's password. */
export async function turnOff(user: UserRecord, password: string): Promise<void> {
  await checkPassword(user, password);
  await editUser(user.username, () => ({ totp: undefined, totpPending: undefined }));
}

/**
 * Checks a code typed at sign-in and uses it up: a current app code whose step is newer than the last one
 * accepted, or an unused recovery code (removed). Each is one conditional statement, so two sign-ins can never
 * both use one code.
 */
export async function redeemSecondFactor(username: string, code: string, now = Date.now()): Promise<boolean> {
  const user = await getUser(username);
  if (!user?.totp) return false;
  const step = stepOf(user.totp.secret, user.username, code, now);
  if (step !== null) {
    const moved = await db().query(sql`
      UPDATE staff SET totp_last_step = ${step}
      WHERE username = ${user.username} AND totp_secret = ${user.totp.secret} AND totp_last_step < ${step}
      RETURNING username`);
    return moved.length > 0;
  }
  const recovery = normalRecovery(code);
  if (!RECOVERY_FORMAT.test(recovery)) return false;
  const used = await db().query(sql`
    DELETE FROM staff_recovery_codes WHERE username = ${user.username} AND code_hash = ${digest(recovery)}
    RETURNING code_hash`);
  return used.length > 0;
}

/** What the Account screen shows about the factor. */
export function secondFactorStatus(user: UserRecord) {
  return {
    available: can(user.role, 'users') || hasSecondFactor(user),
    enabled: hasSecondFactor(user),
    enabledAt: user.totp ? new Date(user.totp.enabledAt).toISOString() : null,
    recoveryCodesLeft: user.totp?.recoveryCodes.length ?? 0,
  };
}

/** The app's code for the secret at `now`, as the person's phone would show it (for tests and tools). */
export const codeAt = (secret: string, username: string, now: number) =>
  totp(secret, username).generate({ timestamp: now });
