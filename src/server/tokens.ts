import { SignJWT, jwtVerify, errors } from 'jose';
import type { UserRecord } from './users.ts';

/**
 * Staff session tokens: HS256 JWTs with a pinned algorithm, issuer, audience and expiry. Each token also
 * carries the moment it was issued in milliseconds (`ts`), compared with the account's `validAfter` so
 * logout and password resets revoke every earlier token.
 */
export const TOKEN_ISSUER = 'https://rplpathways.com.au';
export const TOKEN_AUDIENCE = 'rpl-pathways-admin';
export const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;
const ALGORITHM = 'HS256';

export class AuthNotConfiguredError extends Error {}

function secret(): Uint8Array {
  const value = process.env.JWT_SECRET ?? '';
  // Refuse to sign or accept anything with a missing or guessable secret.
  if (value.length < 32) throw new AuthNotConfiguredError('JWT_SECRET is missing or shorter than 32 characters');
  return new TextEncoder().encode(value);
}

export async function issueToken(user: Pick<UserRecord, 'username' | 'validAfter'>, now = Date.now()): Promise<string> {
  const ts = Math.max(now, user.validAfter + 1);
  return new SignJWT({ ts })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(user.username)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + TOKEN_LIFETIME_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(secret());
}

export interface TokenClaims {
  username: string;
  issuedAtMs: number;
}

/** Verifies signature, algorithm, issuer, audience and expiry. Returns null for any bad token. */
export async function readToken(token: string, now = Date.now()): Promise<TokenClaims | null> {
  const key = secret();
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== 'string' || typeof payload.ts !== 'number') return null;
    return { username: payload.sub, issuedAtMs: payload.ts };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}

/** A token still counts only if it was issued after the account's last logout or password change. */
export function isRevoked(claims: TokenClaims, user: Pick<UserRecord, 'validAfter'>): boolean {
  return claims.issuedAtMs <= user.validAfter;
}
