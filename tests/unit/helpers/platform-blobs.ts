/**
 * An in-memory model of the documented Netlify Blobs semantics for races between function instances:
 * atomic conditional writes (onlyIfMatch / onlyIfNew), a new ETag per write, random delays inside every
 * call, and each simulated instance with its own store objects (so its own in-process write queue).
 * The local blob emulation cannot race honestly (its ETags are file times in milliseconds and its
 * check-then-write is not atomic), so cross-instance races run here.
 *
 * Use from a test file (vi.mock must sit in the test file itself):
 *   const platform = vi.hoisted(() => ({ model: undefined as unknown as PlatformModel }));
 *   vi.mock('@netlify/blobs', async (importOriginal) => (await import('./helpers/platform-blobs')).mockBlobsModule(await importOriginal()));
 * then switch it on with `platformModel.active = true` and run work in `inInstance(id, work)`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Entry = { data: string; etag: string };

export const platformModel = {
  active: false,
  instance: new AsyncLocalStorage<string>(),
  backends: new Map<string, Map<string, Entry>>(),
  /** Every write in the order it landed, with the value it replaced. */
  writes: [] as { writer: string; key: string; before: string | undefined; after: string }[],
  version: 0,
  random: Math.random,
  /** A write to a matching store and key is reported as not made (as when another writer always wins). */
  refuseWrites: undefined as ((store: string, key: string) => boolean) | undefined,
  /** Typical time of one call to the store in ms (0: as fast as the event loop allows); each call takes 0.5 to 1.5 times it. */
  latency: 0,
  reset(seed = 0xc0ffee) {
    this.backends.clear();
    this.writes.length = 0;
    this.random = seeded(seed);
    this.refuseWrites = undefined;
    this.latency = 0;
  },
};

export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Yields to other writers for a random while, between every step a real network call would take. */
export const jitter = () =>
  new Promise<void>((resolve) =>
    platformModel.latency > 0
      ? setTimeout(resolve, platformModel.latency * (0.5 + platformModel.random()))
      : platformModel.random() < 0.3
        ? queueMicrotask(resolve)
        : setTimeout(resolve, Math.floor(platformModel.random() * 3)),
  );

export class PlatformStore {
  constructor(
    readonly name: string,
    private readonly entries: Map<string, Entry>,
    private readonly etagOnRead: boolean,
  ) {}
  async get(key: string, options?: { type?: string }) {
    await jitter();
    const entry = this.entries.get(key);
    return entry ? (options?.type === 'json' ? JSON.parse(entry.data) : entry.data) : null;
  }
  async getWithMetadata(key: string) {
    await jitter();
    const entry = this.entries.get(key);
    return entry
      ? { data: JSON.parse(entry.data), etag: this.etagOnRead ? entry.etag : undefined, metadata: {} }
      : null;
  }
  async setJSON(key: string, value: unknown, options: { onlyIfNew?: boolean; onlyIfMatch?: string } = {}) {
    await jitter();
    if (platformModel.refuseWrites?.(this.name.split('@')[0], key)) return { modified: false };
    // The check and the write happen at once, as on the platform.
    const current = this.entries.get(key);
    if (options.onlyIfNew && current) return { modified: false };
    if (options.onlyIfMatch && current?.etag !== options.onlyIfMatch) return { modified: false };
    const etag = `"v${++platformModel.version}"`;
    platformModel.writes.push({ writer: this.name, key, before: current?.data, after: JSON.stringify(value) });
    this.entries.set(key, { data: JSON.stringify(value), etag });
    await jitter();
    return { modified: true, etag };
  }
  async set(key: string, value: string, options: { onlyIfNew?: boolean; onlyIfMatch?: string } = {}) {
    return this.setJSON(key, JSON.parse(JSON.stringify(value)), options);
  }
  async delete(key: string) {
    await jitter();
    this.entries.delete(key);
  }
  list(options: { prefix?: string; paginate?: boolean } = {}) {
    const page = async () => {
      await jitter();
      const blobs = [...this.entries]
        .filter(([key]) => key.startsWith(options.prefix ?? ''))
        .map(([key, { etag }]) => ({ key, etag }));
      return { blobs, directories: [] as string[] };
    };
    if (!options.paginate) return page();
    return {
      async *[Symbol.asyncIterator]() {
        yield await page();
      },
    };
  }
}

/** The @netlify/blobs module with getStore answering from the model while it is active. */
export function mockBlobsModule<T extends { getStore: (...args: never[]) => unknown }>(real: T): T {
  return {
    ...real,
    getStore: (options: unknown) => {
      if (!platformModel.active) return (real.getStore as (o: unknown) => unknown)(options);
      const name = typeof options === 'string' ? options : (options as { name: string }).name;
      if (!platformModel.backends.has(name)) platformModel.backends.set(name, new Map());
      const instance = platformModel.instance.getStore() ?? 'main';
      return new PlatformStore(`${name}@${instance}`, platformModel.backends.get(name)!, instance !== 'emulation-like');
    },
  };
}

/** Runs `work` as if in another function instance. */
export const inInstance = <T>(id: string, work: () => Promise<T>) => platformModel.instance.run(id, work);
