import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { acrossThreads, dataStore, updateJSON } from './blobs.ts';
import { LinkMailLogSchema, type LinkMailLog } from '../schemas/throttle.ts';
import { defaultTransport, type MailTransport } from './mail-transports.ts';
import { htmlDocument, mailSettings, textDocument, sanitizeHeader } from './mail-messages.ts';
import { getUser, type UserRecord } from './users.ts';

/**
 * One-time sign-in links: the way in for the owner of an account that an attack has locked account-wide.
 * Sent only after the correct password arrived from an address the account-wide lock applies to, and
 * only to the e-mail address stored on the account, so an attacker without that mailbox cannot use it.
 * The token is 32 random bytes; only its SHA-256 is stored (`sessions` store), it works once (a
 * conditional write claims it) and for 15 minutes, and not after a password reset or logout. At most
 * LINK_MAILS_PER_WINDOW links are mailed per account in LINK_MAIL_WINDOW_MS, so a known password cannot
 * be used to flood the owner's mailbox.
 */
export const LINK_LIFETIME_MS = 15 * 60_000;
export const LINK_MAILS_PER_WINDOW = 3;
export const LINK_MAIL_WINDOW_MS = 15 * 60_000;
/** The one answer to every sign-in meeting the account-wide lock, whatever the account and password. */
export const LINK_SENT =
  'This account is locked after many failed sign-in attempts. If the password you entered is correct and the account has an e-mail address, a one-time sign-in link has been e-mailed to the address on the account (at most 3 links in 15 minutes). It works once, for 15 minutes. Otherwise an administrator can unlock the account.';
export const LINK_INVALID = 'This sign-in link is invalid, used or expired. Please sign in again.';

interface LinkRecord {
  username: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  usedBy: string | null;
}

const store = () => dataStore('sessions');
const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const keyFor = (token: string) => `sign-in-link/${digest(token)}`;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/**
 * Takes one of the account's link mails for this window, atomically (conditional write; one at a time
 * across this process's threads): false when
 * LINK_MAILS_PER_WINDOW have gone out in the last LINK_MAIL_WINDOW_MS. A damaged log counts as empty.
 */
async function claimLinkMail(username: string, now: number): Promise<boolean> {
  const key = `link-mails/${digest(username.toLowerCase())}`;
  let claimed = false;
  await acrossThreads(`sessions\n${key}`, () =>
    updateJSON<unknown>(store(), key, (stored) => {
      claimed = false;
      const log = v.safeParse(LinkMailLogSchema, stored);
      const recent = (log.success ? log.output.sentAt : []).filter((at) => now - at < LINK_MAIL_WINDOW_MS);
      if (recent.length >= LINK_MAILS_PER_WINDOW) return undefined;
      claimed = true;
      return { sentAt: [...recent, now] } satisfies LinkMailLog;
    }),
  );
  return claimed;
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
  if (!(await claimLinkMail(user.username, now))) return null;
  const token = randomBytes(32).toString('base64url');
  const record: LinkRecord = {
    username: user.username,
    createdAt: now,
    expiresAt: now + LINK_LIFETIME_MS,
    usedAt: null,
    usedBy: null,
  };
  await store().setJSON(keyFor(token), record, { onlyIfNew: true });
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

/** Redeems a link once: the account it signs in, or null if it is unknown, used, expired or revoked. */
export async function redeemSignInLink(token: string, now = Date.now()): Promise<UserRecord | null> {
  if (!TOKEN_FORMAT.test(token)) return null;
  const claim = randomUUID();
  const result = await updateJSON<LinkRecord>(store(), keyFor(token), (current) => {
    if (!current || current.usedAt !== null || current.expiresAt <= now) return undefined;
    return { ...current, usedAt: now, usedBy: claim };
  });
  if (!result || result.usedBy !== claim) return null;
  const user = await getUser(result.username);
  // A deactivation, sign-out everywhere or password reset after the link was made cancels it.
  if (!user?.active || user.validAfter >= result.createdAt) return null;
  return user;
}

/** The account a link would sign in, without using it up (null when it would be refused). */
export async function peekSignInLink(token: string, now = Date.now()): Promise<UserRecord | null> {
  if (!TOKEN_FORMAT.test(token)) return null;
  const record = (await store().get(keyFor(token), { type: 'json' })) as LinkRecord | null;
  if (!record || record.usedAt !== null || record.expiresAt <= now) return null;
  const user = await getUser(record.username);
  if (!user?.active || user.validAfter >= record.createdAt) return null;
  return user;
}
