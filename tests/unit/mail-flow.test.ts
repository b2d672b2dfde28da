import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import * as v from 'valibot';
import { startStores } from './helpers/stores';
import { contactForm, quoteForm } from './helpers/inquiries';
import { ELAPSED_FIELD, HONEYPOT_FIELD, QUOTE_LABELLED_FIELDS, QuoteSchema } from '../../src/schemas/inquiry';
import { getInquiry, listAllInquiries, type InquiryRecord } from '../../src/server/inquiries';
import { setDatabase, type Database } from '../../src/platform/database';
import { clearOutbox, inquiriesWithOpenMail, outboxMessage, outboxMessages } from './helpers/outbox';
import { clearInquiries } from './helpers/inquiries';
import { MAX_ATTEMPTS, retryPendingMail, retryDelayMs } from '../../src/server/mail';
import contactHandler from '../../netlify/functions/email-contact.mts';
import quoteHandler from '../../netlify/functions/email-quote.mts';
import { config as contactConfig } from '../../netlify/functions/email-contact.mts';
import { config as retryConfig } from '../../netlify/functions/mail-retry.mts';

/** A stand-in for the Resend SDK: records every call; fails while `failing` is set. */
const resend = vi.hoisted(() => ({
  calls: [] as { payload: { to: string; subject: string; replyTo?: string }; idempotencyKey?: string }[],
  failing: false,
  delivered: new Set<string>(),
}));
vi.mock('resend', () => ({
  Resend: class {
    emails = {
      send: async (payload: { to: string; subject: string }, options?: { idempotencyKey?: string }) => {
        resend.calls.push({ payload, idempotencyKey: options?.idempotencyKey });
        if (resend.failing)
          return { data: null, error: { name: 'internal_server_error', statusCode: 500, message: 'Resend is down' } };
        resend.delivered.add(options?.idempotencyKey ?? '');
        return { data: { id: `re_${resend.calls.length}` }, error: null };
      },
    };
  },
}));

let blobs: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  blobs = await startStores();
});
afterAll(() => blobs.stop());
beforeEach(async () => {
  await clearInquiries();
  await clearOutbox();
  resend.calls.length = 0;
  resend.delivered.clear();
  resend.failing = false;
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllEnvs());

const contact = contactForm({ elapsedMs: 9000, website: '' });
const quote = quoteForm({ experience: '12 years', elapsedMs: 60_000, website: '' });

async function post(
  handler: (r: Request, c: Context) => Promise<Response>,
  path: string,
  body: unknown,
  init: { raw?: string; type?: string; context?: Partial<Context> } = {},
) {
  const request = new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'Content-Type': init.type ?? 'application/json' },
    body: init.raw ?? JSON.stringify(body),
  });
  const response = await handler(request, (init.context ?? {}) as Context);
  return { status: response.status, body: await response.json(), headers: response.headers };
}
const sendContact = (body: unknown = contact, init = {}) => post(contactHandler, '/api/email/contact', body, init);
const later = (record: InquiryRecord, ms: number) => new Date(Date.parse(record.createdAt) + ms);

describe('POST /api/email/contact without RESEND_API_KEY (local runs)', () => {
  it('stores the message, then writes both e-mails to the outbox under their idempotency keys', async () => {
    const { status, body, headers } = await sendContact();
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, id: expect.any(String) });
    expect(headers.get('cache-control')).toBe('no-store');

    const record = await getInquiry(body.id);
    expect(record).toMatchObject({
      kind: 'contact',
      source: 'contact',
      status: 'new',
      message: 'Ten years on the tools.',
    });
    expect(record!.mail.staff).toMatchObject({ state: 'sent', attempts: 1, via: 'outbox' });
    expect(record!.mail.ack).toMatchObject({ state: 'sent', attempts: 1, via: 'outbox' });
    expect(await inquiriesWithOpenMail()).toEqual([]);

    const outbox = await outboxMessages();
    expect(outbox.map((m) => m.idempotencyKey).sort()).toEqual([`inquiry-${body.id}-ack`, `inquiry-${body.id}-staff`]);
    const staff = await outboxMessage(`inquiry-${body.id}-staff`);
    expect(staff).toMatchObject({
      to: 'staff@localhost',
      replyTo: 'jane@example.com',
      subject: 'New contact message from Jane Citizen',
    });
    expect(resend.calls).toHaveLength(0);
  });

  it('tells the home consultation form apart', async () => {
    const { body } = await sendContact({ ...contact, source: 'home' });
    expect((await getInquiry(body.id))?.source).toBe('home');
  });

  it('answers before mailing when the platform offers waitUntil, and the mail still goes', async () => {
    const pending: Promise<unknown>[] = [];
    const { body } = await sendContact(contact, {
      context: { waitUntil: (p: Promise<unknown>) => void pending.push(p) },
    });
    expect(body.success).toBe(true);
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect((await getInquiry(body.id))?.mail.staff.state).toBe('sent');
  });
});

describe('store first, then Resend', () => {
  beforeEach(() => vi.stubEnv('RESEND_API_KEY', 're_test_key'));

  it('sends both messages through Resend with idempotency keys from the inquiry id', async () => {
    const { body } = await sendContact();
    expect(resend.calls.map((c) => c.idempotencyKey).sort()).toEqual([
      `inquiry-${body.id}-ack`,
      `inquiry-${body.id}-staff`,
    ]);
    expect((await getInquiry(body.id))?.mail.staff).toMatchObject({
      state: 'sent',
      via: 'resend',
      providerId: expect.stringMatching(/^re_/),
    });
  });

  it('keeps the submission when Resend fails, retries after the backoff and never sends twice', async () => {
    resend.failing = true;
    const { status, body } = await sendContact();
    expect(status).toBe(200);
    expect(body.success).toBe(true);

    const stored = (await getInquiry(body.id))!;
    expect(stored.contact.email).toBe('jane@example.com');
    expect(stored.mail.staff).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: expect.stringContaining('Resend is down'),
    });
    expect(Date.parse(stored.mail.staff.nextAttemptAt!) - Date.parse(stored.mail.staff.lastAttemptAt!)).toBe(
      retryDelayMs(1),
    );
    expect(await inquiriesWithOpenMail()).toEqual([body.id]);
    const firstKeys = resend.calls.map((c) => c.idempotencyKey).sort();

    // Before the backoff has passed nothing is tried.
    resend.failing = false;
    resend.calls.length = 0;
    expect(await retryPendingMail({ now: later(stored, 5 * 60_000) })).toEqual({ inquiries: 0, sent: 0, failed: 0 });
    expect(resend.calls).toHaveLength(0);

    // After it, each message is sent once, with the same keys as the first attempt.
    expect(await retryPendingMail({ now: later(stored, 11 * 60_000) })).toEqual({ inquiries: 1, sent: 2, failed: 0 });
    expect(resend.calls.map((c) => c.idempotencyKey).sort()).toEqual(firstKeys);
    const sent = (await getInquiry(body.id))!;
    expect(sent.mail.staff).toMatchObject({ state: 'sent', attempts: 2 });
    expect(sent.mail.ack).toMatchObject({ state: 'sent', attempts: 2 });
    expect(await inquiriesWithOpenMail()).toEqual([]);

    // A later run finds nothing to do.
    expect(await retryPendingMail({ now: later(stored, 24 * 3600_000) })).toEqual({ inquiries: 0, sent: 0, failed: 0 });
    expect(resend.calls).toHaveLength(2);
  });

  it('retries only the message that failed', async () => {
    resend.failing = true;
    const { body } = await sendContact();
    // Pretend the acknowledgement went through on the first try.
    const { updateInquiry } = await import('../../src/server/inquiries');
    await updateInquiry(body.id, (r) => ({ ...r, mail: { ...r.mail, ack: { ...r.mail.ack, state: 'sent' } } }));
    resend.failing = false;
    resend.calls.length = 0;
    await retryPendingMail({ now: later((await getInquiry(body.id))!, 11 * 60_000) });
    expect(resend.calls.map((c) => c.idempotencyKey)).toEqual([`inquiry-${body.id}-staff`]);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and records the last error`, async () => {
    resend.failing = true;
    const { body } = await sendContact();
    const created = (await getInquiry(body.id))!;
    for (let run = 1; run <= MAX_ATTEMPTS + 2; run++)
      await retryPendingMail({ now: later(created, run * 24 * 3600_000) });
    const record = (await getInquiry(body.id))!;
    expect(record.mail.staff).toMatchObject({
      state: 'failed',
      attempts: MAX_ATTEMPTS,
      lastError: expect.stringContaining('Resend is down'),
    });
    expect(record.mail.staff.nextAttemptAt).toBeUndefined();
    expect(resend.calls).toHaveLength(2 * MAX_ATTEMPTS);
    expect(await inquiriesWithOpenMail()).toEqual([]);
    expect(record.status).toBe('new'); // still in the staff inbox
  });

  it('leaves e-mails alone while a sender holds them, and takes them over when its hold runs out', async () => {
    // A request stored the inquiry and died before sending: its e-mails are held ('sending') for 5 minutes.
    const { createInquiry } = await import('../../src/server/inquiries');
    const record = await createInquiry({
      kind: 'contact',
      source: 'contact',
      contact: { firstName: 'A', lastName: 'B', email: 'a@example.com', phone: '0412345678' },
      message: 'm',
    });
    expect(await retryPendingMail({ now: later(record, 60_000) })).toMatchObject({ sent: 0 });
    expect(await retryPendingMail({ now: later(record, 6 * 60_000) })).toMatchObject({ inquiries: 1, sent: 2 });
    expect(resend.calls.map((c) => c.idempotencyKey).sort()).toEqual([
      `inquiry-${record.id}-ack`,
      `inquiry-${record.id}-staff`,
    ]);
  });
});

describe('POST /api/email/quote', () => {
  it('stores the request with the chosen categories and courses by name', async () => {
    const { status, body } = await post(quoteHandler, '/api/email/quote', quote);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true });
    const record = await getInquiry(body.id);
    expect(record?.quote).toMatchObject({
      state: 'VIC',
      preferredContact: 'Any time',
      experience: '12 years',
      categories: [{ slug: 'civil-construction', name: expect.stringMatching(/Civil/) }],
      courses: [
        { code: 'RII30820', title: expect.any(String), level: expect.any(String), category: 'civil-construction' },
      ],
    });
    const staff = (await outboxMessage(`inquiry-${body.id}-staff`))!;
    expect(staff.subject).toBe('New free quote request from Sam Nguyen (VIC)');
  });

  it('stores every field of the quote schema as parsed, and lists each labelled one in the staff e-mail', async () => {
    const sent = {
      ...quote,
      goals: 'Run my own crew',
      additionalInfo: 'Weekdays only',
      notSure: true,
      consentMarketing: true,
    };
    const { body } = await post(quoteHandler, '/api/email/quote', sent);
    const record = await getInquiry(body.id);
    const stored = record?.quote as Record<string, unknown> | undefined;
    const contact = record?.contact as Record<string, unknown> | undefined;
    const parsed: Record<string, unknown> = v.parse(QuoteSchema, sent);
    // Who asked is kept with the inquiry's contact details and the two consents with its consents; the
    // terms must be accepted for anything to be stored. Every other field of the schema is in the quote.
    const elsewhere: Record<string, () => unknown> = {
      firstName: () => contact?.firstName,
      lastName: () => contact?.lastName,
      email: () => contact?.email,
      phone: () => contact?.phone,
      consentPartnerRto: () => record?.consents?.partnerRto,
      consentMarketing: () => record?.consents?.marketing,
      acceptedTerms: () => record !== null && record !== undefined,
    };
    for (const field of Object.keys(QuoteSchema.entries)) {
      // The two abuse checks are passed before storing and are no part of the request.
      if (field === HONEYPOT_FIELD || field === ELAPSED_FIELD) expect(stored).not.toHaveProperty(field);
      else if (field in elsewhere) expect(elsewhere[field](), field).toEqual(parsed[field]);
      else expect(stored?.[field], field).toEqual(parsed[field]);
    }
    const staff = (await outboxMessage(`inquiry-${body.id}-staff`))!;
    for (const { label } of QUOTE_LABELLED_FIELDS) expect(staff.text).toContain(`\n${label}:\n`);
    expect(staff.text).toContain('Goals:\nRun my own crew');
    expect(staff.text).toContain('Additional information:\nWeekdays only');
    expect(staff.text).toContain('Not sure:\nAsked for suggestions from their experience');
  });

  it('finding 3: "My industry isn\'t listed" is stored without a category, and needs the work described', async () => {
    const unlisted = { ...quote, selectedCategories: [], selectedCourses: [], notSure: true };
    const refused = await post(quoteHandler, '/api/email/quote', { ...unlisted, experience: '  ' });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        success: false,
        errors: [{ field: 'experience', message: expect.stringMatching(/industry is not listed/) }],
      },
    });
    expect(await listAllInquiries()).toEqual([]);
    const accepted = await post(quoteHandler, '/api/email/quote', {
      ...unlisted,
      experience: 'Marine electrician on ferries for 9 years',
    });
    expect(accepted).toMatchObject({ status: 200, body: { success: true } });
    const stored = await getInquiry(accepted.body.id);
    expect(stored?.quote).toMatchObject({ selectedCategories: [], categories: [], notSure: true });
    const staff = (await outboxMessage(`inquiry-${accepted.body.id}-staff`))!;
    expect(staff.text).toContain('Categories:\nNone: their industry is not listed');
  });

  it('refuses categories and courses that are not in the catalogue', async () => {
    const badCategory = await post(quoteHandler, '/api/email/quote', {
      ...quote,
      selectedCategories: ['underwater-basket-weaving'],
    });
    expect(badCategory).toMatchObject({
      status: 400,
      body: { success: false, errors: [{ field: 'selectedCategories' }] },
    });
    const badCourse = await post(quoteHandler, '/api/email/quote', { ...quote, selectedCourses: ['ZZZ99999'] });
    expect(badCourse).toMatchObject({ status: 400, body: { message: 'Unknown course: ZZZ99999' } });
    expect(await listAllInquiries()).toEqual([]);
  });
});

describe('refused submissions store nothing', () => {
  const cases: [string, () => ReturnType<typeof sendContact>, number, RegExp][] = [
    ['missing fields', () => sendContact({ elapsedMs: 9000 }), 400, /First name is required/],
    ['a bad e-mail', () => sendContact({ ...contact, email: 'not-an-email' }), 400, /Enter a valid e-mail address/],
    [
      'CR/LF in the e-mail',
      () => sendContact({ ...contact, email: 'jane@example.com\r\nBcc: x@example.com' }),
      400,
      /line breaks/,
    ],
    ['CR/LF in a name', () => sendContact({ ...contact, lastName: 'Citizen\r\nSubject: spam' }), 400, /line breaks/],
    ['a 1 MB message', () => sendContact({ ...contact, message: 'x'.repeat(1024 * 1024) }), 413, /too large/],
    ['a filled honeypot', () => sendContact({ ...contact, website: 'http://spam.example' }), 400, /automated/],
    ['a submission faster than a person', () => sendContact({ ...contact, elapsedMs: 400 }), 400, /too quickly/],
    ['no fill time at all', () => sendContact({ ...contact, elapsedMs: undefined }), 400, /too quickly/],
    ['broken JSON', () => sendContact(null, { raw: '{"firstName": ' }), 400, /Invalid JSON body/],
    [
      'a form post',
      () => sendContact(null, { raw: 'firstName=Jane', type: 'application/x-www-form-urlencoded' }),
      415,
      /JSON/,
    ],
  ];
  it.each(cases)('%s', async (_name, send, status, message) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(message);
    expect(await listAllInquiries()).toEqual([]);
    expect(await outboxMessages()).toEqual([]);
  });

  it('names the fields in a 400', async () => {
    const { body } = await sendContact({ ...contact, email: 'x', phone: '' });
    expect(body.errors).toEqual([
      { field: 'email', message: 'Enter a valid e-mail address' },
      { field: 'phone', message: 'Phone is required' },
    ]);
  });

  it('cuts off a body larger than its Content-Length claims', async () => {
    const big = JSON.stringify({ ...contact, message: 'y'.repeat(40 * 1024) });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const request = new Request('http://localhost/api/email/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '100' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const response = await contactHandler(request, {} as Context);
    expect(response.status).toBe(413);
  });

  it('answers 405 to other methods', async () => {
    const response = await contactHandler(new Request('http://localhost/api/email/contact'), {} as Context);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 503 and sends nothing when the submission cannot be stored', async () => {
    const down = () =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const unreachable: Database = { query: down, transaction: down };
    setDatabase(unreachable);
    try {
      vi.stubEnv('RESEND_API_KEY', 're_test_key');
      const response = await sendContact();
      expect(response).toMatchObject({ status: 503, body: { success: false } });
      expect(resend.calls).toHaveLength(0);
    } finally {
      setDatabase(blobs.db);
    }
  });
});

describe('function configuration', () => {
  it('rate-limits per IP and domain, and retries mail every 10 minutes', () => {
    expect(contactConfig).toMatchObject({
      path: '/api/email/contact',
      rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
    });
    expect(retryConfig).toEqual({ schedule: '*/10 * * * *' });
  });
});
