import * as v from 'valibot';
import { dataStore } from './blobs.ts';
import { BlogRevisionsSchema, StoredBlogSchema, type BlogRevision, type StoredBlog } from '../schemas/blog.ts';

/**
 * Blog posts as stored in the `blogs` store under `post/{id}`; src/server/blogs.ts writes them, the
 * dashboard reads them through listBlogRecords. Other keys of the store: `slug/{slug}` -> `{ id }` (the
 * unique slug index, old addresses of published posts included) and `revisions/{id}` (saved versions).
 * Everything read is parsed with its schema: a record that does not match is reported and left out,
 * so one broken entry never takes the blog down.
 */
export type { StoredBlog };

export const BLOG_PREFIX = 'post/';
export const SLUG_PREFIX = 'slug/';
export const REVISIONS_PREFIX = 'revisions/';
export const postKey = (id: string) => `${BLOG_PREFIX}${id}`;
export const slugKey = (slug: string) => `${SLUG_PREFIX}${slug}`;
export const revisionsKey = (id: string) => `${REVISIONS_PREFIX}${id}`;
const ID = /^[a-f0-9]{32}$/;

/** A stored post, or null (with a log line naming the key and the first problem) when it does not parse. */
export function parseBlogRecord(key: string, value: unknown): StoredBlog | null {
  if (value === null || value === undefined) return null;
  const result = v.safeParse(StoredBlogSchema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  console.error(`[blogs] skipped the broken record ${key}: ${v.getDotPath(issue) ?? 'record'}: ${issue.message}`);
  return null;
}

export async function listBlogRecords(): Promise<StoredBlog[]> {
  const store = dataStore('blogs');
  const { blobs } = await store.list({ prefix: BLOG_PREFIX });
  const records = await Promise.all(
    blobs.map(async ({ key }) => {
      try {
        return parseBlogRecord(key, await store.get(key, { type: 'json' }));
      } catch (cause) {
        // Not JSON at all.
        console.error(`[blogs] skipped the unreadable record ${key}:`, cause);
        return null;
      }
    }),
  );
  return records.filter((record): record is StoredBlog => record !== null);
}

export async function getBlogRecord(id: string): Promise<StoredBlog | null> {
  if (!ID.test(id)) return null;
  try {
    return parseBlogRecord(postKey(id), await dataStore('blogs').get(postKey(id), { type: 'json' }));
  } catch (cause) {
    console.error(`[blogs] could not read ${postKey(id)}:`, cause);
    return null;
  }
}

/** The kept versions of a post, newest first; a broken entry counts as none. */
export async function readRevisions(id: string): Promise<BlogRevision[]> {
  if (!ID.test(id)) return [];
  const value = await dataStore('blogs')
    .get(revisionsKey(id), { type: 'json' })
    .catch(() => null);
  const result = v.safeParse(BlogRevisionsSchema, value);
  if (value !== null && !result.success) console.error(`[blogs] ignored the broken revisions of ${id}`);
  return result.success ? result.output.revisions : [];
}
