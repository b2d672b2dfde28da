/**
 * Issue 26, items 2 and 3: staff reply from the inbox (optionally from a template, sent through the
 * store-first mail with retries, kept on the inquiry) and follow-up dates (dashboard lists, inbox filters).
 * Against the real handlers and a local blob store.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import * as v from 'valibot';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { db, sql } from '../../src/platform/database';
import { outboxMessage, outboxMessages } from './helpers/outbox';
import { createInquiry, eraseInquiryPersonalData, getInquiry, type InquiryRecord } from '../../src/server/inquiries';
import { retryReplyMail, sendReply } from '../../src/server/inquiry-replies';
import { followUpsDue } from '../../src/server/follow-ups';
import { sydneyDay } from '../../src/lib/callback';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { SiteSettingsSchema } from '../../src/schemas/site-settings';
import type { MailTransport } from '../../src/server/mail-transports';
import type { OutgoingMail } from '../../src/server/mail-messages';
import { listActivity } from '../../src/server/activity';
import inquiries from '../../netlify/functions/admin-inquiries.mts';
import templates from '../../netlify/functions/admin-reply-templates.mts';
import dashboard from '../../netlify/functions/dashboard-stats.mts';
import siteSettings from '../../netlify/functions/site-settings.mts';

let blobs: Awaited<ReturnType<typeof startStores>>;
let token = '';
const HOSTILE_NAME = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  delete process.env.RESEND_API_KEY;
  blobs = await startStores();
  token = await signedInStaff({ username: 'reply-admin', firstName: 'Rita', lastName: 'Reply' });
});
afterAll(() => blobs.stop());
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

let n = 0;
const newInquiry = (firstName = 'Pat') =>
  createInquiry({
    kind: 'contact',
    source: 'contact',
    contact: { firstName, lastName: 'Lee', email: `reply${++n}@example.com`, phone: '0400 000 000' },
    message: 'Please get back to me',
  });

const call = (
  handler: (request: Request, context: Context) => Promise<Response>,
  path: string,
  init: { method?: string; body?: unknown } = {},
  params: Record<string, string> = {},
) =>
  handler(
    new Request(`http://localhost${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    }),
    { params } as unknown as Context,
  );

const reply = (id: string, body: unknown) =>
  call(inquiries, `/api/admin/inquiries/${id}/replies`, { method: 'POST', body }, { id });
const patch = (id: string, body: unknown) =>
  call(inquiries, `/api/admin/inquiries/${id}`, { method: 'PATCH', body }, { id });
const outboxKeys = async () => (await outboxMessages()).map((mail) => mail.idempotencyKey).sort();
const outboxMail = async (key: string) => (await outboxMessage(key))!;

describe('finding 2: replying from the inbox', () => {
  it('finding 2: a reply from a template lands in the outbox with the first name and reference filled in, and on the inquiry with who sent it', async () => {
    const record = await newInquiry('Pat');
    const list = (await (await call(templates, '/api/admin/reply-templates')).json()) as {
      templates: { name: string; subject: string; body: string }[];
    };
    expect(list.templates.map((t) => t.name)).toEqual(['Quote sent', 'Need more evidence', 'Call-back booked']);
    const template = list.templates[0]!;

    const response = await reply(record.id, { subject: template.subject, body: template.body });
    expect(response.status).toBe(201);
    const updated = (await response.json()) as InquiryRecord;
    const sent = updated.replies?.at(-1);
    expect(sent?.by).toEqual({ username: 'reply-admin', name: 'Rita Reply' });
    expect(sent?.mail.state).toBe('sent');
    expect(sent?.subject).toBe(`Your RPL quote – ${record.reference}`);
    expect(sent?.body).toMatch(/^Hi Pat,/);

    const mail = await outboxMail(sent!.mail.idempotencyKey);
    expect(mail.to).toBe(record.contact.email);
    expect(mail.subject).toBe(`Your RPL quote – ${record.reference}`);
    expect(mail.text).toContain('Hi Pat,');
    expect(mail.text).toContain(record.reference!);
    expect(mail.html).toContain('<p>Hi Pat,</p>');
    // Kept on the inquiry as the inbox reads it.
    expect((await getInquiry(record.id))?.replies?.map((r) => r.id)).toEqual([sent!.id]);
    // And in the activity log: who sent a reply to which inquiry, never its words.
    const logged = (await listActivity({ person: 'reply-admin', kind: 'inquiry', offset: 0, limit: 50 })).items.find(
      (entry) => entry.target.id === record.id,
    );
    expect(logged).toMatchObject({ action: 'reply sent', target: { label: record.reference } });
    expect(JSON.stringify(logged)).not.toContain('Hi Pat');
  });

  it('finding 2: a visitor name like <img src=x onerror=alert(1)> and staff-typed markup reach the e-mail HTML only escaped', async () => {
    const record = await newInquiry(HOSTILE_NAME);
    const response = await reply(record.id, {
      subject: 'About {reference}',
      body: 'Hi {firstName},\n\n<b>bold</b> & <script>x()</script>\nsecond line',
    });
    expect(response.status).toBe(201);
    const sent = ((await response.json()) as InquiryRecord).replies!.at(-1)!;
    const mail = await outboxMail(sent.mail.idempotencyKey);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain('Hi &lt;img src=x onerror=alert(1)&gt;,');
    expect(mail.html).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;x()&lt;/script&gt;<br>second line');
  });

  it('finding 2: an unknown placeholder is refused with a clear message, and nothing is stored or sent', async () => {
    const record = await newInquiry();
    const before = await outboxKeys();
    const response = await reply(record.id, { subject: 'Hello', body: 'Hi {name}, your ref is {reference}' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(
      'Unknown placeholder {name}: use {firstName} and {reference} only',
    );
    expect((await getInquiry(record.id))?.replies).toBeUndefined();
    expect(await outboxKeys()).toEqual(before);
  });

  it.each([
    ['an empty reply', { subject: 'Hello', body: '   ' }, 400],
    ['no subject', { body: 'Hello' }, 400],
    ['a subject on two lines', { subject: 'Hello\r\nBcc: x@example.com', body: 'Hi' }, 400],
    ['a reply over 5,000 characters', { subject: 'Hello', body: 'x'.repeat(5001) }, 400],
    ['a body that is not JSON', '{"subject":', 400],
    ['a number for a subject', { subject: 5, body: 'Hi' }, 400],
  ])('finding 2: %s is refused with 400 and changes nothing', async (_, body, status) => {
    const record = await newInquiry();
    const before = await outboxKeys();
    const response = await reply(record.id, body);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { message: string }).message).not.toBe('');
    expect(await getInquiry(record.id)).toEqual(record);
    expect(await outboxKeys()).toEqual(before);
  });

  it('finding 2: a reply to an inquiry that does not exist is 404', async () => {
    const id = '20261101T000000000Z-00000000';
    expect((await reply(id, { subject: 'Hi', body: 'Hi' })).status).toBe(404);
    expect((await reply('not-an-id', { subject: 'Hi', body: 'Hi' })).status).toBe(404);
  });

  it('finding 2: the reply-to address comes from the settings, which accept only an e-mail address there', async () => {
    const bad = v.safeParse(SiteSettingsSchema, {
      ...defaultSiteSettings,
      contactInfo: { ...defaultSiteSettings.contactInfo, replyTo: 'not an address' },
    });
    expect(bad.success).toBe(false);
    expect(bad.issues?.[0]?.message).toBe('Enter a valid reply-to e-mail address');

    const save = (replyTo: string) =>
      call(siteSettings, '/api/admin/site-settings', {
        method: 'POST',
        body: { ...defaultSiteSettings, contactInfo: { ...defaultSiteSettings.contactInfo, replyTo }, version: 0 },
      });
    expect((await save('nobody')).status).toBe(400);
    expect((await save('answers@rplpathways.com.au')).status).toBe(200);

    const record = await newInquiry();
    const sent = (
      (await (await reply(record.id, { subject: 'Hi', body: 'Hi {firstName}' })).json()) as InquiryRecord
    ).replies!.at(-1)!;
    expect((await outboxMail(sent.mail.idempotencyKey)).replyTo).toBe('answers@rplpathways.com.au');
  });

  it('finding 2: a reply whose first send fails stays pending and the scheduled retry sends it, once', async () => {
    const record = await newInquiry();
    const sent: OutgoingMail[] = [];
    const failing: MailTransport = {
      name: 'outbox',
      send: () => Promise.reject(new Error(`mail service down for ${record.contact.email}`)),
    };
    const working: MailTransport = {
      name: 'outbox',
      send: async (mail) => {
        sent.push(mail);
        return { id: 'ok' };
      },
    };
    const now = new Date();
    const stored = await sendReply(
      record.id,
      { subject: 'Hi', body: 'Hi {firstName}' },
      { username: 'x', name: 'X' },
      { transport: failing, now },
    );
    const pending = stored!.replies!.at(-1)!;
    expect(pending.mail.state).toBe('pending');
    expect(pending.mail.lastError).not.toContain(record.contact.email);

    // Not yet due: nothing is sent.
    await retryReplyMail({ transport: working, now: new Date(now.getTime() + 60_000) });
    expect(sent).toHaveLength(0);
    await retryReplyMail({ transport: working, now: new Date(now.getTime() + 11 * 60_000) });
    await retryReplyMail({ transport: working, now: new Date(now.getTime() + 60 * 60_000) });
    expect(sent.map((mail) => mail.text.split('\n')[0])).toEqual(['Hi Pat']);
    expect((await getInquiry(record.id))?.replies?.at(-1)?.mail.state).toBe('sent');
  });
});

describe('finding 2: replies and erasure', () => {
  it('finding 2: erasing an inquiry on request erases the text of its replies, and no reply can be sent after', async () => {
    const record = await newInquiry('Erin');
    await reply(record.id, { subject: 'For {firstName}', body: 'Hi {firstName}, about your carpentry work.' });
    const erased = await eraseInquiryPersonalData(record.id);
    expect(JSON.stringify(erased)).not.toContain('Erin');
    expect(JSON.stringify(erased)).not.toContain('carpentry');
    expect(erased?.replies?.[0]).toMatchObject({ subject: 'Erased on request.', by: { username: 'reply-admin' } });
    const again = await reply(record.id, { subject: 'Hi', body: 'Hi' });
    expect(again.status).toBe(409);
    expect((await getInquiry(record.id))?.replies).toHaveLength(1);
  });
});

describe('finding 2: reply templates', () => {
  const put = (body: unknown) => call(templates, '/api/admin/reply-templates', { method: 'PUT', body });
  // The stored list as the table holds it (its version and templates), to show a refused save changes nothing.
  const stored = async () =>
    (await db().query(sql`SELECT version, templates::text AS templates FROM reply_templates`))[0];

  it('finding 2: a template with an unknown placeholder is refused with a clear message and nothing is saved', async () => {
    const before = await stored();
    const response = await put({
      version: 0,
      templates: [{ id: 'x', name: 'Broken', subject: 'Hi {first_name}', body: 'Text' }],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(
      'Unknown placeholder {first_name}: use {firstName} and {reference} only',
    );
    expect(await stored()).toEqual(before);
  });

  it.each([
    ['a subject over 150 characters', { id: 'a', name: 'A', subject: 'x'.repeat(151), body: 'b' }],
    ['an empty name', { id: 'a', name: ' ', subject: 's', body: 'b' }],
    ['an id with a slash', { id: 'a/b', name: 'A', subject: 's', body: 'b' }],
  ])('finding 2: a template with %s is refused and nothing is saved', async (_, template) => {
    const before = await stored();
    expect((await put({ version: 0, templates: [template] })).status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('finding 2: templates are saved with a version, and a save from a stale copy gets 409 and changes nothing', async () => {
    const current = (await (await call(templates, '/api/admin/reply-templates')).json()) as { version: number };
    const mine = [{ id: 'thanks', name: 'Thanks', subject: 'Thanks, {firstName}', body: 'Thank you.' }];
    const saved = await put({ version: current.version, templates: mine });
    expect(saved.status).toBe(200);
    const after = (await (await call(templates, '/api/admin/reply-templates')).json()) as {
      version: number;
      templates: unknown[];
    };
    expect(after).toMatchObject({ version: current.version + 1, templates: mine });
    const stale = await put({ version: current.version, templates: [] });
    expect(stale.status).toBe(409);
    expect((await (await call(templates, '/api/admin/reply-templates')).json()).templates).toEqual(mine);
  });
});

describe('finding 3: follow-ups', () => {
  const today = () => sydneyDay(new Date()).date;
  const yesterday = () => sydneyDay(new Date(), -1).date;
  const listed = async (status: string) =>
    (await (await call(inquiries, `/api/admin/inquiries?status=${status}`)).json()) as {
      items: InquiryRecord[];
      counts: Record<string, number>;
      total: number;
    };
  const dashboardLists = async () =>
    (
      (await (await call(dashboard, '/api/admin/dashboard-stats')).json()) as {
        followUps: Record<'due' | 'overdue', { items: { id: string; reference: string }[]; total: number }>;
      }
    ).followUps;

  it('finding 3: a follow-up set for today shows on the dashboard as due and in the inbox filter, with its count', async () => {
    const record = await newInquiry('Dora');
    const response = await patch(record.id, { followUp: today() });
    expect(response.status).toBe(200);
    const saved = (await response.json()) as InquiryRecord;
    expect(saved.followUp).toMatchObject({ date: today(), by: { username: 'reply-admin' } });

    const lists = await dashboardLists();
    expect(lists.due.items).toContainEqual(expect.objectContaining({ id: record.id, reference: record.reference }));
    expect(lists.overdue.items.map((item) => item.id)).not.toContain(record.id);
    const due = await listed('due');
    expect(due.items.map((item) => item.id)).toContain(record.id);
    expect(due.counts.due).toBe(due.total);
    expect((await listed('new')).counts.due).toBe(due.total);
    const logged = (await listActivity({ person: 'reply-admin', kind: 'inquiry', offset: 0, limit: 50 })).items.find(
      (entry) => entry.target.id === record.id,
    );
    expect(logged).toMatchObject({
      action: 'follow-up set',
      changes: [{ field: 'followUp', from: null, to: today() }],
    });
  });

  it('finding 3: a follow-up set for an earlier day is overdue; clearing it takes it off both lists', async () => {
    const record = await newInquiry('Olga');
    expect((await patch(record.id, { followUp: yesterday() })).status).toBe(200);
    expect((await dashboardLists()).overdue.items.map((item) => item.id)).toContain(record.id);
    expect((await listed('overdue')).items.map((item) => item.id)).toContain(record.id);
    expect((await listed('due')).items.map((item) => item.id)).not.toContain(record.id);

    expect((await patch(record.id, { followUp: null })).status).toBe(200);
    expect((await dashboardLists()).overdue.items.map((item) => item.id)).not.toContain(record.id);
    expect((await listed('overdue')).items.map((item) => item.id)).not.toContain(record.id);
  });

  it('finding 3: the inbox search narrows the follow-up filters too', async () => {
    const record = await newInquiry('Quentin');
    await patch(record.id, { followUp: today() });
    const found = (await (await call(inquiries, '/api/admin/inquiries?status=due&q=quentin')).json()) as {
      items: InquiryRecord[];
      counts: Record<string, number>;
    };
    expect(found.items.map((item) => item.id)).toEqual([record.id]);
    expect(found.counts.due).toBe(1);
  });

  it.each([
    ['30 February', '2026-02-30'],
    ['a date with a time', '2026-11-30T10:00'],
    ['a word', 'tomorrow'],
    ['a number', 20261130],
  ])('finding 3: a follow-up date of %s is refused with 400 and changes nothing', async (_, followUp) => {
    const record = await newInquiry();
    const response = await patch(record.id, { followUp });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/follow-up/);
    expect(await getInquiry(record.id)).toEqual(record);
  });

  it('finding 3: "today" is the day in Sydney, not in UTC', async () => {
    const record = await newInquiry();
    // 26 November 14:30 UTC is 27 November 01:30 in Sydney.
    const now = new Date('2026-11-26T14:30:00Z');
    await patch(record.id, { followUp: '2026-11-27' });
    const ids = async (at: Date) => {
      const lists = await followUpsDue(at);
      return { due: lists.due.items.map((item) => item.id), overdue: lists.overdue.items.map((item) => item.id) };
    };
    expect((await ids(now)).due).toContain(record.id);
    expect((await ids(now)).overdue).not.toContain(record.id);
    expect((await ids(new Date('2026-11-27T14:30:00Z'))).overdue).toContain(record.id);
  });
});
