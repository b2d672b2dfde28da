import { dataStore } from './blobs.ts';

/**
 * Blog posts as stored in the `blogs` store under `post/{id}` (SPEC 3, admin shape). The dashboard only
 * reads these; the blog module owns writing them.
 */
export interface BlogRecord {
  _id: string;
  slug: string;
  title: string;
  excerpt: string;
  isPublished: boolean;
  createdAt: string;
  publishedAt?: string | null;
  views: number;
}

export const BLOG_PREFIX = 'post/';

export async function listBlogRecords(): Promise<BlogRecord[]> {
  const store = dataStore('blogs');
  const { blobs } = await store.list({ prefix: BLOG_PREFIX });
  const records = await Promise.all(blobs.map(({ key }) => store.get(key, { type: 'json' }) as Promise<BlogRecord | null>));
  return records.filter((record): record is BlogRecord => record !== null);
}
