import { dataStore } from './blobs.ts';
import type { ContentType } from '../schemas/blog.ts';

/**
 * Blog posts as stored in the `blogs` store under `post/{id}` (SPEC 3, admin shape). The dashboard
 * reads these through listBlogRecords (it needs only the fields of BlogRecord); src/server/blogs.ts
 * writes them. Other keys of the store: `slug/{slug}` -> `{ id }` (the unique slug index).
 */
export interface BlogRecord {
  _id: string;
  slug: string;
  title: string;
  excerpt: string;
  isPublished: boolean;
  createdAt: string;
  /** When the post was first published (kept when it is unpublished); null for a post never published. */
  publishedAt?: string | null;
  /**
   * Views as of the post's last save. The live count is kept apart, in the `counters` store under
   * `blog-views/{id}`, so that counting a view never changes the post (nor its version).
   */
  views: number;
}

/** Everything stored for a post. */
export interface StoredBlog extends BlogRecord {
  publishedAt: string | null;
  /** As written: sanitised HTML for html posts, the Markdown source for markdown posts. */
  content: string;
  contentType: ContentType;
  /** The sanitised HTML of the content, rendered when the post was saved. */
  html: string;
  author: string;
  featuredImage: string;
  featuredImageAlt: string;
  category: string;
  tags: string[];
  seoKeywords: string[];
  metaTitle: string;
  metaDescription: string;
  readTime: number;
  updatedAt: string;
  /** Starts at 1 and grows by one with every save; an update must name the version it was based on. */
  version: number;
  createdBy: string;
  updatedBy: string;
}

export const BLOG_PREFIX = 'post/';
export const SLUG_PREFIX = 'slug/';
export const postKey = (id: string) => `${BLOG_PREFIX}${id}`;
export const slugKey = (slug: string) => `${SLUG_PREFIX}${slug}`;

export async function listBlogRecords(): Promise<StoredBlog[]> {
  const store = dataStore('blogs');
  const { blobs } = await store.list({ prefix: BLOG_PREFIX });
  const records = await Promise.all(blobs.map(({ key }) => store.get(key, { type: 'json' }) as Promise<StoredBlog | null>));
  return records.filter((record): record is StoredBlog => record !== null);
}

export async function getBlogRecord(id: string): Promise<StoredBlog | null> {
  if (!/^[a-f0-9]{32}$/.test(id)) return null;
  return (await dataStore('blogs').get(postKey(id), { type: 'json' })) as StoredBlog | null;
}
