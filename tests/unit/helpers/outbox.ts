import { db, sql } from '../../../src/platform/database.ts';

/** A message the outbox transport kept instead of sending (no RESEND_API_KEY), as the table holds it. */
export interface KeptMail {
  idempotencyKey: string;
  kind: string;
  from: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
}

interface Row {
  idempotency_key: string;
  kind: string;
  sender: string;
  recipient: string;
  reply_to: string | null;
  subject: string;
  text: string;
  html: string;
}
const fromRow = (row: Row): KeptMail => ({
  idempotencyKey: row.idempotency_key,
  kind: row.kind,
  from: row.sender,
  to: row.recipient,
  replyTo: row.reply_to,
  subject: row.subject,
  text: row.text,
  html: row.html,
});

/** Every kept message, oldest first. */
export async function outboxMessages(): Promise<KeptMail[]> {
  return (await db().query<Row>(sql`SELECT * FROM outbox_messages ORDER BY stored_at, idempotency_key`)).map(fromRow);
}

/** The kept message with this idempotency key, or null. */
export async function outboxMessage(idempotencyKey: string): Promise<KeptMail | null> {
  const [row] = await db().query<Row>(sql`SELECT * FROM outbox_messages WHERE idempotency_key = ${idempotencyKey}`);
  return row ? fromRow(row) : null;
}

export async function clearOutbox(): Promise<void> {
  await db().query(sql`DELETE FROM outbox_messages`);
}

/** Inquiries with an e-mail of their own not yet sent or given up (held or waiting for a retry). */
export async function inquiriesWithOpenMail(): Promise<string[]> {
  const rows = await db().query<{ inquiry_id: string }>(
    sql`SELECT DISTINCT inquiry_id FROM inquiry_mail WHERE state IN ('pending', 'sending') ORDER BY inquiry_id`,
  );
  return rows.map((row) => row.inquiry_id);
}
