import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { watchStatements } from './helpers/database';
import { createInquiry, getInquiry, setInquiryStatus, type InquiryRecord } from '../../src/server/inquiries';
import handler from '../../netlify/functions/admin-inquiries.mts';

/**
 * The staff inbox at scale: a page reads the page's own rows and counts from the schema's running totals, never
 * every inquiry; the CSV export streams. Rows are counted at the database module, statement by statement.
 */
let blobs: Awaited<ReturnType<typeof startStores>>;
let token = '';
const TOTAL = 60;
let ids: string[] = []; // oldest first
const handled = new Set<string>();

beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  blobs = await startStores();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  token = await signedInStaff({ username: 'scale-admin', firstName: 'Sal', lastName: 'Scale' });
  // Three months of inquiries.
  const start = Date.parse('2026-08-20T00:00:00Z');
  const created: InquiryRecord[] = [];
  for (let n = 0; n < TOTAL; n++) {
    const at = new Date(start + n * 23 * 3600_000);
    created.push(
      await createInquiry(
        {
          kind: 'contact',
          source: 'contact',
          contact: { firstName: `P${n}`, lastName: 'Lee', email: `p${n}@example.com`, phone: '0400 000 000' },
          message: `Message ${n}`,
        },
        at,
      ),
    );
  }
  ids = created.map((r) => r.id).sort();
  for (const id of ids.filter((_, i) => i % 3 === 0)) {
    await setInquiryStatus(id, 'handled');
    handled.add(id);
  }
}, 60_000);
afterAll(() => blobs.stop());
afterEach(() => vi.restoreAllMocks());

const call = (path: string, init: RequestInit = {}, params: Record<string, string> = {}) =>
  handler(
    new Request(`http://localhost${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    }),
    { params } as unknown as Context,
  );

/**
 * Runs `work`, counting the inquiry records the database answered (rows of statements that read inquiries'
 * columns) and the statements that read the table without any condition or limit (a whole-table read).
 */
async function reads<T>(work: () => Promise<T>): Promise<{ result: T; records: number; fullListings: number }> {
  const { result, statements } = await watchStatements(work);
  const ofInquiries = statements.filter((statement) => /\bFROM inquiries\b/.test(statement.text));
  return {
    result,
    records: ofInquiries
      .filter((statement) => statement.text.includes('reference, kind'))
      .reduce((sum, statement) => sum + statement.rows, 0),
    fullListings: ofInquiries.filter((statement) => !/\b(WHERE|LIMIT)\b/.test(statement.text)).length,
  };
}

const newestFirst = (filter: 'all' | 'new' | 'handled') =>
  [...ids].reverse().filter((id) => filter === 'all' || (filter === 'handled') === handled.has(id));

describe('finding 9: the staff inbox reads every inquiry on every page and export', () => {
  it('a page reads only its own records, with the right items and counts per status', async () => {
    const counts = { all: TOTAL, new: TOTAL - handled.size, handled: handled.size, due: 0, overdue: 0 };
    for (const [query, filter, offset, limit] of [
      ['status=all&limit=25', 'all', 0, 25],
      ['status=all&offset=25&limit=25', 'all', 25, 25],
      ['status=new&offset=30&limit=10', 'new', 30, 10],
      ['status=handled&offset=10&limit=25', 'handled', 10, 25],
    ] as const) {
      const { result, records, fullListings } = await reads(async () =>
        (await call(`/api/admin/inquiries?${query}`)).json(),
      );
      expect(
        result.items.map((i: InquiryRecord) => i.id),
        query,
      ).toEqual(newestFirst(filter).slice(offset, offset + limit));
      expect(result.total, query).toBe(counts[filter]);
      expect(result.counts, query).toEqual(counts);
      expect(records, `${query}: records read`).toBeLessThanOrEqual(limit);
      expect(fullListings, `${query}: listings of every record`).toBe(0);
    }
  });

  it('counts follow status changes; past the end answers 400', async () => {
    const id = ids[1];
    expect(handled.has(id)).toBe(false);
    const patched = await call(
      `/api/admin/inquiries/${id}`,
      { method: 'PATCH', body: '{"status":"handled"}', headers: { 'content-type': 'application/json' } },
      { id },
    );
    expect(patched.status).toBe(200);
    const page = await (await call('/api/admin/inquiries?status=handled&limit=100')).json();
    expect(page.counts).toEqual({
      all: TOTAL,
      new: TOTAL - handled.size - 1,
      handled: handled.size + 1,
      due: 0,
      overdue: 0,
    });
    expect(page.items.map((i: InquiryRecord) => i.id)).toContain(id);
    await setInquiryStatus(id, 'new');
    expect((await (await call('/api/admin/inquiries?status=new&limit=1')).json()).total).toBe(TOTAL - handled.size);
    expect((await call(`/api/admin/inquiries?status=all&offset=${TOTAL + 1}`)).status).toBe(400);
  });

  it('the CSV export streams: its first bytes come before most records are read, and it has every row', async () => {
    const { result, records } = await reads(async () => {
      // A range holding every month of the fixture (the default is the last 90 days).
      const response = await call('/api/admin/inquiries/export.csv?from=2026-08-01&to=2099-12-31');
      expect(response.body).toBeInstanceOf(ReadableStream);
      const reader = response.body!.getReader();
      const first = await reader.read();
      return { response, reader, first };
    });
    expect(records, 'records read before the first bytes').toBeLessThan(TOTAL / 2);
    const { reader, first } = result;
    const chunks = [first.value!];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv.startsWith('\uFEFF"Received (UTC)"')).toBe(true);
    const rows = csv.trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(TOTAL);
    expect(rows.map((row) => row.split(',')[2].replaceAll('"', ''))).toEqual(newestFirst('all'));
  });
});

describe('finding 10: PATCH of an unknown inquiry answers 404', () => {
  it.each([
    '20990101T000000000Z-00000000', // well-formed, never stored
    'nope',
    '..%2F..%2Fusers%2Fstaff',
  ])('%s -> 404 "Inquiry not found."', async (id) => {
    const response = await call(
      `/api/admin/inquiries/${id}`,
      { method: 'PATCH', body: '{"status":"handled"}', headers: { 'content-type': 'application/json' } },
      { id },
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Inquiry not found.' });
    expect(await getInquiry(id)).toBeNull();
  });
});

describe('a search that matches thousands counts up to the cap and no further', () => {
  it('counts up to SEARCH_COUNT_CAP matches, says the counts are "at least", and still pages the newest first', async () => {
    const { SEARCH_COUNT_CAP } = await import('../../src/schemas/inbox');
    const many = SEARCH_COUNT_CAP + 250;
    // Copies of one inquiry, each with its own id and reference, all carrying one word in what the search reads.
    await blobs.engine.query(
      `INSERT INTO inquiries
       SELECT (jsonb_populate_record(i, jsonb_build_object(
                 'id', '20260101T' || lpad(n::text, 9, '0') || 'Z-' || lpad(to_hex(n), 8, '0'),
                 'reference', 'RPL-Q' || translate(lpad(n::text, 5, '0'), '0123456789', '23456789AB'),
                 'search_text', 'quokka' || n || ' ' || i.search_text))).*
       FROM inquiries i, generate_series(1, $2) AS n WHERE i.id = $1`,
      [ids[0], many],
    );
    await blobs.engine.query(
      `INSERT INTO inquiry_mail
       SELECT (jsonb_populate_record(m, jsonb_build_object(
                 'inquiry_id', c.id, 'idempotency_key', m.idempotency_key || '-' || c.id))).*
       FROM inquiry_mail m, inquiries c WHERE m.inquiry_id = $1 AND c.search_text LIKE 'quokka%'`,
      [ids[0]],
    );
    const answer = await call('/api/admin/inquiries?q=quokka&limit=50');
    expect(answer.status).toBe(200);
    const page = await answer.json();
    // Past the cap every count is "at least"; the copied inquiry was handled, and so are all its copies.
    expect(page.capped).toEqual(['all', 'new', 'handled']);
    expect(page.counts).toMatchObject({ new: 0, handled: SEARCH_COUNT_CAP, all: SEARCH_COUNT_CAP });
    expect(page.total).toBe(SEARCH_COUNT_CAP);
    expect(page.unreadable).toEqual([]);
    expect(page.items).toHaveLength(50);
    expect(page.items[0].id > page.items[49].id).toBe(true);
    // A narrower search is exact again.
    const one = await (await call('/api/admin/inquiries?q=quokka42%20')).json();
    expect(one.capped).toEqual([]);
    await blobs.engine.query(`DELETE FROM inquiries WHERE search_text LIKE 'quokka%'`);
  });
});
