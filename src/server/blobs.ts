import { getStore, type Store } from '@netlify/blobs';

/**
 * The site's runtime data stores (Netlify Blobs). One name per kind of record; each store has its own
 * typed accessor module in src/server/ (users, settings, inquiries, outbox, blogs, uploads, counters, catalogue,
 * applicants and their private evidence, marketing).
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
  | 'applicants'
  | 'evidence'
  | 'marketing';

/**
 * A site-wide store with strong consistency, so a read right after a write sees it (the admin saves
 * and reloads at once). Inside a function the context comes from the platform; unit tests set it
 * through setEnvironmentContext with a local BlobsServer.
 */
export function dataStore(name: StoreName): Store {
  return getStore({ name, consistency: 'strong' });
}

/** JSON text as a value; an empty or unparseable entry (a write cut short, a hand edit) reads as null. */
function parseStored(key: string, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  try {
    return JSON.parse(raw);
  } catch {
    console.error(`Stored entry "${key}" is not valid JSON and counts as absent.`);
    return null;
  }
}

/**
 * The current value of an entry with its ETag. Netlify Blobs returns the ETag with the value; the local
 * emulation only reports ETags when listing, so there the ETag is read first and the value after it
 * (if the entry changes in between, the conditional write below fails and is retried: never lost).
 * An entry that exists but is empty or not JSON reads as null with `exists` set, so the next write
 * replaces it (conditionally) instead of failing on it for ever.
 */
async function readVersioned<T>(
  store: Store,
  key: string,
): Promise<{ data: T | null; exists: boolean; etag?: string }> {
  const found = await store.getWithMetadata(key, { type: 'text' });
  if (!found) return { data: null, exists: false };
  if (found.etag) return { data: parseStored(key, found.data) as T | null, exists: true, etag: found.etag };
  const { blobs } = await store.list({ prefix: key });
  const etag = blobs.find((blob) => blob.key === key)?.etag;
  const raw = await store.get(key, { type: 'text' });
  return raw === null ? { data: null, exists: false } : { data: parseStored(key, raw) as T | null, exists: true, etag };
}

/**
 * One writer per key inside this process, across all its threads: the local emulation runs every
 * function instance as a worker thread of one process, and its blob server's conditional writes are not
 * atomic (it checks an ETag made from the file time in milliseconds, then writes), so two instances can
 * both land a write from the same read. Where that must never happen (the sign-in counters), the whole
 * read-modify-write runs under a lock the threads share: the Web Locks API, process-wide in Node. On
 * Netlify, where instances are separate processes, it changes nothing and the conditional writes decide.
 */
export function acrossThreads<T>(id: string, task: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  return locks ? withLock(locks, `blobs:${id}`, task) : task();
}

/**
 * One writer per key inside this thread; the conditional writes handle writers elsewhere. (The local
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

/** A holder of a lock for longer than this (no update takes a fraction of it) is taken to be dead. */
const LOCK_STUCK_MS = 10_000;
const LOCK_CHECK_MS = 1_000;

/**
 * Runs `task` holding the lock `name`. Node never releases the locks of a worker thread that was
 * terminated while holding them, so each holder also holds a stamp lock (`name#<time acquired>`) that
 * shows waiters since when the lock is held; a waiter that finds it held for over LOCK_STUCK_MS takes it
 * over. A long queue of live writers never triggers that: each of them holds the lock only briefly.
 */
async function withLock<T>(locks: LockManager, name: string, task: () => Promise<T>): Promise<T> {
  let started = false;
  const run = () => {
    started = true;
    return locks.request(`${name}#${Date.now()}`, { mode: 'shared' }, task);
  };
  // A waiting lock request does not keep Node's event loop alive; this timer does.
  const alive = setInterval(() => {}, 60_000);
  try {
    for (;;) {
      try {
        return await locks.request(name, { signal: AbortSignal.timeout(LOCK_CHECK_MS) }, run);
      } catch (cause) {
        if (started || !(cause instanceof Error && cause.name === 'TimeoutError')) throw cause;
      }
      const { held = [] } = await locks.query();
      const stamps = held
        .map((lock) => lock.name ?? '')
        .filter((held) => held.startsWith(`${name}#`))
        .map((held) => Number(held.slice(name.length + 1)));
      const since = Math.max(0, ...stamps);
      if (since > 0 && Date.now() - since > LOCK_STUCK_MS) {
        console.error(`Lock "${name}" has been held for over ${LOCK_STUCK_MS} ms by a dead holder; taking it over.`);
        return await locks.request(name, { steal: true }, run);
      }
    }
  } finally {
    clearInterval(alive);
  }
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
      const { data: current, exists, etag } = await readVersioned<T>(store, key);
      const next = change(current);
      if (next === undefined) return current;
      const result = !exists
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
