import { randomBytes } from 'node:crypto';
import { dataStore, updateJSON } from './blobs';
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
import { STAGE_LABELS, type Stage } from '../schemas/applicant';

/**
 * E-mails to an applicant: a new link to their page, "we need more" for a checklist item, and a stage
 * change. Stored first (applicants store, `mail/{id}`), then sent; a failed send stays and the scheduled
 * mail-retry function sends it again with the same backoff as the inquiry e-mails (10, 20, 40 ... minutes,
 * MAX_ATTEMPTS in all). The entry holds no token: a link e-mail makes a fresh link each time it is composed.
 * Each message has its own idempotency key, so a retry is delivered once.
 */

export type ApplicantMail =
  | { kind: 'applicant-link' }
  | { kind: 'applicant-needs-more'; item: string; note: string }
  | { kind: 'applicant-stage'; stage: Stage };

interface QueuedMail {
  id: string;
  inquiryId: string;
  message: ApplicantMail;
  createdAt: string;
  attempts: number;
  /** Not before this time (a sender holds it until then, or the retry waits). */
  nextAttemptAt: string;
  lastError?: string;
}

const store = () => dataStore('applicants');
const mailKey = (id: string) => `mail/${id}`;
const LEASE_MS = 5 * 60_000;

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

/** Sends one held message and records the outcome: gone when sent, else the time of the next try. */
async function deliver(queued: QueuedMail, transport: MailTransport, now: Date): Promise<boolean> {
  const inquiry = await getInquiry(queued.inquiryId);
  if (!inquiry || inquiry.erasedAt) {
    await store().delete(mailKey(queued.id));
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
    await store().delete(mailKey(queued.id));
    return true;
  }
  console.error(`[mail] ${queued.message.kind} mail for inquiry ${queued.inquiryId} failed: ${failure}`);
  const attempts = queued.attempts + 1;
  if (attempts >= MAX_ATTEMPTS) await store().delete(mailKey(queued.id));
  else
    await store().setJSON(mailKey(queued.id), {
      ...queued,
      attempts,
      lastError: sanitizeHeader(failure, 500),
      nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
    } satisfies QueuedMail);
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
    message,
    createdAt: now.toISOString(),
    attempts: 0,
    nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString(),
  };
  await store().setJSON(mailKey(queued.id), queued);
  return deliver(queued, transport, now);
}

/** The scheduled retry: every stored message whose time has come, taken with a conditional write first. */
export async function retryApplicantMail({
  transport = defaultTransport(),
  now = new Date(),
}: {
  transport?: MailTransport;
  now?: Date;
} = {}): Promise<{ sent: number; failed: number }> {
  const summary = { sent: 0, failed: 0 };
  for await (const page of store().list({ prefix: 'mail/', paginate: true })) {
    for (const blob of page.blobs) {
      let held: QueuedMail | null = null;
      await updateJSON<QueuedMail>(store(), blob.key, (current) => {
        if (!current || Date.parse(current.nextAttemptAt) > now.getTime()) return undefined;
        held = { ...current, nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString() };
        return held;
      });
      if (held) summary[(await deliver(held, transport, now)) ? 'sent' : 'failed'] += 1;
    }
  }
  return summary;
}
