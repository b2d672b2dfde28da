import { randomBytes } from 'node:crypto';
import { RefusedInput } from './http.ts';
import { inquiriesWithRepliesDue, referenceOf, SEND_LEASE_MS, updateInquiry, type InquiryRecord } from './inquiries.ts';
import { escapeHtml, htmlDocument, mailSettings, sanitizeHeader, type OutgoingMail } from './mail-messages.ts';
import { defaultTransport, withoutAddresses, type MailTransport } from './mail-transports.ts';
import { MAX_ATTEMPTS, retryDelayMs } from './mail.ts';
import { withdrawalFooter } from './marketing-consent.ts';
import { readSettings } from './settings.ts';
import type { InquiryReply, MailDelivery, StaffRef } from '../schemas/inquiry-record.ts';
import { fillPlaceholders, MAX_REPLIES } from '../schemas/replies.ts';

/**
 * Replies staff send to the person behind an inquiry, from the inbox. Stored first (a row of `inquiry_replies` with
 * its delivery state), then sent at once; a failed send is tried again by the
 * scheduled mail-retry function with the same backoff as the inquiry e-mails. Each reply has its own
 * idempotency key, so a retry is delivered once. The text is the staff member's, placeholders filled from the
 * inquiry; in the HTML every character of it is escaped, the visitor's name included.
 */

const isOpen = (delivery: MailDelivery) => delivery.state === 'pending' || delivery.state === 'sending';

/** Where the visitor's answer goes: the reply-to address from the settings, else the staff inbox. */
async function replyToAddress(): Promise<string> {
  try {
    const saved = (await readSettings()).contactInfo.replyTo;
    if (saved) return sanitizeHeader(saved, 254);
  } catch {
    // The settings could not be read: the staff inbox still receives the answer.
  }
  return mailSettings().staffTo;
}

/** The e-mail of one reply: the text as stored, in paragraphs, and the marketing withdrawal link. */
export function composeReply(record: InquiryRecord, reply: InquiryReply, replyTo: string): OutgoingMail {
  const { from, siteUrl } = mailSettings();
  const subject = sanitizeHeader(reply.subject);
  const withdraw = withdrawalFooter(siteUrl, record.id);
  const paragraphs = reply.body.split(/\r?\n\s*\r?\n/).filter((p) => p.trim());
  const html = paragraphs.map((p) => `<p>${escapeHtml(p.trim()).replace(/\r?\n/g, '<br>')}</p>`).join('');
  return {
    kind: 'reply',
    from,
    to: sanitizeHeader(record.contact.email, 254),
    replyTo,
    subject,
    text: `${reply.body.trim()}\n${withdraw.text}`,
    html: htmlDocument(subject, [], [], html + withdraw.html),
  };
}

/**
 * Stores a reply on the inquiry (placeholders filled from it) and sends it at once; a failed send stays
 * pending for the retry. Null when there is no such inquiry; RefusedInput (409) when its personal data was
 * erased or it holds the most replies it may.
 */
export async function sendReply(
  id: string,
  input: { subject: string; body: string },
  by: StaffRef,
  { transport = defaultTransport(), now = new Date() }: { transport?: MailTransport; now?: Date } = {},
): Promise<InquiryRecord | null> {
  const replyId = randomBytes(6).toString('hex');
  const stored = await updateInquiry(id, (current) => {
    if (current.erasedAt)
      throw new RefusedInput(409, 'The personal details of this inquiry were erased: no reply can be sent.');
    const replies = current.replies ?? [];
    if (replies.length >= MAX_REPLIES) throw new RefusedInput(409, `An inquiry keeps at most ${MAX_REPLIES} replies.`);
    const values = { firstName: current.contact.firstName.trim(), reference: referenceOf(current) };
    const reply: InquiryReply = {
      id: replyId,
      subject: fillPlaceholders(input.subject, values),
      body: fillPlaceholders(input.body, values),
      by,
      at: now.toISOString(),
      mail: {
        state: 'sending',
        attempts: 0,
        idempotencyKey: `inquiry-${current.id}-reply-${replyId}`,
        nextAttemptAt: new Date(now.getTime() + SEND_LEASE_MS).toISOString(),
      },
    };
    return { ...current, replies: [...replies, reply] };
  });
  if (!stored) return null;
  // Stored as held until the lease runs out, so a send cut short is tried again by the retry.
  return deliver(stored, [replyId], transport, now);
}

/** Sends the held replies of an inquiry and records each outcome, as the inquiry e-mails do (./mail.ts). */
async function deliver(
  record: InquiryRecord,
  replyIds: string[],
  transport: MailTransport,
  now: Date,
): Promise<InquiryRecord | null> {
  const replyTo = await replyToAddress();
  const held = (record.replies ?? []).filter((reply) => replyIds.includes(reply.id));
  const outcomes = await Promise.all(
    held.map(async (reply) => {
      try {
        const { id } = await transport.send(composeReply(record, reply, replyTo), reply.mail.idempotencyKey);
        return { id: reply.id, ok: true as const, providerId: id };
      } catch (cause) {
        const text = cause instanceof Error ? cause.message : String(cause);
        console.error(
          `[mail] reply for inquiry ${record.id} failed: ${withoutAddresses(text, [record.contact.email])}`,
        );
        return { id: reply.id, ok: false as const, error: withoutAddresses(text, [record.contact.email]) };
      }
    }),
  );
  const updated = await updateInquiry(record.id, (current) => {
    for (const outcome of outcomes) {
      const delivery = current.replies?.find((reply) => reply.id === outcome.id)?.mail;
      if (!delivery || delivery.state === 'sent') continue;
      delivery.attempts += 1;
      delivery.lastAttemptAt = now.toISOString();
      if (outcome.ok) {
        Object.assign(delivery, {
          state: 'sent',
          sentAt: now.toISOString(),
          providerId: outcome.providerId,
          via: transport.name,
        });
        delete delivery.nextAttemptAt;
      } else {
        delivery.lastError = sanitizeHeader(outcome.error, 500);
        delivery.state = delivery.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
        if (delivery.state === 'failed') delete delivery.nextAttemptAt;
        else delivery.nextAttemptAt = new Date(now.getTime() + retryDelayMs(delivery.attempts)).toISOString();
      }
    }
    return current;
  });
  return updated;
}

/** The scheduled retry: every reply whose retry time has come (or whose sender's hold ran out), held first. */
export async function retryReplyMail({
  transport = defaultTransport(),
  now = new Date(),
}: {
  transport?: MailTransport;
  now?: Date;
} = {}): Promise<{ sent: number; failed: number }> {
  const summary = { sent: 0, failed: 0 };
  for (const id of await inquiriesWithRepliesDue(now)) {
    let held: string[] = [];
    const record = await updateInquiry(id, (current) => {
      held = (current.replies ?? [])
        .filter(
          (reply) =>
            isOpen(reply.mail) &&
            reply.mail.attempts < MAX_ATTEMPTS &&
            (!reply.mail.nextAttemptAt || Date.parse(reply.mail.nextAttemptAt) <= now.getTime()),
        )
        .map((reply) => reply.id);
      if (!held.length) return null;
      for (const reply of current.replies ?? []) {
        if (!held.includes(reply.id)) continue;
        reply.mail.state = 'sending';
        reply.mail.nextAttemptAt = new Date(now.getTime() + SEND_LEASE_MS).toISOString();
      }
      return current;
    }).catch(() => null);
    if (!record || !held.length) continue;
    const updated = await deliver(record, held, transport, now);
    for (const reply of updated?.replies ?? [])
      if (held.includes(reply.id)) summary[reply.mail.state === 'sent' ? 'sent' : 'failed'] += 1;
  }
  return summary;
}
