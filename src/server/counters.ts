import { dataStore, updateJSON } from './blobs.ts';
import { monthKey } from './months.ts';

/**
 * Monthly counters in the `counters` store: `views/YYYY-MM` holds the blog views of a month, and
 * `snapshot/YYYY-MM` the catalogue and blog totals as first seen that month (the baseline of growth).
 */
interface Count {
  count: number;
}

export async function addView(at: Date = new Date()): Promise<number> {
  const next = await updateJSON<Count>(dataStore('counters'), `views/${monthKey(at)}`, (current) => ({ count: (current?.count ?? 0) + 1 }));
  return next?.count ?? 0;
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
