import { createHash } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore, type Store } from '@netlify/blobs';

/**
 * The site's runtime data stores (Netlify Blobs). One name per kind of record; each store has its own
 * typed accessor module in src/server/ (users, settings, inquiries, outbox, blogs, uploads, counters, catalogue,
 * applicants and their private evidence, marketing, the activity log).
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
  | 'marketing'
  | 'activity'
  | 'exports';

/**
 * A site-wide store with strong consistency, so a read right after a write sees it (the admin saves
 * and reloads at once). Inside a function the context comes from the platform; unit tests set it
 * through setEnvironmentContext with a local BlobsServer.
 */
export function dataStore(name: StoreName): Store {
  const store = getStore({ name, consistency: 'strong' });
  storeNames.set(store, name);
  return store;
}
/** The name each store was made with (the client keeps it private): edits of one key in one store share a queue. */
const storeNames = new WeakMap<Store, string>();

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
 * One writer per key in this process, across all its threads: the local emulation runs every function
 * instance as a worker thread of one process, and its blob server's conditional writes are not atomic (it
 * checks an ETag made from the file time in milliseconds, then writes), so two instances can both land a write
 * from the same read. Where that must never happen (the sign-in counters), the whole read-modify-write runs
 * holding a lock file made with an exclusive create in a temporary folder of the process, which all its worker
 * threads share. (Node's Web Locks API, tried first, stops granting locks when half a
 * dozen worker threads contend.) On Netlify each instance has its own temporary folder, so it changes nothing
 * there and the conditional writes decide. A caller waits at most `maxWaitMs`, then gets LockBusyError; a lock
 * file older than LOCK_STUCK_MS belongs to a holder that died and is taken over.
 */
export async function acrossThreads<T>(
  id: string,
  task: () => Promise<T>,
  maxWaitMs = Number.POSITIVE_INFINITY,
): Promise<T> {
  const path = join(LOCK_DIR, `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.lock`);
  await mkdir(LOCK_DIR, { recursive: true });
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx' });
      break;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'EEXIST') throw cause;
    }
    const held = await stat(path).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (held > LOCK_STUCK_MS) {
      console.error(
        `Lock "${id.split('\n')[0]}" was held for over ${LOCK_STUCK_MS} ms by a holder that died; taking it over.`,
      );
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() - started > maxWaitMs)
      throw new LockBusyError(`Lock "${id.split('\n')[0]}" stayed busy for ${maxWaitMs} ms`);
    // Short polls: an update holds the lock for tens of milliseconds, and the next writer should not idle long after.
    await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * Math.min(20, 2 * 2 ** attempt)));
  }
  try {
    return await task();
  } finally {
    await rm(path, { force: true });
  }
}

// Per process, like the instances it serialises (worker threads share the process id): separate test runs, each
// with its own blob server, never wait on each other's counters.
const LOCK_DIR = join(tmpdir(), `rpl-site-locks-${process.pid}`);

/** The lock stayed with other writers for longer than the caller would wait (it then refuses, never hangs). */
export class LockBusyError extends Error {}

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
  return serialised(`${storeNames.get(store) ?? ''}\n${key}`, async () => {
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
