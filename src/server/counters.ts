import * as v from 'valibot';
import type { Store } from '@netlify/blobs';
import { COUNTER_RETRIES, dataStore, updateJSON } from './blobs.ts';
import { monthKey } from './months.ts';
import { CounterSchema, SnapshotSchema, type Counter, type Snapshot } from '../schemas/counter.ts';

export type { Snapshot } from '../schemas/counter.ts';

/**
 * Monthly counters in the `counters` store: `views/YYYY-MM` holds the blog views of a month, and
 * `snapshot/YYYY-MM` the catalogue and blog totals as first seen that month (the baseline of growth).
 * Entries are parsed on every read; one that is not a valid counter counts as missing (and is logged).
 */
function parsed<S extends v.GenericSchema>(schema: S, key: string, stored: unknown): v.InferOutput<S> | null {
  if (stored === null || stored === undefined) return null;
  const result = v.safeParse(schema, stored);
  if (result.success) return result.output;
  console.error(`Counter entry "${key}" is not valid and is ignored:`, result.issues[0]?.message);
  return null;
}

/**
 * Adds one to a counter entry and answers the new count. Many function instances may count the same key
 * at once (view beacons): each increment is a conditional write retried with jittered back-off until
 * it lands (COUNTER_RETRIES), so no increment is lost or counted twice.
 */
export async function increment(store: Store, key: string): Promise<number> {
  const next = await updateJSON<unknown>(
    store,
    key,
    (current) => ({ count: (parsed(CounterSchema, key, current)?.count ?? 0) + 1 }) satisfies Counter,
    COUNTER_RETRIES,
  );
  return parsed(CounterSchema, key, next)?.count ?? 0;
}

export function addView(at: Date = new Date()): Promise<number> {
  return increment(dataStore('counters'), `views/${monthKey(at)}`);
}

export async function viewsIn(month: string): Promise<number> {
  const key = `views/${month}`;
  return parsed(CounterSchema, key, await dataStore('counters').get(key, { type: 'json' }))?.count ?? 0;
}

export async function readSnapshot(month: string): Promise<Snapshot | null> {
  const key = `snapshot/${month}`;
  return parsed(SnapshotSchema, key, await dataStore('counters').get(key, { type: 'json' }));
}

/** Records the month's baseline once; later calls in the same month keep the first one. */
export async function recordSnapshot(month: string, totals: Omit<Snapshot, 'takenAt'>): Promise<void> {
  const snapshot = v.parse(SnapshotSchema, { ...totals, takenAt: new Date().toISOString() });
  await dataStore('counters').setJSON(`snapshot/${month}`, snapshot, { onlyIfNew: true });
}
