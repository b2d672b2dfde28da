import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { db, json, sql } from '../platform/database';
import { issueApplicantLink, siteUrl } from './applicant-links';
import { getInquiry, referenceOf, type InquiryRecord } from './inquiries';
import { defaultTransport, type MailTransport } from './mail-transports';
import {
  greetingName,
  htmlDocument,
  mailSettings,
  textDocument,
  type OutgoingMail,
  sanitizeHeader,
} from './mail-messages';
import { MAX_ATTEMPTS, retryDelayMs } from './mail';
import { ApplicantMailSchema, STAGE_LABELS, type ApplicantMail } from '../schemas/applicant';

/**
 * E-mails to an applicant: a new link to their page, "we need more" for a checklist item, and a stage
 * change. Stored first (a row of applicant_mail), then sent; a failed send stays and the scheduled
 * mail-retry function sends it again with the same backoff as the inquiry e-mails (10, 20, 40 ... minutes,
 * MAX_ATTEMPTS in all). The row holds no token: a link e-mail makes a fresh link each time it is composed.
 * Each message has its own idempotency key, so a retry is delivered once.
 *
 * next_attempt_at is also the lease: whoever sends a message first moves it LEASE_MS ahead (the request that
 * stores it, or the retry taking it with one UPDATE that skips rows another run holds), so two senders never
 * hold the same message at once.
 */

export type { ApplicantMail };

interface QueuedMail {
  id: string;
  inquiryId: string;
  message: ApplicantMail;
  attempts: number;
}

interface MailRow {
  id: string;
  inquiry_id: string;
  message: unknown;
  attempts: number;
}

const LEASE_MS = 5 * 60_000;
/** Messages the retry takes at a time. */
const RETRY_BATCH = 50;

function compose(inquiry: InquiryRecord, message: ApplicantMail, link: string | null): OutgoingMail {
  const { from, staffTo } = mailSettings();
  const name = greetingName(inquiry.contact.firstName);
  const reference = referenceOf(inquiry);
  const page = `${siteUrl()}/apply`;
  let subject: string;
  let paragraphs: string[];
  if (message.kind === 'applicant-link') {
    subject = `Your applicant page – ${reference} – RPL Pathways`;
    paragraphs = [
      `Hi ${name},`,
      'Here is your private link to your applicant page, where you can send your evidence and see how your application is going. It works for 30 days; keep it to yourself.',
      link ?? page,
      `Your reference is ${reference}. If you did not ask for this link, you can ignore this e-mail.`,
      'RPL Pathways',
    ];
  } else if (message.kind === 'applicant-needs-more') {
    subject = `We need a little more evidence – ${reference} – RPL Pathways`;
    paragraphs = [
      `Hi ${name},`,
      `We looked at what you sent for "${message.item}" and we need a little more:`,
      message.note,
      `Open your applicant page from the link we sent you to add files. If the link no longer works, ask for a new one at ${page} with your e-mail address and reference ${reference}.`,
      'RPL Pathways',
    ];
  } else {
    subject = `Your application is now: ${STAGE_LABELS[message.stage]} – ${reference} – RPL Pathways`;
    paragraphs = [
      `Hi ${name},`,
      `Your application ${reference} has moved to a new stage: ${STAGE_LABELS[message.stage]}.`,
      `You can follow it on your applicant page. If your link no longer works, ask for a new one at ${page}.`,
      'RPL Pathways',
    ];
  }
  subject = sanitizeHeader(subject);
  return {
    kind: message.kind,
    from,
    to: sanitizeHeader(inquiry.contact.email, 254),
    replyTo: staffTo,
    subject,
    text: textDocument(paragraphs),
    html: htmlDocument(subject, paragraphs),
  };
}

const forget = (id: string) => db().query(sql`DELETE FROM applicant_mail WHERE id = ${id}`);

/** Sends one held message and records the outcome: gone when sent, else the time of the next try. */
async function deliver(queued: QueuedMail, transport: MailTransport, now: Date): Promise<boolean> {
  const inquiry = await getInquiry(queued.inquiryId);
  if (!inquiry || inquiry.erasedAt) {
    await forget(queued.id);
    return false;
  }
  let failure: string | null = null;
  try {
    const link = queued.message.kind === 'applicant-link' ? await issueApplicantLink(inquiry.id, now) : null;
    await transport.send(compose(inquiry, queued.message, link), `applicant-${queued.id}`);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  if (failure === null) {
    await forget(queued.id);
    return true;
  }
  console.error(`[mail] ${queued.message.kind} mail for inquiry ${queued.inquiryId} failed: ${failure}`);
  const attempts = queued.attempts + 1;
  if (attempts >= MAX_ATTEMPTS) await forget(queued.id);
  else
    await db().query(sql`
      UPDATE applicant_mail
      SET attempts = ${attempts}, last_error = ${sanitizeHeader(failure, 500)},
        next_attempt_at = ${new Date(now.getTime() + retryDelayMs(attempts)).toISOString()}
      WHERE id = ${queued.id}`);
  return false;
}

/** Stores the message, then sends it at once (a failure is left to the retry). */
export async function queueApplicantMail(
  inquiryId: string,
  message: ApplicantMail,
  { transport = defaultTransport(), now = new Date() }: { transport?: MailTransport; now?: Date } = {},
): Promise<boolean> {
  const queued: QueuedMail = {
    id: `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(6).toString('hex')}`,
    inquiryId,
    message: v.parse(ApplicantMailSchema, message),
    attempts: 0,
  };
  // Held by this request from the start: the retry leaves it alone for LEASE_MS.
  await db().query(sql`
    INSERT INTO applicant_mail (id, inquiry_id, message, created_at, attempts, next_attempt_at)
    VALUES (${queued.id}, ${inquiryId}, ${json(queued.message)}::jsonb, ${now.toISOString()}, 0,
      ${new Date(now.getTime() + LEASE_MS).toISOString()})`);
  return deliver(queued, transport, now);
}

/**
 * The scheduled retry: every stored message whose time has come, a batch at a time, each taken by moving its
 * time LEASE_MS ahead in the same statement that finds it (rows another run is taking are skipped).
 */
export async function retryApplicantMail({
  transport = defaultTransport(),
  now = new Date(),
}: {
  transport?: MailTransport;
  now?: Date;
} = {}): Promise<{ sent: number; failed: number }> {
  const summary = { sent: 0, failed: 0 };
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  for (;;) {
    const held = await db().query<MailRow>(sql`
      UPDATE applicant_mail SET next_attempt_at = ${lease}
      WHERE id IN (
        SELECT id FROM applicant_mail WHERE next_attempt_at <= ${now.toISOString()}
        ORDER BY next_attempt_at LIMIT ${RETRY_BATCH} FOR UPDATE SKIP LOCKED
      )
      RETURNING id, inquiry_id, message, attempts`);
    for (const row of held) {
      const message = v.safeParse(ApplicantMailSchema, row.message);
      if (!message.success) {
        console.error(`[mail] applicant mail ${row.id} does not parse: ${message.issues[0].message}`);
        await forget(row.id);
        continue;
      }
      const queued = { id: row.id, inquiryId: row.inquiry_id, message: message.output, attempts: row.attempts };
      summary[(await deliver(queued, transport, now)) ? 'sent' : 'failed'] += 1;
    }
    if (held.length < RETRY_BATCH) break;
  }
  return summary;
}
