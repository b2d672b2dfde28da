import {
  MAIL_KINDS,
  SEND_LEASE_MS,
  inquiriesWithMailDue,
  updateInquiry,
  type InquiryRecord,
  type MailDelivery,
  type MailKind,
} from './inquiries';
import { loadCatalogue } from './catalogue';
import { issueApplicantLink } from './applicant-links';
import { defaultSiteSettings } from '../lib/site-settings';
import { readSettings } from './settings';
import { composeMail, sanitizeHeader } from './mail-messages';
import { type MailTransport, defaultTransport, withoutAddresses } from './mail-transports';

/**
 * E-mail for stored inquiries: a notification to staff and an acknowledgement to the visitor.
 * Through Resend when RESEND_API_KEY is set, otherwise into the `outbox_messages` table and the log.
 * Every send carries an idempotency key derived from inquiry id + message kind, so however often a
 * message is retried it is delivered once (Resend keeps keys for 24 hours; the outbox keys by it).
 *
 * This file sends and retries (the outbox of pending mail); the messages are composed in ./mail-messages.ts
 * and handed to a provider from ./mail-transports.ts.
 */

/* ---------- Retry schedule ---------- */

/** Attempts per message, the first included. 10+20+40+...+640 min: the last retry lands ~21 h in, inside Resend's 24 h key window. */
export const MAX_ATTEMPTS = 8;
export const RETRY_BASE_MS = 10 * 60_000;
/** Wait after the n-th failed attempt: 10 min, 20 min, 40 min ... doubling. */
export const retryDelayMs = (failedAttempts: number) => RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1);
const SEND_TIMEOUT_MS = 10_000;

/* ---------- Delivery ---------- */

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer from the mail service within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The business phone from the saved site settings, or the default when they cannot be read. */
async function savedPhone(): Promise<string> {
  try {
    return (await readSettings()).contactInfo.phone;
  } catch {
    return defaultSiteSettings.contactInfo.phone;
  }
}

type Outcome = { kind: MailKind; ok: true; id: string } | { kind: MailKind; ok: false; error: string };

const isOpen = (delivery: MailDelivery) => delivery.state === 'pending' || delivery.state === 'sending';

/**
 * Sends the given messages of an inquiry (already held by this caller) and records each outcome:
 * sent, or failed with the error and the time of the next try; after MAX_ATTEMPTS it gives up.
 */
export async function sendHeld(
  record: InquiryRecord,
  kinds: readonly MailKind[],
  transport: MailTransport,
  now = new Date(),
) {
  // The phone number as staff saved it, for a quote answered with no listed qualification.
  const phone = record.kind === 'quote' && kinds.includes('ack') ? await savedPhone() : undefined;
  const { catalogue } = await loadCatalogue();
  const outcomes: Outcome[] = await Promise.all(
    kinds.map(async (kind): Promise<Outcome> => {
      try {
        // Each attempt makes a fresh link (only its hash is stored, so an earlier one cannot be repeated).
        // Without one (the store failed), the acknowledgement still goes: the page offers to send a new link.
        const link =
          kind === 'ack' && record.kind === 'quote' ? await issueApplicantLink(record.id, now).catch(() => null) : null;
        const { id } = await withTimeout(
          transport.send(
            composeMail(record, kind, { applicantLink: link, phone, catalogue }),
            record.mail[kind].idempotencyKey,
          ),
          SEND_TIMEOUT_MS,
        );
        return { kind, ok: true, id };
      } catch (error) {
        // Logged and kept with the delivery state: never the visitor's address.
        const text = error instanceof Error ? error.message : String(error);
        return { kind, ok: false, error: withoutAddresses(text, [record.contact.email]) };
      }
    }),
  );
  const updated = await updateInquiry(record.id, (current) => {
    for (const outcome of outcomes) {
      const delivery = current.mail[outcome.kind];
      if (delivery.state === 'sent') continue;
      delivery.attempts += 1;
      delivery.lastAttemptAt = now.toISOString();
      if (outcome.ok) {
        Object.assign(delivery, {
          state: 'sent',
          sentAt: now.toISOString(),
          providerId: outcome.id,
          via: transport.name,
        });
        delete delivery.nextAttemptAt;
      } else {
        delivery.lastError = sanitizeHeader(outcome.error, 500);
        if (delivery.attempts >= MAX_ATTEMPTS) {
          delivery.state = 'failed';
          delete delivery.nextAttemptAt;
        } else {
          delivery.state = 'pending';
          delivery.nextAttemptAt = new Date(now.getTime() + retryDelayMs(delivery.attempts)).toISOString();
        }
      }
    }
    return current;
  });
  for (const outcome of outcomes) {
    if (!outcome.ok) console.error(`[mail] ${outcome.kind} mail for inquiry ${record.id} failed: ${outcome.error}`);
  }
  return { record: updated, outcomes };
}

/** Right after storing: the storing request holds both messages (see createInquiry) and sends them now. */
export const sendNewInquiryMail = (record: InquiryRecord, transport = defaultTransport(), now = new Date()) =>
  sendHeld(record, MAIL_KINDS, transport, now);

/**
 * The scheduled retry: for every inquiry with an e-mail whose retry time has come (or whose sender's hold ran
 * out), take those messages in one locked change of the inquiry, so two runs never send the same message at
 * once, then send them.
 */
export async function retryPendingMail({
  transport = defaultTransport(),
  now = new Date(),
}: {
  transport?: MailTransport;
  now?: Date;
} = {}) {
  const summary = { inquiries: 0, sent: 0, failed: 0 };
  for (const id of await inquiriesWithMailDue(now)) {
    let held: MailKind[] = [];
    const record = await updateInquiry(id, (current) => {
      held = MAIL_KINDS.filter((kind) => {
        const delivery = current.mail[kind];
        return (
          isOpen(delivery) &&
          delivery.attempts < MAX_ATTEMPTS &&
          (!delivery.nextAttemptAt || Date.parse(delivery.nextAttemptAt) <= now.getTime())
        );
      });
      if (!held.length) return null;
      for (const kind of held) {
        current.mail[kind].state = 'sending';
        current.mail[kind].nextAttemptAt = new Date(now.getTime() + SEND_LEASE_MS).toISOString();
      }
      return current;
    });
    if (!record || !held.length) continue;
    summary.inquiries += 1;
    const { outcomes } = await sendHeld(record, held, transport, now);
    for (const outcome of outcomes) summary[outcome.ok ? 'sent' : 'failed'] += 1;
  }
  return summary;
}
