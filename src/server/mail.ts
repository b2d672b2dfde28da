import { Resend } from 'resend';
import { dataStore } from './blobs';
import {
  MAIL_KINDS,
  SEND_LEASE_MS,
  clearPendingMail,
  getInquiry,
  listPendingMailIds,
  referenceOf,
  updateInquiry,
  type InquiryRecord,
  type MailDelivery,
  type MailKind,
} from './inquiries';
import { resultOfQuote } from './quote-result';
import { mergedChecklist } from '../lib/evidence-checklist';
import { issueApplicantLink } from './applicants';
import { withdrawalFooter } from './marketing-consent';
import { quoteRows } from '../lib/quote-rows';
import { defaultSiteSettings, telHref } from '../lib/site-settings';
import { readSettings } from './settings';
import { CALL_BACK_HREF, NO_QUALIFICATION, shownResult } from '../lib/no-qualification';

/**
 * E-mail for stored inquiries: a notification to staff and an acknowledgement to the visitor.
 * Through Resend when RESEND_API_KEY is set, otherwise into the local `outbox` store and the log.
 * Every send carries an idempotency key derived from inquiry id + message kind, so however often a
 * message is retried it is delivered once (Resend keeps keys for 24 hours; the outbox keys by it).
 */

export interface OutgoingMail {
  /** An inquiry's message, a staff sign-in link (src/server/sign-in-links.ts) or an applicant's (src/server/applicant-mail.ts). */
  kind: MailKind | 'sign-in-link' | 'staff-invite' | 'applicant-link' | 'applicant-needs-more' | 'applicant-stage';
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  name: 'resend' | 'outbox';
  send(mail: OutgoingMail, idempotencyKey: string): Promise<{ id: string }>;
}

/* ---------- Retry schedule ---------- */

/** Attempts per message, the first included. 10+20+40+...+640 min: the last retry lands ~21 h in, inside Resend's 24 h key window. */
export const MAX_ATTEMPTS = 8;
export const RETRY_BASE_MS = 10 * 60_000;
/** Wait after the n-th failed attempt: 10 min, 20 min, 40 min ... doubling. */
export const retryDelayMs = (failedAttempts: number) => RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1);
const SEND_TIMEOUT_MS = 10_000;

/* ---------- Header and body safety ---------- */

/** For anything that ends up in a mail header (subject, names, addresses): no CR/LF or other control characters. */
export function sanitizeHeader(value: string, max = 200): string {
  // eslint-disable-next-line no-control-regex
  return value
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Longest first name used in a greeting; anything longer is greeted as "there". */
export const GREETING_NAME_MAX = 30;
/** One word: a letter, then letters, accents, apostrophes or hyphens. No spaces, dots, digits or symbols. */
const GREETING_NAME = /^\p{L}[\p{L}\p{M}'’-]*$/u;

/**
 * The acknowledgement goes to an address nobody has verified, so it carries no visitor-written text
 * except a single first name that really looks like one ("Hi Jane,"); anything else is "Hi there,".
 * This keeps the form from being used to send a stranger a sentence or a link from our domain.
 */
export function greetingName(firstName: string): string {
  const name = firstName.normalize('NFC').trim();
  return name.length <= GREETING_NAME_MAX && GREETING_NAME.test(name) ? name : 'there';
}

/* ---------- Settings ---------- */

export function mailSettings() {
  return {
    from: sanitizeHeader(process.env.MAIL_FROM || 'RPL Pathways <no-reply@rplpathways.com.au>'),
    staffTo: sanitizeHeader(process.env.MAIL_TO || 'support@rplpathways.com.au'),
    // Links in mails: the site's address. Netlify sets URL; the local server (scripts/serve.mjs) sets
    // LOCAL_SITE_URL, since the local CLI points URL at its own port, behind the site's front door.
    siteUrl: (
      process.env.LOCAL_SITE_URL ||
      process.env.SITE_URL ||
      process.env.URL ||
      'https://rplpathways.com.au'
    ).replace(/\/$/, ''),
  };
}

/* ---------- Messages ---------- */

type Row = [label: string, value: string];

function inquiryRows(record: InquiryRecord): Row[] {
  const { contact, quote } = record;
  const rows: Row[] = [
    ['Name', `${contact.firstName} ${contact.lastName}`],
    ['E-mail', contact.email],
    ['Phone', contact.phone],
  ];
  if (record.message !== undefined) rows.push(['Message', record.message]);
  if (quote) {
    rows.push(...quoteRows(quote).map(({ label, text }): Row => [label, text]));
    if (quote.matches) rows.push(['Indicative result shown', shownResult(quote.matches)]);
  }
  if (record.consents) {
    rows.push(
      [
        'Share with partner RTO',
        record.consents.partnerRto ? 'Yes' : 'No (ask before passing these details to an RTO)',
      ],
      ['Marketing e-mails', record.consents.marketing ? 'Yes' : 'No'],
    );
  }
  return rows;
}

const formName = (record: InquiryRecord) =>
  record.kind === 'quote'
    ? 'free quote request'
    : record.source === 'home'
      ? 'consultation request (home page)'
      : 'contact message';

export function htmlDocument(title: string, paragraphs: string[], rows: Row[] = [], after = ''): string {
  const table = rows.length
    ? `<table cellpadding="8" cellspacing="0" border="0" style="border-collapse:collapse;width:100%;max-width:640px">${rows
        .map(
          ([label, value]) =>
            `<tr><th align="left" valign="top" style="border-bottom:1px solid #d9e2e0;width:34%">${escapeHtml(label)}</th>` +
            `<td valign="top" style="border-bottom:1px solid #d9e2e0">${escapeHtml(value).replace(/\r?\n/g, '<br>')}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  return (
    `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:Arial,sans-serif;color:#16211f;line-height:1.5">` +
    paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    table +
    after +
    `</body></html>`
  );
}

export const textDocument = (paragraphs: string[], rows: Row[] = []) =>
  `${[...paragraphs, '', ...rows.map(([label, value]) => `${label}:\n${value}\n`)].join('\n').trim()}\n`;

/**
 * The quote acknowledgement's indicative result: for each match shown on the site, the evidence that
 * usually supports it and what RPL cannot give for it (from the catalogue, never from the visitor's text).
 * When the visitor asked for suggestions and nothing listed matched, the same honest answer as on the
 * site: no qualification for that trade yet, with the phone number and the call-back request.
 */
export function quoteChecklist(
  record: InquiryRecord,
  phone = defaultSiteSettings.contactInfo.phone,
): { text: string; html: string } {
  const items = resultOfQuote(record.quote);
  const title = 'Your indicative result';
  if (record.quote?.notSure && !items.length) {
    const callBack = `${mailSettings().siteUrl}${CALL_BACK_HREF}`;
    const lines = [
      `${NO_QUALIFICATION}.`,
      `Tell us about your work and we'll tell you honestly what can be recognised: call us on ${phone}, or ask us to call you back: ${callBack}`,
    ];
    return {
      text: `\n${title.toUpperCase()}\n${lines.join('\n')}\n`,
      html:
        `<h2 style="font-size:18px;margin:24px 0 8px">${escapeHtml(title)}</h2>` +
        `<p style="margin:0 0 8px"><strong>${escapeHtml(lines[0])}</strong></p>` +
        `<p style="margin:0 0 8px">Tell us about your work and we'll tell you honestly what can be recognised: call us on ` +
        `<a href="${escapeHtml(telHref(phone))}">${escapeHtml(phone)}</a>, or <a href="${escapeHtml(callBack)}">ask us to call you back</a>.</p>`,
    };
  }
  if (!items.length) return { text: '', html: '' };
  const caveat =
    'An indication from what you told us, not an assessment: only a partner RTO assessor can decide whether your evidence meets a qualification.';
  const groups = mergedChecklist(items);
  const headed = groups.length > 1 || items.length > 1;
  const checklistTitle = 'Your evidence checklist';
  const checklistIntro =
    'What usually supports an application. Copies or photos are fine for now; you do not need everything.';
  const lines = [
    '',
    title.toUpperCase(),
    caveat,
    ...items.flatMap((item) => [
      '',
      `${item.code} ${item.title} (${item.level})${item.selected ? ' - you chose this' : ''}`,
      ...(item.fee ? [`Fee: ${item.fee}`] : []),
      ...(item.notIncluded ? ['What RPL cannot give you:', `  ${item.notIncluded}`] : []),
    ]),
    '',
    checklistTitle.toUpperCase(),
    checklistIntro,
    ...groups.flatMap((group) => [
      ...(headed ? ['', `${group.heading}:`] : []),
      ...group.items.map((line) => `  [ ] ${line}`),
    ]),
  ];
  const text = `${lines.join('\n')}\n`;
  const html =
    `<h2 style="font-size:18px;margin:24px 0 8px">${escapeHtml(title)}</h2><p style="margin:0 0 12px">${escapeHtml(caveat)}</p>` +
    items
      .map(
        (item) =>
          `<h3 style="font-size:16px;margin:16px 0 4px">${escapeHtml(`${item.code} ${item.title} (${item.level})`)}${item.selected ? ' <small>(you chose this)</small>' : ''}</h3>` +
          (item.fee ? `<p style="margin:0 0 8px"><strong>Fee:</strong> ${escapeHtml(item.fee)}</p>` : '') +
          (item.notIncluded
            ? `<p style="margin:0 0 8px"><strong>What RPL cannot give you:</strong> ${escapeHtml(item.notIncluded)}</p>`
            : ''),
      )
      .join('') +
    `<h2 style="font-size:18px;margin:24px 0 8px">${escapeHtml(checklistTitle)}</h2><p style="margin:0 0 8px">${escapeHtml(checklistIntro)}</p>` +
    groups
      .map(
        (group) =>
          (headed ? `<h3 style="font-size:16px;margin:12px 0 4px">${escapeHtml(group.heading)}</h3>` : '') +
          `<ul style="margin:0 0 8px">${group.items.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
      )
      .join('');
  return { text, html };
}

/**
 * The two messages of an inquiry, with every header value sanitised and every HTML value escaped. A quote's
 * acknowledgement carries the private link to the applicant page when one could be made (`applicantLink`), and
 * the business phone as staff saved it (`phone`) for a quote answered with no listed qualification.
 */
export function composeMail(
  record: InquiryRecord,
  kind: MailKind,
  { applicantLink, phone }: { applicantLink?: string | null; phone?: string } = {},
): OutgoingMail {
  const { from, staffTo, siteUrl } = mailSettings();
  const { contact } = record;
  const fullName = sanitizeHeader(`${contact.firstName} ${contact.lastName}`, 121);
  const visitor = sanitizeHeader(contact.email, 254);

  if (kind === 'staff') {
    const subject = sanitizeHeader(
      record.kind === 'quote'
        ? `New free quote request from ${fullName} (${record.quote?.state ?? ''})`
        : `New ${record.source === 'home' ? 'consultation request' : 'contact message'} from ${fullName}`,
    );
    const intro = [
      `A new ${formName(record)} arrived on ${record.createdAt} (reference ${referenceOf(record)}).`,
      `Reply to this e-mail to answer ${fullName} directly, and mark it handled in the staff inbox: ${siteUrl}/admin/inquiries`,
    ];
    const rows = inquiryRows(record);
    return {
      kind,
      from,
      to: staffTo,
      replyTo: visitor,
      subject,
      text: textDocument(intro, rows),
      html: htmlDocument(subject, intro, rows),
    };
  }

  const name = greetingName(contact.firstName);
  const subject =
    record.kind === 'quote'
      ? 'We received your free quote request – RPL Pathways'
      : 'We received your message – RPL Pathways';
  const paragraphs =
    record.kind === 'quote'
      ? [
          `Hi ${name},`,
          'Thank you for requesting a free quote from RPL Pathways. One of our team will reply within 24 hours with the qualification that fits your experience and what it involves.',
          record.quote?.courses.length
            ? `You asked about: ${record.quote.courses.map((c) => `${c.code} ${c.title}`).join('; ')}.`
            : 'You asked us to suggest qualifications from your experience.',
          `Your reference is ${referenceOf(record)}. If anything changes, simply reply to this e-mail.`,
          `Rather talk it through? Call us on ${phone ?? defaultSiteSettings.contactInfo.phone} and quote your reference.`,
          ...(applicantLink
            ? [
                'Send your evidence and follow your application on your private applicant page (the link works for 30 days; keep it to yourself):',
                applicantLink,
              ]
            : []),
          'RPL Pathways',
        ]
      : [
          `Hi ${name},`,
          "Thank you for getting in touch with RPL Pathways. We have your message and we'll reply within 24 hours.",
          `Your reference is ${referenceOf(record)}. If you need to add anything, simply reply to this e-mail.`,
          'RPL Pathways',
        ];
  const checklist = record.kind === 'quote' ? quoteChecklist(record, phone) : { text: '', html: '' };
  // Every e-mail to a visitor ends with the signed link that withdraws marketing consent.
  const withdraw = withdrawalFooter(siteUrl, record.id);
  return {
    kind,
    from,
    to: visitor,
    replyTo: staffTo,
    subject,
    text: textDocument(paragraphs) + checklist.text + withdraw.text,
    html: htmlDocument(
      subject,
      paragraphs,
      [],
      (applicantLink
        ? `<p><a href="${escapeHtml(applicantLink)}" style="font-weight:bold">Open your applicant page</a></p>`
        : '') +
        checklist.html +
        withdraw.html,
    ),
  };
}

/* ---------- Transports ---------- */

/** Resend client shape used here (the real SDK, or a stand-in in tests). */
export interface ResendLike {
  emails: {
    send(
      payload: { from: string; to: string; replyTo?: string; subject: string; text: string; html: string },
      options?: { idempotencyKey?: string },
    ): Promise<{
      data: { id: string } | null;
      error: { message: string; name?: string; statusCode?: number | null } | null;
    }>;
  };
}

/**
 * A provider's error text with the message's addresses (and anything else shaped like an address) taken out:
 * it is logged and kept with the inquiry's delivery state, and may quote the recipient back.
 */
function withoutAddresses(text: string, addresses: readonly (string | undefined)[]): string {
  let result = text;
  for (const address of addresses) {
    if (address) result = result.split(address).join('[address]');
  }
  return result.replace(/[^\s<>"'`(),;:]+@[^\s<>"'`(),;:]+/g, '[address]');
}

export function resendTransport(
  apiKey: string,
  client: ResendLike = new Resend(apiKey) as unknown as ResendLike,
): MailTransport {
  return {
    name: 'resend',
    async send(mail, idempotencyKey) {
      const { data, error } = await client.emails.send(
        {
          from: mail.from,
          to: mail.to,
          replyTo: mail.replyTo,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        },
        { idempotencyKey },
      );
      if (error || !data)
        throw new Error(
          withoutAddresses(
            `Resend: ${error?.name ?? 'error'} ${error?.statusCode ?? ''} ${error?.message ?? 'no answer'}`,
            [mail.to, mail.replyTo],
          ).replace(/\s+/g, ' '),
        );
      return { id: data.id };
    },
  };
}

/** Local runs: each message becomes an entry of the `outbox` store, keyed by its idempotency key. */
export function outboxTransport(): MailTransport {
  return {
    name: 'outbox',
    async send(mail, idempotencyKey) {
      const { modified } = await dataStore('outbox').setJSON(
        idempotencyKey,
        { ...mail, idempotencyKey, storedAt: new Date().toISOString() },
        { onlyIfNew: true },
      );
      // The kind and id only: the address, subject and text are the visitor's (or a staff member's) own.
      console.log(
        `[outbox] ${modified ? 'stored' : 'already stored'} ${mail.kind} mail ${idempotencyKey} (RESEND_API_KEY is not set, so it was not sent)`,
      );
      return { id: `outbox:${idempotencyKey}` };
    },
  };
}

export function defaultTransport(): MailTransport {
  const apiKey = process.env.RESEND_API_KEY;
  return apiKey ? resendTransport(apiKey) : outboxTransport();
}

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
 * When no message is left open the pending-mail marker goes.
 */
export async function sendHeld(
  record: InquiryRecord,
  kinds: readonly MailKind[],
  transport: MailTransport,
  now = new Date(),
) {
  // The phone number as staff saved it, for a quote answered with no listed qualification.
  const phone = record.kind === 'quote' && kinds.includes('ack') ? await savedPhone() : undefined;
  const outcomes: Outcome[] = await Promise.all(
    kinds.map(async (kind): Promise<Outcome> => {
      try {
        // Each attempt makes a fresh link (only its hash is stored, so an earlier one cannot be repeated).
        // Without one (the store failed), the acknowledgement still goes: the page offers to send a new link.
        const link =
          kind === 'ack' && record.kind === 'quote' ? await issueApplicantLink(record.id, now).catch(() => null) : null;
        const { id } = await withTimeout(
          transport.send(composeMail(record, kind, { applicantLink: link, phone }), record.mail[kind].idempotencyKey),
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
  if (updated && !MAIL_KINDS.some((kind) => isOpen(updated.mail[kind]))) await clearPendingMail(record.id);
  return { record: updated, outcomes };
}

/** Right after storing: the storing request holds both messages (see createInquiry) and sends them now. */
export const sendNewInquiryMail = (record: InquiryRecord, transport = defaultTransport(), now = new Date()) =>
  sendHeld(record, MAIL_KINDS, transport, now);

/**
 * The scheduled retry: for every inquiry with a pending-mail marker, take the messages whose retry
 * time has come (or whose sender's hold ran out) with a conditional write, so two runs never send the
 * same message at once, then send them.
 */
export async function retryPendingMail({
  transport = defaultTransport(),
  now = new Date(),
}: {
  transport?: MailTransport;
  now?: Date;
} = {}) {
  const summary = { inquiries: 0, sent: 0, failed: 0 };
  for (const id of await listPendingMailIds()) {
    if (!(await getInquiry(id))) {
      await clearPendingMail(id); // marker of a write that never completed
      continue;
    }
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
    if (!record) continue;
    if (!held.length) {
      if (!MAIL_KINDS.some((kind) => isOpen(record.mail[kind]))) await clearPendingMail(id);
      continue;
    }
    summary.inquiries += 1;
    const { outcomes } = await sendHeld(record, held, transport, now);
    for (const outcome of outcomes) summary[outcome.ok ? 'sent' : 'failed'] += 1;
  }
  return summary;
}
