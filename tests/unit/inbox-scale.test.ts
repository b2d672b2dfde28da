import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import type { Store } from '@netlify/blobs';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { dataStore } from '../../src/server/blobs';
import { createInquiry, getInquiry, setInquiryStatus, type InquiryRecord } from '../../src/server/inquiries';
import { BUILT_KEY, MONTH_PREFIX, SUMMARY_KEY } from '../../src/server/inquiry-index';
import handler from '../../netlify/functions/admin-inquiries.mts';

/**
 * The staff inbox at scale: a page reads the index and the page's own records, never every record;
 * the CSV export streams. Record reads are counted at the store API.
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
  // The very first read of a store indexes whatever predates the index (once; see the last test).
  await call('/api/admin/inquiries?limit=1');
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

/** Counts reads of inquiry records and listings of every record while `work` runs. */
async function reads<T>(work: () => Promise<T>): Promise<{ result: T; records: number; fullListings: number }> {
  let records = 0;
  let fullListings = 0;
  // The Store class is not exported at run time; every store shares its prototype.
  const proto = Object.getPrototypeOf(dataStore('inquiries')) as Store;
  const get = proto.get;
  const getWithMetadata = proto.getWithMetadata;
  const list = proto.list;
  vi.spyOn(proto, 'get').mockImplementation(function (this: Store, key: string, ...rest: unknown[]) {
    if (key.startsWith('inquiry/')) records++;
    return (get as (...a: unknown[]) => unknown).call(this, key, ...rest);
  } as never);
  vi.spyOn(proto, 'getWithMetadata').mockImplementation(function (this: Store, key: string, ...rest: unknown[]) {
    if (key.startsWith('inquiry/')) records++;
    return (getWithMetadata as (...a: unknown[]) => unknown).call(this, key, ...rest);
  } as never);
  vi.spyOn(proto, 'list').mockImplementation(function (this: Store, options?: { prefix?: string }) {
    // Only the inquiries store's own listings (the page also lists the staff accounts, a few entries).
    const inquiriesStore = String((this as unknown as { name?: string }).name).endsWith('inquiries');
    if (inquiriesStore && ((options?.prefix ?? '') === '' || 'inquiry/'.startsWith(options?.prefix ?? '')))
      fullListings++;
    return (list as (...a: unknown[]) => unknown).call(this, options);
  } as never);
  try {
    return { result: await work(), records, fullListings };
  } finally {
    vi.restoreAllMocks();
  }
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

  it('a store whose inquiries predate the index is indexed on the first read', async () => {
    const store = dataStore('inquiries');
    for (const { key } of (await store.list({ prefix: MONTH_PREFIX })).blobs) await store.delete(key);
    await store.delete(SUMMARY_KEY);
    await store.delete(BUILT_KEY);
    const page = await (await call('/api/admin/inquiries?status=all&limit=5')).json();
    expect(page.counts).toEqual({ all: TOTAL, new: TOTAL - handled.size, handled: handled.size, due: 0, overdue: 0 });
    expect(page.items.map((i: InquiryRecord) => i.id)).toEqual(newestFirst('all').slice(0, 5));
    const { records } = await reads(async () => (await call('/api/admin/inquiries?status=all&limit=5')).json());
    expect(records).toBeLessThanOrEqual(5);
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
