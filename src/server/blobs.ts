import { getStore, type Store } from '@netlify/blobs';

/**
 * The site's runtime data stores (Netlify Blobs). One name per kind of record; each store has its own
 * typed accessor module in src/server/ (users, settings, inquiries, outbox, blogs, uploads, counters, catalogue, marketing).
 */
export type StoreName =
  | 'users'
  | 'sessions'
  | 'settings'
  | 'inquiries'
  | 'outbox'
  | 'blogs'
  | 'uploads'
  | 'counters'
  | 'throttle'
  | 'catalogue'
  | 'marketing';

/**
 * A site-wide store with strong consistency, so a read right after a write sees it (the admin saves
 * and reloads at once). Inside a function the context comes from the platform; unit tests set it
 * through setEnvironmentContext with a local BlobsServer.
 */
export function dataStore(name: StoreName): Store {
  return getStore({ name, consistency: 'strong' });
}

/**
 * The current value of an entry with its ETag. Netlify Blobs returns the ETag with the value; the local
 * emulation only reports ETags when listing, so there the ETag is read first and the value after it
 * (if the entry changes in between, the conditional write below fails and is retried: never lost).
 */
async function readVersioned<T>(store: Store, key: string): Promise<{ data: T | null; etag?: string }> {
  const found = await store.getWithMetadata(key, { type: 'json' });
  if (!found) return { data: null };
  if (found.etag) return { data: found.data as T, etag: found.etag };
  const { blobs } = await store.list({ prefix: key });
  const etag = blobs.find((blob) => blob.key === key)?.etag;
  const data = (await store.get(key, { type: 'json' })) as T | null;
  return data === null ? { data: null } : { data, etag };
}

/**
 * One writer per key inside this process; the conditional writes handle writers elsewhere. (The local
 * blob server checks a conditional write's ETag and then writes, with a gap between; Netlify does both at once.)
 */
const queues = new Map<string, Promise<unknown>>();
export function serialised<T>(id: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(id) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(task);
  const settled = run.catch(() => {});
  queues.set(id, settled);
  void settled.then(() => {
    if (queues.get(id) === settled) queues.delete(id);
  });
  return run;
}

/**
 * How long a conditional write keeps trying. After each refused write it waits a random time between 0
 * and min(maxDelayMs, baseDelayMs * 2^attempt) ("full jitter"), so writers that collided spread out
 * instead of colliding again in step.
 */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}
/** Records edited by people: a handful of writers at most. */
export const EDIT_RETRIES: RetryPolicy = { attempts: 10, baseDelayMs: 10, maxDelayMs: 200 };
/**
 * Hot counters (view beacons): dozens of function instances may write one key at the same moment, each
 * round trip taking tens of milliseconds, and every one of them must land. Bounded: about 10 s at most.
 */
export const COUNTER_RETRIES: RetryPolicy = { attempts: 60, baseDelayMs: 10, maxDelayMs: 250 };

export function retryDelayMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/**
 * Read-modify-write of one JSON entry without lost updates: the write only lands if nobody changed the
 * entry since it was read (ETag / onlyIfMatch, or onlyIfNew for a missing entry); otherwise it waits a
 * jittered while and re-reads and tries again, up to the policy's bound. `change` returns the new value,
 * or undefined to leave the entry as it is.
 */
export function updateJSON<T>(
  store: Store,
  key: string,
  change: (current: T | null) => T | undefined,
  policy: RetryPolicy = EDIT_RETRIES,
): Promise<T | null> {
  return serialised(`${(store as unknown as { name?: string }).name ?? ''}\n${key}`, async () => {
    for (let attempt = 0; attempt < policy.attempts; attempt++) {
      const { data: current, etag } = await readVersioned<T>(store, key);
      const next = change(current);
      if (next === undefined) return current;
      const result =
        current === null
          ? await store.setJSON(key, next, { onlyIfNew: true })
          : etag
            ? await store.setJSON(key, next, { onlyIfMatch: etag })
            : { modified: false };
      if (result.modified) return next;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(policy, attempt)));
    }
    throw new Error(`Could not update ${key}: too many concurrent writers`);
  });
}
