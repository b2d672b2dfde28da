/**
 * A reference a person can read out over the phone: every new inquiry gets RPL- and six characters without
 * look-alikes; the form answers, both e-mails, the inbox and the CSV carry it; the inbox finds an inquiry by
 * its reference and by its phone number however it is spaced. Older inquiries keep their id as reference.
 */
import { repositoryCatalogue } from '../../src/catalogue/index';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { contactForm, quoteForm, storeContactInquiry, storedContact } from './helpers/inquiries';
import { clearInquiries } from './helpers/inquiries';
import {
  createInquiry,
  updateInquiry,
  getInquiry,
  idOfReference,
  newReference,
  referenceOf,
} from '../../src/server/inquiries';
import { inquiriesToCsv } from '../../src/server/inquiry-csv';
import { listInquiries } from '../../src/server/inquiry-inbox';
import { composeMail } from '../../src/server/mail-messages';
import { REFERENCE_PATTERN } from '../../src/schemas/inquiry-record';
import contactHandler from '../../netlify/functions/email-contact.mts';
import quoteHandler from '../../netlify/functions/email-quote.mts';

let blobs: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  blobs = await startStores();
});
afterAll(() => blobs.stop());
beforeEach(async () => {
  await clearInquiries();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

async function send(handler: (r: Request, c: Context) => Promise<Response>, path: string, body: unknown) {
  const request = new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const response = await handler(request, {} as Context);
  return { status: response.status, body: await response.json() };
}
const human = { elapsedMs: 60_000, website: '' };

describe('readable references', () => {
  it('are RPL- and six characters with no 0, O, 1, I or L', () => {
    for (let n = 0; n < 2000; n++) {
      const reference = newReference();
      expect(reference).toMatch(/^RPL-[A-Z2-9]{6}$/);
      expect(reference.slice(4)).not.toMatch(/[01OIL]/);
    }
  });

  it('are unique across inquiries stored at the same moment', async () => {
    const at = new Date('2026-11-26T08:00:00.000Z');
    const records = await Promise.all(
      Array.from({ length: 40 }, (_, n) => storeContactInquiry({ firstName: `P${n}` }, { at })),
    );
    const references = records.map((record) => record.reference);
    for (const reference of references) expect(reference).toMatch(REFERENCE_PATTERN);
    expect(new Set(references).size).toBe(records.length);
    for (const record of records) expect(await idOfReference(record.reference!)).toBe(record.id);
  });

  it('travel in both forms’ answers and are stored with the inquiry', async () => {
    const quote = await send(quoteHandler, '/api/email/quote', quoteForm(human));
    const contact = await send(contactHandler, '/api/email/contact', contactForm(human));
    for (const { status, body } of [quote, contact]) {
      expect(status).toBe(200);
      expect(body.reference).toMatch(REFERENCE_PATTERN);
      expect((await getInquiry(body.id))?.reference).toBe(body.reference);
    }
  });

  it('appear in the staff e-mail, the acknowledgement and the CSV', async () => {
    const record = await storeContactInquiry();
    const reference = record.reference!;
    expect(composeMail(record, 'staff', { catalogue: repositoryCatalogue() }).text).toContain(reference);
    expect(composeMail(record, 'ack', { catalogue: repositoryCatalogue() }).text).toContain(
      `Your reference is ${reference}.`,
    );
    expect(composeMail(record, 'ack', { catalogue: repositoryCatalogue() }).html).toContain(reference);
    const [header, row] = inquiriesToCsv([record]).split('\r\n');
    expect(header.split(',')[1]).toBe('"Reference"');
    expect(row.split(',')[1]).toBe(`"${reference}"`);
  });

  it('of inquiries stored before references existed are their ids', () => {
    const old = storedContact();
    expect(old.reference).toBeUndefined();
    expect(referenceOf(old)).toBe(old.id);
    expect(composeMail(old, 'ack', { catalogue: repositoryCatalogue() }).text).toContain(
      `Your reference is ${old.id}.`,
    );
  });
});

describe('the inbox search', () => {
  it('finds an inquiry by its reference, in any case', async () => {
    const wanted = await storeContactInquiry({ firstName: 'Wanted' });
    await storeContactInquiry({ firstName: 'Other' });
    for (const q of [wanted.reference!, wanted.reference!.toLowerCase(), wanted.reference!.slice(4)]) {
      const found = await listInquiries({ q });
      expect(
        found.items.map((item) => item.contact.firstName),
        q,
      ).toEqual(['Wanted']);
    }
  });

  it('finds an inquiry by its phone number whatever its spacing', async () => {
    await storeContactInquiry({ firstName: 'Caller', phone: '0412 345 678' });
    await storeContactInquiry({ firstName: 'Intl', phone: '+61 498 765 432' });
    await storeContactInquiry({ firstName: 'Other', phone: '0400 000 000' });
    const firstNames = async (q: string) => (await listInquiries({ q })).items.map((item) => item.contact.firstName);
    for (const q of ['0412345678', '0412 345 678', '04 1234 5678', '(04) 1234-5678', '+61 412 345 678', '345 678'])
      expect(await firstNames(q), q).toEqual(['Caller']);
    for (const q of ['0498765432', '+61498765432', '0498 765 432']) expect(await firstNames(q), q).toEqual(['Intl']);
  });

  it('finds an older inquiry by its id used as its reference', async () => {
    const record = await createInquiry({
      kind: 'contact',
      source: 'contact',
      contact: { firstName: 'Old', lastName: 'Timer', email: 'old@example.com', phone: '0411 111 111' },
      message: 'Hi',
    });
    // As stored before references: the record without one.
    await updateInquiry(record.id, ({ reference: _gone, ...older }) => older);
    const found = await listInquiries({ q: record.id });
    expect(found.items.map((item) => item.id)).toEqual([record.id]);
    expect(found.items[0]?.reference).toBeUndefined();
  });
});
