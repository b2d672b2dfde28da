import { openLocalData } from '../../../scripts/lib/local-data.ts';
import { db, sql } from '../../../src/platform/database.ts';

/**
 * What the local site (`npm start`) stored, read from its database as the functions left it: the mail it kept
 * instead of sending (no RESEND_API_KEY: the `outbox_messages` table), the marketing suppression list.
 */
async function withLocalData<T>(work: () => Promise<T>): Promise<T> {
  const target = await openLocalData({});
  try {
    return await work();
  } finally {
    await target.close();
  }
}

export interface KeptMail {
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
}

/** The kept mail to `to` whose idempotency key starts with `keyPrefix`, newest first. */
export function keptMailTo(to: string, keyPrefix = ''): Promise<KeptMail[]> {
  return withLocalData(() =>
    db().query<KeptMail>(sql`
      SELECT recipient AS "to", reply_to AS "replyTo", subject, text, html FROM outbox_messages
      WHERE recipient = ${to} AND starts_with(idempotency_key, ${keyPrefix})
      ORDER BY stored_at DESC`),
  );
}

/** The kept mail with this idempotency key (`inquiry-{id}-ack`, say), or null while there is none. */
export async function keptMail(idempotencyKey: string): Promise<KeptMail | null> {
  const [mail] = await withLocalData(() =>
    db().query<KeptMail>(sql`
      SELECT recipient AS "to", reply_to AS "replyTo", subject, text, html FROM outbox_messages
      WHERE idempotency_key = ${idempotencyKey}`),
  );
  return mail ?? null;
}

/** An inquiry's own kept mail by kind (staff, ack). */
export async function keptMailOf(inquiryId: string): Promise<Record<string, KeptMail>> {
  const rows = await withLocalData(() =>
    db().query<KeptMail & { key: string }>(sql`
      SELECT idempotency_key AS key, recipient AS "to", reply_to AS "replyTo", subject, text, html FROM outbox_messages
      WHERE starts_with(idempotency_key, ${`inquiry-${inquiryId}-`})`),
  );
  return Object.fromEntries(rows.map(({ key, ...mail }) => [key.slice(`inquiry-${inquiryId}-`.length), mail]));
}

/** Whether an address is on the marketing suppression list (kept by the SHA-256 of the normalised address). */
export async function isSuppressed(emailHash: string): Promise<boolean> {
  const rows = await withLocalData(() =>
    db().query(sql`SELECT 1 FROM marketing_withdrawals WHERE email_hash = ${emailHash}`),
  );
  return rows.length > 0;
}

export { withLocalData };
