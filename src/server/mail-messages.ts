import { siteAddress } from '../platform/site.ts';
import { mailAddresses } from './mail-config.ts';
import { referenceOf, type InquiryRecord, type MailKind } from './inquiries';
import { resultOfQuote } from './quote-result';
import type { Catalogue } from '../catalogue/index';
import { mergedChecklist } from '../lib/evidence-checklist';
import { withdrawalFooter } from './marketing-consent';
import { quoteRows } from '../lib/quote-rows';
import { defaultSiteSettings, telHref } from '../lib/site-settings';
import { CALL_BACK_HREF, NO_QUALIFICATION, shownResult } from '../lib/no-qualification';

/**
 * The e-mail messages (./mail.ts sends them): header and HTML safety, the mail settings from the environment,
 * and the two messages of an inquiry, the staff notification and the visitor's acknowledgement (with a
 * quote's indicative result and evidence checklist), as text and HTML.
 */

export interface OutgoingMail {
  /** An inquiry's message, a staff reply (src/server/inquiry-replies.ts), a staff sign-in link (src/server/sign-in-links.ts) or an applicant's (src/server/applicant-mail.ts). */
  kind:
    | MailKind
    | 'reply'
    | 'sign-in-link'
    | 'staff-invite'
    | 'applicant-link'
    | 'applicant-needs-more'
    | 'applicant-stage';
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

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
    // From the environment; never a default address (src/server/mail-config.ts).
    from: sanitizeHeader(mailAddresses().from),
    staffTo: sanitizeHeader(mailAddresses().staffTo),
    // Links in mails: the site's public address, the same for every kind of mail (src/platform/site.ts).
    siteUrl: siteAddress(),
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
  catalogue: Catalogue,
  phone = defaultSiteSettings.contactInfo.phone,
): { text: string; html: string } {
  const items = resultOfQuote(catalogue, record.quote);
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
 * the business phone as staff saved it (`phone`) for a quote answered with no listed qualification, and the
 * indicative result from the catalogue as published now (`catalogue`, from loadCatalogue).
 */
export function composeMail(
  record: InquiryRecord,
  kind: MailKind,
  { applicantLink, phone, catalogue }: { applicantLink?: string | null; phone?: string; catalogue: Catalogue },
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
  const checklist = record.kind === 'quote' ? quoteChecklist(record, catalogue, phone) : { text: '', html: '' };
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
