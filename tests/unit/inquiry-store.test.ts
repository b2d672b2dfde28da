import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { storedQuote } from './helpers/inquiries';
import {
  createInquiry,
  getInquiry,
  isInquiryId,
  listAllInquiries,
  inquiriesWithMailDue,
  mailIdempotencyKey,
  newInquiryId,
  setInquiryStatus,
  updateInquiry,
  type InquiryRecord,
  type NewInquiry,
} from '../../src/server/inquiries';
import { csvCell, inquiriesToCsv } from '../../src/server/inquiry-csv';
import { listInquiries } from '../../src/server/inquiry-inbox';

let blobs: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  blobs = await startStores();
});
afterAll(() => blobs.stop());

const contact = (firstName: string): NewInquiry => ({
  kind: 'contact',
  source: 'contact',
  contact: { firstName, lastName: 'Citizen', email: `${firstName.toLowerCase()}@example.com`, phone: '0412 345 678' },
  message: 'Hello',
});

describe('inquiry ids', () => {
  it('sort by time and say when they were made', () => {
    const a = newInquiryId(new Date('2025-07-22T10:15:30.123Z'));
    const b = newInquiryId(new Date('2025-07-22T10:15:30.124Z'));
    expect(a).toMatch(/^20250722T101530123Z-[0-9a-f]{8}$/);
    expect([b, a].sort()).toEqual([a, b]);
    expect(isInquiryId(a)).toBe(true);
    expect(isInquiryId('../../etc/passwd')).toBe(false);
  });
  it('give each e-mail a stable idempotency key', () => {
    expect(mailIdempotencyKey('20250722T101530123Z-0a1b2c3d', 'staff')).toBe(
      'inquiry-20250722T101530123Z-0a1b2c3d-staff',
    );
  });
});

describe('inquiries store', () => {
  const stored: InquiryRecord[] = [];

  beforeAll(async () => {
    for (const [index, name] of ['Ann', 'Bob', 'Cat'].entries()) {
      stored.push(await createInquiry(contact(name), new Date(Date.UTC(2025, 6, 22, 10, 0, index))));
    }
  });

  it('stores a new inquiry as new, with both e-mails held by the storing request until their lease ends', async () => {
    const record = await getInquiry(stored[0].id);
    expect(record).toMatchObject({
      kind: 'contact',
      source: 'contact',
      status: 'new',
      handledAt: null,
      message: 'Hello',
    });
    expect(record!.mail.staff).toMatchObject({
      state: 'sending',
      attempts: 0,
      idempotencyKey: `inquiry-${stored[0].id}-staff`,
    });
    expect(record!.mail.ack.idempotencyKey).toBe(`inquiry-${stored[0].id}-ack`);
    // Held, not due: the retry takes them over only once the storing request's hold has run out.
    expect(await inquiriesWithMailDue(new Date(Date.UTC(2025, 6, 22, 10, 0, 0)))).toEqual([]);
    expect((await inquiriesWithMailDue(new Date(Date.UTC(2025, 6, 22, 11)))).sort()).toEqual(
      stored.map((r) => r.id).sort(),
    );
  });

  it('lists newest first, pages and counts', async () => {
    const all = await listInquiries();
    expect(all.total).toBe(3);
    expect(all.items.map((r) => r.contact.firstName)).toEqual(['Cat', 'Bob', 'Ann']);
    const page = await listInquiries({ offset: 1, limit: 1 });
    expect(page).toMatchObject({ total: 3, items: [{ contact: { firstName: 'Bob' } }] });
    expect((await listAllInquiries()).length).toBe(3);
  });

  it('gets one, and nothing for an unknown or malformed id', async () => {
    expect((await getInquiry(stored[1].id))?.contact.firstName).toBe('Bob');
    expect(await getInquiry('20250101T000000000Z-00000000')).toBeNull();
    expect(await getInquiry('inquiry/../x')).toBeNull();
  });

  it('marks handled with the time, and back to new', async () => {
    const handled = await setInquiryStatus(stored[0].id, 'handled', new Date('2025-07-23T09:00:00Z'));
    expect(handled).toMatchObject({ status: 'handled', handledAt: '2025-07-23T09:00:00.000Z' });
    expect((await getInquiry(stored[0].id))?.status).toBe('handled');
    const reopened = await setInquiryStatus(stored[0].id, 'new');
    expect(reopened).toMatchObject({ status: 'new', handledAt: null });
    expect(await setInquiryStatus('20250101T000000000Z-00000000', 'handled')).toBeNull();
  });

  it('never loses an update when two writers change one inquiry at the same moment', async () => {
    const id = stored[2].id;
    // Each change takes its time between reading the record and giving it back; the second waits for the first.
    const slow = (change: (r: InquiryRecord) => InquiryRecord) => (r: InquiryRecord) =>
      new Promise<InquiryRecord>((resolve) => setTimeout(() => resolve(change(r)), 20));
    await Promise.all([
      updateInquiry(
        id,
        slow((r) => ({ ...r, status: 'handled', handledAt: new Date().toISOString() })),
      ),
      updateInquiry(
        id,
        slow((r) => ({ ...r, mail: { ...r.mail, staff: { ...r.mail.staff, attempts: 5 } } })),
      ),
    ]);
    const record = await getInquiry(id);
    expect(record?.status).toBe('handled');
    expect(record?.mail.staff.attempts).toBe(5);
  });

  it('refuses to start a change of an inquiry inside another change, instead of waiting for ever', async () => {
    await expect(
      updateInquiry(stored[1].id, async (r) => {
        await setInquiryStatus(stored[0].id, 'handled');
        return r;
      }),
    ).rejects.toThrow(/inside another/);
    expect((await getInquiry(stored[0].id))?.status).toBe('new');
  });
});

describe('finding 10: CSV cells are always quoted', () => {
  it('quotes every cell, plain ones and empty ones too', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('')).toBe('""');
    expect(csvCell('0412 345 678')).toBe('"0412 345 678"');
    const lines = inquiriesToCsv([]).split('\r\n');
    expect(lines[0].startsWith('"Received (UTC)","Reference","Id","Form",')).toBe(true);
  });
});

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
  });

  it.each(['=1+1', '+61 412', '-2', '@SUM(A1)', '\tx', '\rx'])(
    'neutralises the formula-like cell %j with a leading apostrophe',
    (value) => {
      expect(csvCell(value).replace(/^"/, '')).toMatch(/^'/);
    },
  );

  it('exports a header row and one row per inquiry, CRLF-terminated', async () => {
    const records = await listAllInquiries();
    records[0] = {
      ...records[0],
      contact: { ...records[0].contact, firstName: '=HYPERLINK("http://evil")' },
      message: 'Hi, "there"\nbye',
    } as InquiryRecord;
    const csv = inquiriesToCsv(records);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      [
        'Received (UTC)',
        'Reference',
        'Id',
        'Form',
        'Status',
        'Handled at',
        'First name',
        'Last name',
        'E-mail',
        'Phone',
        'Message',
        'State',
        'Preferred contact',
        'Categories',
        'Courses',
        'Experience',
        'Goals',
        'Additional info',
        'Consent: share with partner RTO',
        'Consent: marketing',
        'Staff e-mail',
        'Visitor e-mail',
        'Consent wording version',
      ]
        .map((name) => `"${name}"`)
        .join(','),
    );
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).toContain('"Hi, ""there""\nbye"');
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(lines.filter(Boolean)).toHaveLength(1 + records.length + 0);
  });

  it('lists quote details in their columns', () => {
    const record: InquiryRecord = {
      id: '20250722T101530123Z-0a1b2c3d',
      kind: 'quote',
      source: 'quote',
      createdAt: '2025-07-22T10:15:30.123Z',
      status: 'new',
      handledAt: null,
      contact: { firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '0412 345 678' },
      quote: storedQuote({ experience: '12 years' }),
      mail: {
        staff: { state: 'sent', attempts: 1, idempotencyKey: 'k1' },
        ack: { state: 'failed', attempts: 8, idempotencyKey: 'k2' },
      },
    };
    const row = inquiriesToCsv([record]).split('\r\n')[1];
    expect(row).toBe(
      '"2025-07-22T10:15:30.123Z","20250722T101530123Z-0a1b2c3d","20250722T101530123Z-0a1b2c3d","Free quote","new","","Sam","Lee","sam@example.com","0412 345 678","","VIC","Any time","Civil Construction","RII30820 Certificate III in Civil Construction Plant Operations","12 years","","","","","sent","failed",""',
    );
  });
});

describe('stored records are typed by their schemas', () => {
  it('keeps every quote form field and the stored extras, and drops what no schema names', async () => {
    const record = await createInquiry({
      kind: 'quote',
      source: 'quote',
      contact: { firstName: 'Quinn', lastName: 'Field', email: 'quinn@example.com', phone: '0412 345 678' },
      quote: {
        state: 'QLD',
        selectedCategories: ['civil-construction'],
        selectedCourses: [],
        notSure: true,
        experience: 'Ten years on sites',
        categories: [{ slug: 'civil-construction', name: 'Civil Construction' }],
        courses: [],
        matches: ['CPC30220'],
        // Not a field of the quote form or the stored record: never stored.
        ...({ internalScore: 99 } as object),
      },
    });
    const [stored] = (
      await blobs.engine.query<{ quote: Record<string, unknown> }>('SELECT quote FROM inquiries WHERE id = $1', [
        record.id,
      ])
    ).rows;
    expect(stored.quote).toMatchObject({
      notSure: true,
      matches: ['CPC30220'],
      experience: 'Ten years on sites',
      goals: '',
      preferredContact: '',
      mobileNumber: '',
    });
    expect(stored.quote).not.toHaveProperty('internalScore');
    expect(stored.quote).not.toHaveProperty('acceptedTerms');
    expect(stored.quote).not.toHaveProperty('email');
  });

  it('answers null for a record that does not parse (logged), and refuses to write one', async () => {
    const id = newInquiryId(new Date('2025-07-30T00:00:00Z'));
    // Within every constraint of the table, but a quote without its answers: not a record the schema accepts.
    await blobs.engine.query(
      `INSERT INTO inquiries (id, kind, source, created_at, first_name, last_name, email, phone, quote)
       VALUES ($1, 'quote', 'quote', now(), 'A', 'B', 'a@example.com', '0412345678', '{}')`,
      [id],
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await getInquiry(id)).toBeNull();
    expect(logged.mock.calls.flat().join(' ')).toContain(id);
    logged.mockRestore();
    const valid = await createInquiry(contact('Val'));
    await expect(updateInquiry(valid.id, (current) => ({ ...current, status: 'lost' as never }))).rejects.toThrow();
    expect((await getInquiry(valid.id))!.status).toBe('new');
    await blobs.engine.query('DELETE FROM inquiries WHERE id = $1', [id]);
  });

  it('keeps a reference unique: the table refuses a second inquiry with the same one', async () => {
    const first = await createInquiry(contact('Uma'));
    const copy = { ...(await getInquiry(first.id))!, id: newInquiryId() };
    await expect(
      blobs.engine.query(
        `INSERT INTO inquiries (id, reference, kind, source, created_at, first_name, last_name, email, phone, message)
         VALUES ($1, $2, 'contact', 'contact', now(), 'A', 'B', 'a@example.com', '0412345678', 'Hi')`,
        [copy.id, first.reference],
      ),
    ).rejects.toThrow(/unique/i);
  });
});
