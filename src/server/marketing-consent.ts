import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { db, isoOf, sql } from '../platform/database.ts';
import { MarketingWithdrawalSchema, type InquiryRecord, type MarketingWithdrawal } from '../schemas/inquiry-record.ts';

/**
 * Withdrawn marketing consent: the suppression list. The `marketing_withdrawals` table keeps one row per e-mail
 * address that withdrew, keyed by the SHA-256 of the normalised address (the address itself is not stored
 * there), holding when and how it was withdrawn. Wherever the marketing consent is read (the inbox,
 * its CSV, a new inquiry) the list wins over the tick: every inquiry from that address shows
 * "withdrawn", and a later inquiry from it is stored without marketing consent. Any future marketing send
 * must check `withdrawalOf` first.
 *
 * A visitor withdraws from the link in every e-mail the site sends them: the inquiry id signed with an HMAC
 * (`MARKETING_LINK_SECRET`, or a key derived from `JWT_SECRET` when that is not set), checked by
 * POST /api/public/marketing-withdrawal. Staff record a withdrawal from the inbox.
 */

/** The same address however it was typed: trimmed, Unicode-normalised, lower case. */
export const normaliseEmail = (email: string) => email.normalize('NFC').trim().toLowerCase();
export const emailHash = (email: string) => createHash('sha256').update(normaliseEmail(email)).digest('hex');

/* ---------- signed links ---------- */

function linkKey(): Buffer | null {
  const own = process.env.MARKETING_LINK_SECRET ?? '';
  if (own.length >= 32) return Buffer.from(own);
  const jwt = process.env.JWT_SECRET ?? '';
  // A key of its own, so a withdrawal signature can never stand in for anything signed with the session secret.
  return jwt.length >= 32 ? createHmac('sha256', jwt).update('marketing-withdrawal-link-key').digest() : null;
}

/** The signature of an inquiry's withdrawal link (base64url, 43 characters), or null without a secret. */
export function withdrawalSignature(inquiryId: string): string | null {
  const key = linkKey();
  return key ? createHmac('sha256', key).update(`marketing-withdrawal\n${inquiryId}`).digest('base64url') : null;
}

export function isValidWithdrawalSignature(inquiryId: string, signature: string): boolean {
  const expected = withdrawalSignature(inquiryId);
  if (!expected) return false;
  const given = Buffer.from(signature);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The page a visitor opens from an e-mail: it shows a confirm button and changes nothing by itself. */
export function withdrawalUrl(siteUrl: string, inquiryId: string): string | null {
  const signature = withdrawalSignature(inquiryId);
  return signature ? `${siteUrl}/marketing-withdrawal?${new URLSearchParams({ i: inquiryId, s: signature })}` : null;
}

/** The lines every e-mail to a visitor ends with: how to stop marketing e-mails. */
export function withdrawalFooter(siteUrl: string, inquiryId: string): { text: string; html: string } {
  const url = withdrawalUrl(siteUrl, inquiryId);
  if (!url) {
    const sentence = 'To stop marketing e-mails from RPL Pathways, reply to this e-mail and say so.';
    return { text: `\n${sentence}\n`, html: `<p style="font-size:13px;color:#5b6b68">${sentence}</p>` };
  }
  const lead = 'To stop marketing e-mails from RPL Pathways, open this link and confirm (no sign-in needed):';
  return {
    text: `\n${lead}\n${url}\n`,
    html: `<p style="font-size:13px;color:#5b6b68">To stop marketing e-mails from RPL Pathways, <a href="${url.replace(/&/g, '&amp;')}">withdraw your marketing consent</a> (no sign-in needed).</p>`,
  };
}

/* ---------- the suppression list ---------- */

interface WithdrawalRow {
  email_hash: string;
  at: unknown;
  via: MarketingWithdrawal['via'];
  by_username: string | null;
  by_name: string | null;
}

const fromRow = (row: WithdrawalRow): MarketingWithdrawal =>
  v.parse(MarketingWithdrawalSchema, {
    at: isoOf(row.at),
    via: row.via,
    ...(row.by_username ? { by: { username: row.by_username, name: row.by_name ?? row.by_username } } : {}),
  });

/** When and how the address withdrew its marketing consent, or null if it has not. */
export async function withdrawalOf(email: string): Promise<MarketingWithdrawal | null> {
  const [row] = await db().query<WithdrawalRow>(
    sql`SELECT * FROM marketing_withdrawals WHERE email_hash = ${emailHash(email)}`,
  );
  return row ? fromRow(row) : null;
}

/**
 * Records that the address withdrew its marketing consent. The first withdrawal stays: a second one (a
 * link clicked twice, staff after the visitor) answers the existing record without writing.
 */
export async function recordWithdrawal(
  email: string,
  withdrawal: Omit<MarketingWithdrawal, 'at'>,
  now = new Date(),
): Promise<MarketingWithdrawal> {
  const record = v.parse(MarketingWithdrawalSchema, { ...withdrawal, at: now.toISOString() });
  await db().query(sql`
    INSERT INTO marketing_withdrawals (email_hash, at, via, by_username, by_name)
    VALUES (${emailHash(email)}, ${record.at}, ${record.via}, ${record.by?.username ?? null}, ${record.by?.name ?? null})
    ON CONFLICT (email_hash) DO NOTHING`);
  return (await withdrawalOf(email)) ?? record;
}

/** The records as staff see them: each carries `marketingWithdrawn` when its address is on the suppression list. */
export async function withMarketingState(records: InquiryRecord[]): Promise<InquiryRecord[]> {
  if (!records.length) return records;
  const hashes = [...new Set(records.map((record) => emailHash(record.contact.email)))];
  const rows = await db().query<WithdrawalRow>(
    sql`SELECT * FROM marketing_withdrawals WHERE email_hash = ANY(${hashes})`,
  );
  if (!rows.length) return records;
  const found = new Map(rows.map((row) => [row.email_hash, fromRow(row)]));
  return records.map((record) => {
    const withdrawal = found.get(emailHash(record.contact.email));
    return withdrawal ? { ...record, marketingWithdrawn: withdrawal } : record;
  });
}
