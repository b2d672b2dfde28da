import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (Node's built-in implementation of RFC 7914). The stored form carries its
 * own parameters, so they can be raised later without invalidating existing hashes:
 *   scrypt$N$r$p$<salt base64url>$<hash base64url>
 */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 128 * options.N! * options.r! * 2 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, DEFAULTS);
  return ['scrypt', DEFAULTS.N, DEFAULTS.r, DEFAULTS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  if (![options.N, options.r, options.p].every(Number.isSafeInteger) || options.N < 2 ** 14 || options.N > 2 ** 20)
    return false;
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, Buffer.from(salt, 'base64url'), options);
  return timingSafeEqual(actual, expected);
}

/**
 * The hash checked when the account does not exist: a fixed scrypt hash with the default parameters of a
 * random password nobody knows (never computed at run time, so no instance's first answer is slower).
 * One real verify against it costs exactly what a known account's check costs.
 */
export const DECOY_HASH = 'scrypt$32768$8$1$PknkdtHhkz07pw37Oh6s0w$HZHUiKd1jGln8BTQUsiPy_9lplmLR_oHB9HK7XB0yN4';
export const HASH_DEFAULTS = DEFAULTS;

/** A strong random password for new accounts and resets (printed once, never stored in clear). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
