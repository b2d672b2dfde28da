import { SignJWT, jwtVerify, errors } from 'jose';
import { recordSession, type UserRecord } from './users.ts';
import { deployContext, siteAddress } from '../platform/site.ts';

/**
 * Staff session tokens: HS256 JWTs with a pinned algorithm, issuer, audience (this site's address and deploy
 * context) and expiry. Each token also
 * carries the moment it was issued in milliseconds (`ts`), compared with the account's `validAfter` so
 * "sign out everywhere" and password resets revoke every earlier token, and its session id (`sid`, also
 * the JWT id): issuing a token records that session on the account, and a token counts only while its
 * session is there, so Logout ends one device only.
 */
export const TOKEN_ISSUER = 'https://rplpathways.com.au';
export const TOKEN_AUDIENCE = 'rpl-pathways-admin';
/**
 * Who a token is for: this site's admin, at this address, in this deploy context. A token signed in a deploy
 * preview (which may share JWT_SECRET with production) or for another address is refused everywhere else.
 */
export const tokenAudience = () => `${TOKEN_AUDIENCE} ${siteAddress()} ${deployContext()}`;
export const TOKEN_LIFETIME_SECONDS = 8 * 60 * 60;
const ALGORITHM = 'HS256';

export class AuthNotConfiguredError extends Error {}

function secret(): Uint8Array {
  const value = process.env.JWT_SECRET ?? '';
  // Refuse to sign or accept anything with a missing or guessable secret.
  if (value.length < 32) throw new AuthNotConfiguredError('JWT_SECRET is missing or shorter than 32 characters');
  return new TextEncoder().encode(value);
}

export async function issueToken(
  user: Pick<UserRecord, 'username' | 'validAfter'>,
  now = Date.now(),
  device = 'Unknown device',
): Promise<string> {
  const ts = Math.max(now, user.validAfter + 1);
  const key = secret();
  const sid = crypto.randomUUID();
  await recordSession(user.username, sid, device, now);
  return new SignJWT({ ts, sid })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(user.username)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(tokenAudience())
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + TOKEN_LIFETIME_SECONDS)
    .setJti(sid)
    .sign(key);
}

export interface TokenClaims {
  username: string;
  issuedAtMs: number;
  sessionId: string;
}

/** Verifies signature, algorithm, issuer, audience and expiry. Returns null for any bad token. */
export async function readToken(token: string, now = Date.now()): Promise<TokenClaims | null> {
  const key = secret();
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: tokenAudience(),
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: new Date(now),
    });
    if (typeof payload.sub !== 'string' || typeof payload.ts !== 'number' || typeof payload.sid !== 'string')
      return null;
    return { username: payload.sub, issuedAtMs: payload.ts, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}

/**
 * A token still counts only if it was issued after the account's last "sign out everywhere" or password
 * reset, its session has not been ended, and the account is active.
 */
export function isRevoked(claims: TokenClaims, user: Pick<UserRecord, 'validAfter' | 'sessions' | 'active'>): boolean {
  return (
    claims.issuedAtMs <= user.validAfter ||
    user.active === false ||
    !user.sessions.some((session) => session.id === claims.sessionId)
  );
}

/** A short, harmless label of the browser a sign-in came from, for the Account screen's list of sessions. */
export function deviceLabel(userAgent: string | null): string {
  const agent = userAgent ?? '';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrome\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : '';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : '';
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || 'Unknown device';
}
