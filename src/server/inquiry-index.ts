import type { Store } from '@netlify/blobs';
import { dataStore, updateJSON } from './blobs.ts';

/**
 * The staff inbox's index of inquiries, kept beside the records in the `inquiries` store so a page of
 * the inbox reads a couple of small entries instead of every inquiry ever received.
 *
 * Keys:  index/month/{YYYY-MM}  every inquiry received that month (UTC, from its id): id -> [status, statusRev]
 *        index/summary          per month: how many are new and handled, and the month entry's rev they came from
 *        index/built            written once every record stored before the index existed has been indexed
 *
 * The record stays the truth; the index is derived from it and converges whatever the order of writes:
 *  - a month entry keeps, per inquiry, the status with the highest statusRev (the record counts its status
 *    changes), so two staff toggling one inquiry at once leave the index at the record's last status;
 *  - the summary keeps, per month, the counts of the month entry with the highest rev, so a late write of
 *    older counts never replaces newer ones, and any later write to the month repairs a missed one.
 * Both are read-modify-writes with conditional writes (updateJSON), so no concurrent change is lost.
 */

export type IndexedStatus = 'new' | 'handled';
export interface IndexEntry {
  id: string;
  status: IndexedStatus;
  statusRev: number;
}
export interface MonthIndex {
  rev: number;
  items: Record<string, [IndexedStatus, number]>;
}
export interface MonthCounts {
  rev: number;
  new: number;
  handled: number;
}
export interface IndexSummary {
  months: Record<string, MonthCounts>;
}
export type InboxFilter = 'all' | IndexedStatus;
export type InboxCounts = Record<InboxFilter, number>;

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
  for (const { id, status, statusRev } of entries) {
    const known = items[id];
    if (known && (known[1] > statusRev || (known[1] === statusRev && known[0] === status))) continue;
    items[id] = [status, statusRev];
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
export function withMonthCounts(current: IndexSummary | null, month: string, counts: MonthCounts): IndexSummary | undefined {
  const known = current?.months[month];
  if (known && known.rev >= counts.rev) return undefined;
  return { months: { ...(current?.months ?? {}), [month]: counts } };
}

export function totals(summary: IndexSummary): InboxCounts {
  const counts = { all: 0, new: 0, handled: 0 };
  for (const month of Object.values(summary.months)) {
    counts.new += month.new;
    counts.handled += month.handled;
  }
  counts.all = counts.new + counts.handled;
  return counts;
}

const matching = (counts: MonthCounts, filter: InboxFilter) => (filter === 'all' ? counts.new + counts.handled : counts[filter]);

/** Ids of a month entry that match the filter, newest first (ids sort by time). */
export function idsOf(index: MonthIndex, filter: InboxFilter): string[] {
  const ids = Object.keys(index.items).filter((id) => filter === 'all' || index.items[id][0] === filter);
  return ids.sort().reverse();
}

/* ---------- store-backed ---------- */

const store = (): Store => dataStore('inquiries');

async function readMonth(month: string): Promise<MonthIndex | null> {
  return (await store().get(monthIndexKey(month), { type: 'json' })) as MonthIndex | null;
}

async function publishCounts(month: string, index: MonthIndex): Promise<void> {
  const counts = countMonth(index);
  await updateJSON<IndexSummary>(store(), SUMMARY_KEY, (current) => withMonthCounts(current, month, counts));
}

/** Records inquiries (new ones, or a status change) in the index. */
export async function indexInquiries(entries: IndexEntry[]): Promise<void> {
  const byMonth = new Map<string, IndexEntry[]>();
  for (const entry of entries) byMonth.set(monthOfId(entry.id), [...(byMonth.get(monthOfId(entry.id)) ?? []), entry]);
  for (const [month, group] of byMonth) {
    const index = await updateJSON<MonthIndex>(store(), monthIndexKey(month), (current) => applyToMonth(current, group));
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
    await store().delete(BUILT_KEY).catch(() => {});
  }
}

/**
 * Builds the index from the records (once: stores that had inquiries before the index existed, or
 * after an index write failed). Merges into whatever is there, so concurrent creates are kept.
 */
export async function rebuildIndex(readRecords: () => Promise<IndexEntry[]>): Promise<void> {
  await indexInquiries(await readRecords());
  const months = (await store().list({ prefix: MONTH_PREFIX })).blobs.map((blob) => blob.key.slice(MONTH_PREFIX.length));
  // Heal the counts of months no entry above touched.
  for (const month of months) {
    const index = await readMonth(month);
    if (index) await publishCounts(month, index);
  }
  await store().setJSON(BUILT_KEY, { at: new Date().toISOString() });
}

export async function readSummary(readRecords: () => Promise<IndexEntry[]>): Promise<IndexSummary> {
  if ((await store().get(BUILT_KEY)) === null) await rebuildIndex(readRecords);
  return ((await store().get(SUMMARY_KEY, { type: 'json' })) as IndexSummary | null) ?? { months: {} };
}

/**
 * One page of ids, newest first: skips whole months by their counts and reads only the month entries
 * the page falls in (usually one).
 */
export async function pageOfIds(
  summary: IndexSummary,
  { filter, offset, limit }: { filter: InboxFilter; offset: number; limit: number },
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

/** Every indexed id, month by month, newest first (the CSV export streams through these). */
export async function* idsByMonth(summary: IndexSummary): AsyncGenerator<string[]> {
  for (const month of Object.keys(summary.months).sort().reverse()) {
    const index = await readMonth(month);
    if (index) yield idsOf(index, 'all');
  }
}
