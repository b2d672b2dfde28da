import { getDeployStore, getStore, type Store } from '@netlify/blobs';
import { isPreview } from './site.ts';

/**
 * The site's files in Netlify Blobs: the re-encoded images staff upload (`uploads`), the parts of applicants'
 * evidence (`evidence`, private: no public route serves it) and the parts of finished exports (`exports`).
 * Records live in the database (./database.ts); nothing else is kept here.
 *
 * Production and `npm start` use site-wide stores, which outlive every deploy. A deploy preview or branch deploy
 * uses stores of its own deploy (deleted with it): it can neither read production's evidence nor leave files in
 * production's stores. Reads are strongly consistent, so a read right after a write sees it.
 */
export type FileStoreName = 'uploads' | 'evidence' | 'exports';

export function fileStore(name: FileStoreName): Store {
  return isPreview() ? getDeployStore({ name, consistency: 'strong' }) : getStore({ name, consistency: 'strong' });
}
