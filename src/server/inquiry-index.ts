import * as v from 'valibot';
import type { Store } from '@netlify/blobs';
import { dataStore, updateJSON } from './blobs.ts';
import type { StatusCounts, StatusFilter } from '../schemas/inbox.ts';

/**
 * The staff inbox's index of inquiries, kept beside the records in the `inquiries` store so a page of
 * the inbox reads a couple of small entries instead of every inquiry ever received.
 *
 * Keys:  index/month/{YYYY-MM}  every inquiry received that month (UTC, from its id): id -> [status, statusRev, search]
 *        index/summary          per month: how many are new and handled, and the month entry's rev they came from
 *        index/built            written once every record stored before this version of the index has been indexed
 *
 * `search` is what the inbox search looks in, lower-cased: the name, the e-mail address and the codes of the
 * chosen qualifications, one per line. Searching reads the month entries only, never the records.
 *
 * The record stays the truth; the index is derived from it and converges whatever the order of writes:
 *  - a month entry keeps, per inquiry, the status with the highest statusRev (the record counts its status
 *    changes), so two staff toggling one inquiry at once leave the index at the record's last status;
 *  - the summary keeps, per month, the counts of the month entry with the highest rev, so a late write of
 *    older counts never replaces newer ones, and any later write to the month repairs a missed one.
 * Both are read-modify-writes with conditional writes (updateJSON), so no concurrent change is lost.
 */

export type IndexedStatus = 'new' | 'handled';
export type { StatusCounts, StatusFilter } from '../schemas/inbox.ts';
export interface IndexEntry {
  id: string;
  status: IndexedStatus;
  statusRev: number;
  search: string;
}
/** Entries written before the index kept search text have two items; the rebuild for version 2 adds it. */
type IndexItem = [IndexedStatus, number, string?];

/** A month entry's items, checked in one pass (a month can hold thousands, so no schema per item). */
const isItems = (value: unknown): value is Record<string, IndexItem> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const item of Object.values(value)) {
    if (!Array.isArray(item) || (item[0] !== 'new' && item[0] !== 'handled') || typeof item[1] !== 'number')
      return false;
    if (item[2] !== undefined && typeof item[2] !== 'string') return false;
  }
  return true;
};
const Rev = v.pipe(v.number(), v.integer(), v.minValue(0));
export const MonthIndexSchema = v.object({
  rev: Rev,
  items: v.custom<Record<string, IndexItem>>(isItems, 'Not a month of the inbox index'),
});
export type MonthIndex = v.InferOutput<typeof MonthIndexSchema>;
const MonthCountsSchema = v.object({ rev: Rev, new: Rev, handled: Rev });
export type MonthCounts = v.InferOutput<typeof MonthCountsSchema>;
export const IndexSummarySchema = v.object({
  months: v.record(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}$/)), MonthCountsSchema),
});
export type IndexSummary = v.InferOutput<typeof IndexSummarySchema>;
const BuiltSchema = v.object({ at: v.string(), version: v.optional(v.number(), 1) });

/** Bumped when entries gain something the records must be read again for (2: search text; 3: reference and phone). */
export const INDEX_VERSION = 3;

/** What an inquiry is found by in the inbox search (see the key list above). */
export function searchText(record: {
  id: string;
  reference?: string;
  contact: { firstName: string; lastName: string; email: string; phone?: string };
  quote?: { courses?: { code: string }[]; selectedCourses?: string[] };
}): string {
  const codes = record.quote?.courses?.map((course) => course.code) ?? record.quote?.selectedCourses ?? [];
  return [
    `${record.contact.firstName} ${record.contact.lastName}`,
    record.contact.email,
    `${record.reference ?? record.id} ${phoneDigits(record.contact.phone ?? '').join(' ')}`,
    // The codes stay last: searchMatcher reads them from the last line.
    codes.join(' '),
  ]
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .toLowerCase();
}

/**
 * A phone number as digits, whatever its spacing, in the forms people type it: as written (0412345678 or
 * 61412345678) and, for an Australian number written with +61, also the national form (0412345678).
 */
export function phoneDigits(phone: string): string[] {
  const digits = phone.replace(/\D/g, '');
  if (!digits) return [];
  return digits.startsWith('61') && digits.length === 11 ? [digits, `0${digits.slice(2)}`] : [digits];
}

export const MONTH_PREFIX = 'index/month/';
export const SUMMARY_KEY = 'index/summary';
export const BUILT_KEY = 'index/built';
export const monthIndexKey = (month: string) => `${MONTH_PREFIX}${month}`;
/** 20250722T101530123Z-9f86d081 -> 2025-07 */
export const monthOfId = (id: string) => `${id.slice(0, 4)}-${id.slice(4, 6)}`;

/* ---------- pure parts (also used by the bench to seed an index directly) ---------- */

/** The month entry with `entries` applied, or undefined when nothing changes. */
export function applyToMonth(current: MonthIndex | null, entries: IndexEntry[]): MonthIndex | undefined {
  const items = { ...(current?.items ?? {}) };
  let changed = current === null;
  for (const { id, status, statusRev, search } of entries) {
    const known = items[id];
    if (known && (known[1] > statusRev || (known[1] === statusRev && known[0] === status && known[2] === search)))
      continue;
    // A later status change of an entry keeps the search text it was indexed with if it brings none.
    items[id] = [status, statusRev, search || known?.[2] || ''];
    changed = true;
  }
  return changed ? { rev: (current?.rev ?? 0) + 1, items } : undefined;
}

export function countMonth(index: MonthIndex): MonthCounts {
  let fresh = 0;
  let handled = 0;
  for (const [status] of Object.values(index.items)) status === 'new' ? fresh++ : handled++;
  return { rev: index.rev, new: fresh, handled };
}

/** The summary with one month's counts, or undefined when it already has these or newer ones. */
export function withMonthCounts(
  current: IndexSummary | null,
  month: string,
  counts: MonthCounts,
): IndexSummary | undefined {
  const known = current?.months[month];
  if (known && known.rev >= counts.rev) return undefined;
  return { months: { ...(current?.months ?? {}), [month]: counts } };
}

export function totals(summary: IndexSummary): StatusCounts {
  const counts = { all: 0, new: 0, handled: 0 };
  for (const month of Object.values(summary.months)) {
    counts.new += month.new;
    counts.handled += month.handled;
  }
  counts.all = counts.new + counts.handled;
  return counts;
}

const matching = (counts: MonthCounts, filter: StatusFilter) =>
  filter === 'all' ? counts.new + counts.handled : counts[filter];

/** Ids of a month entry that match the filter, newest first (ids sort by time). */
export function idsOf(index: MonthIndex, filter: StatusFilter): string[] {
  const ids = Object.keys(index.items).filter((id) => filter === 'all' || index.items[id][0] === filter);
  return ids.sort().reverse();
}

/* ---------- store-backed ---------- */

const store = (): Store => dataStore('inquiries');

/** Reads an index entry through its schema; one that does not parse is treated as missing (the rebuild repairs it). */
async function readParsed<S extends v.GenericSchema>(schema: S, key: string): Promise<v.InferOutput<S> | null> {
  const stored = await store().get(key, { type: 'json' });
  if (stored === null) return null;
  const parsed = v.safeParse(schema, stored);
  if (parsed.success) return parsed.output;
  console.error(`Inquiry index: ${key} is not valid:`, parsed.issues[0]?.message);
  await store()
    .delete(BUILT_KEY)
    .catch(() => {});
  return null;
}

const readMonth = (month: string) => readParsed(MonthIndexSchema, monthIndexKey(month));

/** updateJSON on an index entry, where a stored value that does not parse counts as missing. */
const updateParsed = <S extends v.GenericSchema>(
  schema: S,
  key: string,
  change: (current: v.InferOutput<S> | null) => v.InferOutput<S> | undefined,
) =>
  updateJSON<v.InferOutput<S>>(store(), key, (current) => {
    const parsed = current === null ? null : v.safeParse(schema, current);
    return change(parsed?.success ? parsed.output : null);
  });

async function publishCounts(month: string, index: MonthIndex): Promise<void> {
  const counts = countMonth(index);
  await updateParsed(IndexSummarySchema, SUMMARY_KEY, (current) => withMonthCounts(current, month, counts));
}

/** Records inquiries (new ones, or a status change) in the index. */
export async function indexInquiries(entries: IndexEntry[]): Promise<void> {
  const byMonth = new Map<string, IndexEntry[]>();
  for (const entry of entries) byMonth.set(monthOfId(entry.id), [...(byMonth.get(monthOfId(entry.id)) ?? []), entry]);
  for (const [month, group] of byMonth) {
    const index = await updateParsed(MonthIndexSchema, monthIndexKey(month), (current) => applyToMonth(current, group));
    if (index) await publishCounts(month, index);
  }
}

/**
 * Indexes, but never fails the caller (the record is stored either way). If the index could not be
 * written, the marker that it is complete goes, so the next inbox read rebuilds it from the records.
 */
export async function indexOrMarkStale(entries: IndexEntry[]): Promise<void> {
  try {
    await indexInquiries(entries);
  } catch (error) {
    console.error('Inquiry index: could not record', entries.map((e) => e.id).join(', '), error);
    await store()
      .delete(BUILT_KEY)
      .catch(() => {});
  }
}

/**
 * Builds the index from the records (once: stores that had inquiries before the index existed, or
 * after an index write failed). Merges into whatever is there, so concurrent creates are kept.
 */
export async function rebuildIndex(readRecords: () => Promise<IndexEntry[]>): Promise<void> {
  await indexInquiries(await readRecords());
  const months = (await store().list({ prefix: MONTH_PREFIX })).blobs.map((blob) =>
    blob.key.slice(MONTH_PREFIX.length),
  );
  // Heal the counts of months no entry above touched.
  for (const month of months) {
    const index = await readMonth(month);
    if (index) await publishCounts(month, index);
  }
  await store().setJSON(BUILT_KEY, { at: new Date().toISOString(), version: INDEX_VERSION });
}

/** The summary as it is, without completing the index first (for read-only figures: writes nothing). */
export async function peekSummary(): Promise<IndexSummary> {
  return (await readParsed(IndexSummarySchema, SUMMARY_KEY)) ?? { months: {} };
}

export async function readSummary(readRecords: () => Promise<IndexEntry[]>): Promise<IndexSummary> {
  const built = await readParsed(BuiltSchema, BUILT_KEY);
  if (!built || built.version < INDEX_VERSION) await rebuildIndex(readRecords);
  return (await readParsed(IndexSummarySchema, SUMMARY_KEY)) ?? { months: {} };
}

/**
 * One page of ids, newest first: skips whole months by their counts and reads only the month entries
 * the page falls in (usually one).
 */
export async function pageOfIds(
  summary: IndexSummary,
  { filter, offset, limit }: { filter: StatusFilter; offset: number; limit: number },
): Promise<string[]> {
  const months = Object.keys(summary.months).sort().reverse();
  const ids: string[] = [];
  let skip = offset;
  for (const month of months) {
    if (ids.length >= limit) break;
    const counted = matching(summary.months[month], filter);
    if (skip >= counted) {
      skip -= counted;
      continue;
    }
    const index = await readMonth(month);
    if (!index) continue;
    if (index.rev > summary.months[month].rev) await publishCounts(month, index); // a missed summary write: repair it
    const found = idsOf(index, filter);
    ids.push(...found.slice(skip, skip + limit - ids.length));
    skip = Math.max(0, skip - found.length);
  }
  return ids;
}

/**
 * Month entries this instance has read, by month. Every write to a month entry gives it a new rev, so an
 * entry read at the rev the summary names is that month as the summary counted it: searches reuse it
 * instead of reading and parsing the month again (a few MB at 100,000 inquiries).
 */
const monthCache = new Map<string, MonthIndex>();

/** Every month entry of the summary, newest month first, read a few at a time (or reused, see monthCache). */
async function allMonths(summary: IndexSummary): Promise<MonthIndex[]> {
  const months = Object.keys(summary.months).sort().reverse();
  const read: (MonthIndex | null)[] = new Array(months.length);
  let next = 0;
  const worker = async () => {
    while (next < months.length) {
      const index = next++;
      const month = months[index];
      const cached = monthCache.get(month);
      if (cached && cached.rev === summary.months[month].rev) {
        read[index] = cached;
        continue;
      }
      const fresh = await readMonth(month);
      if (fresh) monthCache.set(month, fresh);
      read[index] = fresh;
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, months.length) }, worker));
  return read.filter((index): index is MonthIndex => index !== null);
}

/**
 * Every id whose search text `matches`, newest first, with the counts per status among them. Reads each
 * month entry once and no record.
 */
export async function searchIds(
  summary: IndexSummary,
  filter: StatusFilter,
  matches: (search: string) => boolean,
): Promise<{ ids: string[]; counts: StatusCounts }> {
  const counts = { all: 0, new: 0, handled: 0 };
  const ids: string[] = [];
  for (const index of await allMonths(summary)) {
    const found: string[] = [];
    for (const [id, [status, , search]] of Object.entries(index.items)) {
      if (!matches(search ?? '')) continue;
      counts[status]++;
      if (filter === 'all' || filter === status) found.push(id);
    }
    ids.push(...found.sort().reverse());
  }
  counts.all = counts.new + counts.handled;
  return { ids, counts };
}

/** How many inquiries arrived after `idFloor` (an id or a prefix of one: ids sort by time). */
export async function countAfter(summary: IndexSummary, idFloor: string): Promise<number> {
  const first = monthOfId(idFloor);
  let count = 0;
  for (const month of Object.keys(summary.months).filter((m) => m >= first)) {
    const index = await readMonth(month);
    if (!index) continue;
    if (month > first) count += Object.keys(index.items).length;
    else for (const id of Object.keys(index.items)) if (id > idFloor) count++;
  }
  return count;
}

/** Days as `YYYY-MM-DD`, both included (UTC, as the ids are). */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * Every indexed id, month by month, newest first (the CSV exports stream through these); with a range, only the
 * months it touches are read and only the ids received on its days are given.
 */
export async function* idsByMonth(summary: IndexSummary, range?: DayRange): AsyncGenerator<string[]> {
  const first = range ? range.from.slice(0, 7) : '';
  const last = range ? range.to.slice(0, 7) : '9999-12';
  const [fromDay, toDay] = range ? [range.from, range.to].map((day) => day.replaceAll('-', '')) : ['', ''];
  for (const month of Object.keys(summary.months).sort().reverse()) {
    if (month < first || month > last) continue;
    const index = await readMonth(month);
    if (!index) continue;
    const ids = idsOf(index, 'all');
    yield range ? ids.filter((id) => id.slice(0, 8) >= fromDay && id.slice(0, 8) <= toDay) : ids;
  }
}
