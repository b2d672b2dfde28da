import type { Store } from '@netlify/blobs';
import { COUNTER_RETRIES, dataStore, updateJSON } from './blobs.ts';
import { monthKey } from './months.ts';

/**
 * Monthly counters in the `counters` store: `views/YYYY-MM` holds the blog views of a month, and
 * `snapshot/YYYY-MM` the catalogue and blog totals as first seen that month (the baseline of growth).
 */
interface Count {
  count: number;
}

/**
 * Adds one to a counter entry and answers the new count. Many function instances may count the same key
 * at once (view beacons): each increment is a conditional write retried with jittered back-off until
 * it lands (COUNTER_RETRIES), so no increment is lost or counted twice.
 */
export async function increment(store: Store, key: string): Promise<number> {
  const next = await updateJSON<Count>(store, key, (current) => ({ count: (current?.count ?? 0) + 1 }), COUNTER_RETRIES);
  return next?.count ?? 0;
}

export function addView(at: Date = new Date()): Promise<number> {
  return increment(dataStore('counters'), `views/${monthKey(at)}`);
}

export async function viewsIn(month: string): Promise<number> {
  const entry = (await dataStore('counters').get(`views/${month}`, { type: 'json' })) as Count | null;
  return entry?.count ?? 0;
}

export interface Snapshot {
  courses: number;
  categories: number;
  publishedBlogs: number;
  takenAt: string;
}

export async function readSnapshot(month: string): Promise<Snapshot | null> {
  return (await dataStore('counters').get(`snapshot/${month}`, { type: 'json' })) as Snapshot | null;
}

/** Records the month's baseline once; later calls in the same month keep the first one. */
export async function recordSnapshot(month: string, totals: Omit<Snapshot, 'takenAt'>): Promise<void> {
  await dataStore('counters').setJSON(`snapshot/${month}`, { ...totals, takenAt: new Date().toISOString() }, { onlyIfNew: true });
}
