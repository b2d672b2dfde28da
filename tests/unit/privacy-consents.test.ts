// Privacy at the point of collection: the two optional consents every form asks for, from the shared
// schemas through the functions into the store, the staff e-mail and the CSV export.
import { repositoryCatalogue } from '../../src/catalogue/index';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { contactForm, quoteForm, storedContact } from './helpers/inquiries';
import { clearInquiries } from './helpers/inquiries';
import { ContactSchema, QUOTE_STEP_FIELDS, QuoteSchema } from '../../src/schemas/inquiry';
import { createInquiry, getInquiry, type InquiryRecord } from '../../src/server/inquiries';
import { inquiriesToCsv } from '../../src/server/inquiry-csv';
import { composeMail } from '../../src/server/mail-messages';
import contactHandler from '../../netlify/functions/email-contact.mts';
import quoteHandler from '../../netlify/functions/email-quote.mts';

const contact = contactForm();
const quote = quoteForm();
const human = { elapsedMs: 60_000, website: '' };

describe('consent fields in the shared schemas', () => {
  it.each([
    ['contact', ContactSchema, contact],
    ['quote', QuoteSchema, quote],
  ] as const)('%s: both default to false (unticked, optional)', (_, schema, input) => {
    const parsed = v.parse(schema as v.GenericSchema, input) as Record<string, unknown>;
    expect(parsed).toMatchObject({ consentPartnerRto: false, consentMarketing: false });
  });

  it.each([
    ['contact', ContactSchema, contact],
    ['quote', QuoteSchema, quote],
  ] as const)('%s: keeps each consent on its own', (_, schema, input) => {
    expect(v.parse(schema as v.GenericSchema, { ...input, consentPartnerRto: true })).toMatchObject({
      consentPartnerRto: true,
      consentMarketing: false,
    });
    expect(v.parse(schema as v.GenericSchema, { ...input, consentMarketing: true })).toMatchObject({
      consentPartnerRto: false,
      consentMarketing: true,
    });
  });

  it.each(['on', 'true', 1, null])('accepts only booleans, not %j', (value) => {
    expect(v.safeParse(ContactSchema, { ...contact, consentPartnerRto: value }).success).toBe(false);
    expect(v.safeParse(QuoteSchema, { ...quote, consentMarketing: value }).success).toBe(false);
  });

  it('are asked on the last quote step', () => {
    expect(QUOTE_STEP_FIELDS[5]).toEqual(expect.arrayContaining(['consentPartnerRto', 'consentMarketing']));
  });
});

describe('consents are stored with the inquiry', () => {
  let blobs: Awaited<ReturnType<typeof startStores>>;
  beforeAll(async () => {
    blobs = await startStores();
  });
  afterAll(() => blobs.stop());
  beforeEach(async () => {
    await clearInquiries();
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });

  const post = async (handler: (r: Request, c: Context) => Promise<Response>, path: string, body: unknown) => {
    const response = await handler(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
      {} as Context,
    );
    const answer = await response.json();
    expect(response.status).toBe(200);
    return (await getInquiry(answer.id))!;
  };

  it('as not given when the store is called without them', async () => {
    const record = await createInquiry({ kind: 'contact', source: 'contact', contact: { ...contact }, message: 'Hi' });
    expect(record.consents).toEqual({ partnerRto: false, marketing: false });
  });

  it('from the contact form, ticked or not', async () => {
    expect((await post(contactHandler, '/api/email/contact', { ...contact, ...human })).consents).toEqual({
      partnerRto: false,
      marketing: false,
    });
    const ticked = await post(contactHandler, '/api/email/contact', {
      ...contact,
      ...human,
      source: 'home',
      consentPartnerRto: true,
      consentMarketing: true,
    });
    expect(ticked).toMatchObject({ source: 'home', consents: { partnerRto: true, marketing: true } });
  });

  it('from the free quote (the function copies fields by name, so a dropped one would show here)', async () => {
    expect((await post(quoteHandler, '/api/email/quote', { ...quote, ...human })).consents).toEqual({
      partnerRto: false,
      marketing: false,
    });
    const rto = await post(quoteHandler, '/api/email/quote', { ...quote, ...human, consentPartnerRto: true });
    expect(rto.consents).toEqual({ partnerRto: true, marketing: false });
    const marketing = await post(quoteHandler, '/api/email/quote', { ...quote, ...human, consentMarketing: true });
    expect(marketing.consents).toEqual({ partnerRto: false, marketing: true });
  });
});

const record = (consents?: InquiryRecord['consents']) => storedContact(consents ? { consents } : {});

describe('staff see the consents', () => {
  const columns = (csv: string) => {
    // Every cell is quoted and none of these holds a comma or a quote, so splitting on "," is enough here.
    const unquote = (cell: string) => cell.replace(/^"|"$/g, '');
    const [header, ...rows] = csv
      .trim()
      .split('\r\n')
      .map((line) => line.split(',').map(unquote));
    return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
  };

  it('as two CSV columns: Yes, No, or empty for inquiries from before the forms asked', () => {
    const [both, rtoOnly, old] = columns(
      inquiriesToCsv([
        record({ partnerRto: true, marketing: true }),
        record({ partnerRto: true, marketing: false }),
        record(),
      ]),
    );
    expect(both).toMatchObject({ 'Consent: share with partner RTO': 'Yes', 'Consent: marketing': 'Yes' });
    expect(rtoOnly).toMatchObject({ 'Consent: share with partner RTO': 'Yes', 'Consent: marketing': 'No' });
    expect(old).toMatchObject({ 'Consent: share with partner RTO': '', 'Consent: marketing': '' });
  });

  it('in the staff notification, never in the visitor’s acknowledgement', () => {
    const staff = composeMail(record({ partnerRto: false, marketing: true }), 'staff', {
      catalogue: repositoryCatalogue(),
    });
    expect(staff.text).toMatch(/Share with partner RTO:\nNo/);
    expect(staff.text).toMatch(/Marketing e-mails:\nYes/);
    expect(
      composeMail(record({ partnerRto: false, marketing: true }), 'ack', { catalogue: repositoryCatalogue() }).text,
    ).not.toMatch(/partner RTO:/);
  });
});
