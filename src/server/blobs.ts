import { getStore, type Store } from '@netlify/blobs';

/**
 * The site's runtime data stores (Netlify Blobs). One name per kind of record; each store has its own
 * typed accessor module in src/server/ (users, settings, inquiries, outbox, blogs, uploads, counters).
 */
export type StoreName = 'users' | 'sessions' | 'settings' | 'inquiries' | 'outbox' | 'blogs' | 'uploads' | 'counters' | 'throttle';

/**
 * A site-wide store with strong consistency, so a read right after a write sees it (the admin saves
 * and reloads at once). Inside a function the context comes from the platform; unit tests set it
 * through setEnvironmentContext with a local BlobsServer.
 */
export function dataStore(name: StoreName): Store {
  return getStore({ name, consistency: 'strong' });
}
