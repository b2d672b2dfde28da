import { createHash, randomBytes } from 'node:crypto';
import { db, sql } from '../platform/database.ts';
import { defaultTransport, type MailTransport } from './mail-transports.ts';
import { htmlDocument, mailSettings, textDocument, sanitizeHeader } from './mail-messages.ts';
import { getUser, type UserRecord } from './users.ts';

/**
 * One-time sign-in links: the way in for the owner of an account that an attack has locked account-wide.
 * Sent only after the correct password arrived from an address the account-wide lock applies to, and
 * only to the e-mail address stored on the account, so an attacker without that mailbox cannot use it.
 * The token is 32 random bytes; only its SHA-256 is kept (a `staff_links` row with purpose 'sign-in'), it
 * works once (one conditional UPDATE uses it up) and for 15 minutes, and not once the account is deleted,
 * deactivated, signed out everywhere or given a new password. At most LINK_MAILS_PER_WINDOW links are mailed
 * per account in LINK_MAIL_WINDOW_MS (counted in `sign_in_link_mails`), so a known password cannot be used to
 * flood the owner's mailbox.
 */
export const LINK_LIFETIME_MS = 15 * 60_000;
export const LINK_MAILS_PER_WINDOW = 3;
export const LINK_MAIL_WINDOW_MS = 15 * 60_000;
/** The one answer to every sign-in meeting the account-wide lock, whatever the account and password. */
export const LINK_SENT =
  'This account is locked after many failed sign-in attempts. If the password you entered is correct and the account has an e-mail address, a one-time sign-in link has been e-mailed to the address on the account (at most 3 links in 15 minutes). It works once, for 15 minutes. Otherwise an administrator can unlock the account.';
export const LINK_INVALID = 'This sign-in link is invalid, used or expired. Please sign in again.';

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/**
 * Takes one of the account's link mails for this window and stores the link, in one transaction that holds
 * the account's row lock, so parallel requests count one after the other: false (nothing stored) when
 * LINK_MAILS_PER_WINDOW have gone out in the last LINK_MAIL_WINDOW_MS, or the account is gone.
 */
async function claimLinkMail(username: string, token: string, now: number): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [account] = await tx.query(sql`SELECT username FROM staff WHERE username = ${username} FOR UPDATE`);
    if (!account) return false;
    // Mails older than the window count for nothing any more.
    await tx.query(
      sql`DELETE FROM sign_in_link_mails WHERE username = ${username} AND sent_at <= ${now - LINK_MAIL_WINDOW_MS}`,
    );
    const [{ sent }] = await tx.query<{ sent: number }>(
      sql`SELECT count(*)::int AS sent FROM sign_in_link_mails WHERE username = ${username}`,
    );
    if (sent >= LINK_MAILS_PER_WINDOW) return false;
    await tx.query(sql`INSERT INTO sign_in_link_mails (username, sent_at) VALUES (${username}, ${now})`);
    await tx.query(sql`
      INSERT INTO staff_links (token_hash, purpose, username, created_at, expires_at)
      VALUES (${digest(token)}, 'sign-in', ${username}, ${now}, ${now + LINK_LIFETIME_MS})`);
    return true;
  });
}

/**
 * Creates a link for the account and e-mails it; returns the mail's idempotency key, or null when the
 * account's link mails for this window are used up (nothing is created or sent).
 */
export async function sendSignInLink(
  user: UserRecord,
  transport: MailTransport = defaultTransport(),
  now = Date.now(),
): Promise<string | null> {
  if (!user.email) throw new Error('The account has no e-mail address');
  const token = randomBytes(32).toString('base64url');
  if (!(await claimLinkMail(user.username, token, now))) return null;
  const { from, siteUrl } = mailSettings();
  const url = `${siteUrl}/admin/login?link=${token}`;
  const paragraphs = [
    `Hello ${sanitizeHeader(user.firstName, 60) || 'there'},`,
    'Someone has been trying many wrong passwords on your RPL Pathways staff account, so it is locked for sign-ins from new places. Your correct password was just entered from such a place.',
    'If that was you, open this link within 15 minutes to sign in (it works once):',
    url,
    'If it was not you, do not open the link: your password is known to someone else. Ask an administrator to reset it.',
  ];
  const key = `sign-in-link-${digest(token).slice(0, 32)}`;
  await transport.send(
    {
      kind: 'sign-in-link',
      from,
      to: sanitizeHeader(user.email),
      subject: 'Your RPL Pathways sign-in link',
      text: textDocument(paragraphs),
      html: htmlDocument('Your sign-in link', paragraphs),
    },
    key,
  );
  return key;
}

/**
 * What makes a sign-in link usable: unused, unexpired, and its account active and not signed out everywhere (or
 * given a new password) since the link was made. (A deleted account's links went with it.)
 */
const USABLE = (tokenHash: string, now: number) => sql`
  l.token_hash = ${tokenHash} AND l.purpose = 'sign-in' AND l.used_at IS NULL AND l.expires_at > ${now}
  AND s.username = l.username AND s.active AND s.valid_after < l.created_at`;

/** Redeems a link once: the account it signs in, or null if it is unknown, used, expired or revoked. */
export async function redeemSignInLink(token: string, now = Date.now()): Promise<UserRecord | null> {
  if (!TOKEN_FORMAT.test(token)) return null;
  // One statement checks and uses it up, so two requests can never both use it.
  const [link] = await db().query<{ username: string }>(sql`
    UPDATE staff_links l SET used_at = ${now} FROM staff s
    WHERE ${USABLE(digest(token), now)}
    RETURNING l.username`);
  return link ? getUser(link.username) : null;
}

/** The account a link would sign in, without using it up (null when it would be refused). */
export async function peekSignInLink(token: string, now = Date.now()): Promise<UserRecord | null> {
  if (!TOKEN_FORMAT.test(token)) return null;
  const [link] = await db().query<{ username: string }>(
    sql`SELECT l.username FROM staff_links l, staff s WHERE ${USABLE(digest(token), now)}`,
  );
  return link ? getUser(link.username) : null;
}

/**
 * Forgets what no longer matters (the daily `activity-retention` run): links expired for a day and link mails
 * older than the window. Answers how many rows went.
 */
export async function pruneSignInLinks(now = Date.now()): Promise<number> {
  const [{ links }] = await db().query<{ links: number }>(sql`
    WITH gone AS (DELETE FROM staff_links WHERE expires_at < ${now - 24 * 60 * 60_000} RETURNING 1)
    SELECT count(*)::int AS links FROM gone`);
  const [{ mails }] = await db().query<{ mails: number }>(sql`
    WITH gone AS (DELETE FROM sign_in_link_mails WHERE sent_at <= ${now - LINK_MAIL_WINDOW_MS} RETURNING 1)
    SELECT count(*)::int AS mails FROM gone`);
  return links + mails;
}
