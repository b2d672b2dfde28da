import { randomUUID } from 'node:crypto';
import { purgeTags } from './cdn.ts';
import { dataStore, updateJSON } from './blobs.ts';
import { addView, increment } from './counters.ts';
import { renderContent, sanitizeHtml } from './sanitize.ts';
import { getBlogRecord, listBlogRecords, postKey, slugKey, type StoredBlog } from './blog-records.ts';
import { readTimeMinutes } from '../lib/blog-content.ts';
import type { AdminBlog, BlogInput, BlogListAnswer, BlogUpdate, PublicBlog, PublicBlogSummary } from '../schemas/blog.ts';

/**
 * The blog store: posts under `post/{id}`, the slug index under `slug/{slug}` (written with onlyIfNew,
 * so two posts can never take the same address), live view counts in the counters store.
 */
const blogs = () => dataStore('blogs');
const counters = () => dataStore('counters');
const viewsKey = (id: string) => `blog-views/${id}`;

export const CACHE_TAG = 'blog';
export const LIST_CACHE_TAG = 'blog-list';
export const postCacheTag = (slug: string) => `blog-${slug}`;
const MAX_SLUG = 80;

/** "RPL & Licences: What's Different?" -> "rpl-and-licences-whats-different". Never empty. */
export function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!base) return 'post';
  if (base.length <= MAX_SLUG) return base;
  const cut = base.slice(0, MAX_SLUG + 1);
  const atWord = cut.lastIndexOf('-');
  return (atWord > 20 ? cut.slice(0, atWord) : base.slice(0, MAX_SLUG)).replace(/-+$/, '');
}

/**
 * Takes `base`, else `base-2`, `base-3`, ... for post `id`. The index entry is only ever created when
 * missing (onlyIfNew through updateJSON, which also queues writers of one key inside this process), so
 * two posts saved at the same moment cannot end up with the same address.
 */
async function claimSlug(base: string, id: string): Promise<string> {
  for (let n = 1; n <= 50; n++) {
    const candidate = n === 1 ? base : `${base.slice(0, MAX_SLUG - String(n).length - 1).replace(/-+$/, '')}-${n}`;
    const owner = await updateJSON<{ id: string }>(blogs(), slugKey(candidate), (current) => (current ? undefined : { id }));
    if (owner?.id === id) return candidate;
  }
  const fallback = `${base.slice(0, MAX_SLUG - 9).replace(/-+$/, '')}-${id.slice(0, 8)}`;
  await blogs().setJSON(slugKey(fallback), { id });
  return fallback;
}

async function releaseSlug(slug: string, id: string): Promise<void> {
  const owner = (await blogs().get(slugKey(slug), { type: 'json' })) as { id: string } | null;
  if (owner?.id === id) await blogs().delete(slugKey(slug));
}

/** Drops the CDN's copies of the blog pages and answers that a write changed. */
export async function purgeBlogCache(slugs: string[]): Promise<void> {
  const tags = [LIST_CACHE_TAG, ...new Set(slugs)].map((slug) => (slug === LIST_CACHE_TAG ? slug : postCacheTag(slug)));
  await purgeTags(tags);
}

async function prepare(input: BlogInput) {
  const content = input.contentType === 'html' ? await sanitizeHtml(input.content) : input.content;
  const html = await renderContent(input.content, input.contentType);
  return { ...input, content, html, readTime: readTimeMinutes(html) };
}

export async function createBlog(input: BlogInput, by: string, now = new Date()): Promise<StoredBlog> {
  const id = randomUUID().replace(/-/g, '');
  const prepared = await prepare(input);
  const slug = await claimSlug(slugify(input.title), id);
  const at = now.toISOString();
  const record: StoredBlog = {
    _id: id,
    slug,
    ...prepared,
    createdAt: at,
    updatedAt: at,
    publishedAt: input.isPublished ? at : null,
    views: 0,
    version: 1,
    createdBy: by,
    updatedBy: by,
  };
  try {
    await blogs().setJSON(postKey(id), record, { onlyIfNew: true });
  } catch (cause) {
    await releaseSlug(slug, id);
    throw cause;
  }
  await purgeBlogCache([slug]);
  return record;
}

export type UpdateResult =
  | { ok: true; blog: StoredBlog; previousSlug: string }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'conflict'; current: StoredBlog };

/**
 * Saves the whole post if it is still at the version the editor loaded; otherwise nothing changes and
 * the newer version is returned (409 for the client). The slug follows the title until the post has
 * been published once, then it is frozen so published links never break.
 */
export async function updateBlog(id: string, input: BlogUpdate, by: string, now = new Date()): Promise<UpdateResult> {
  const current = await getBlogRecord(id);
  if (!current) return { ok: false, reason: 'not-found' };
  if (current.version !== input.version) return { ok: false, reason: 'conflict', current };

  const { version: _version, ...fields } = input;
  const prepared = await prepare(fields);
  const slugFrozen = current.publishedAt !== null;
  const wantsNewSlug = !slugFrozen && slugify(input.title) !== slugify(current.title);
  const slug = wantsNewSlug ? await claimSlug(slugify(input.title), id) : current.slug;
  const views = await viewCount(id);

  let outcome: UpdateResult | undefined;
  const saved = await updateJSON<StoredBlog>(blogs(), postKey(id), (latest) => {
    if (!latest) {
      outcome = { ok: false, reason: 'not-found' };
      return undefined;
    }
    if (latest.version !== input.version) {
      outcome = { ok: false, reason: 'conflict', current: latest };
      return undefined;
    }
    const at = now.toISOString();
    return {
      ...latest,
      ...prepared,
      slug: latest.publishedAt !== null ? latest.slug : slug,
      publishedAt: latest.publishedAt ?? (input.isPublished ? at : null),
      views,
      updatedAt: at,
      updatedBy: by,
      version: latest.version + 1,
    };
  });
  if (outcome) {
    if (slug !== current.slug) await releaseSlug(slug, id);
    return outcome;
  }
  const blog = saved as StoredBlog;
  if (blog.slug !== current.slug) await releaseSlug(current.slug, id);
  else if (slug !== blog.slug) await releaseSlug(slug, id);
  await purgeBlogCache([current.slug, blog.slug]);
  return { ok: true, blog, previousSlug: current.slug };
}

export async function deleteBlog(id: string): Promise<StoredBlog | null> {
  const current = await getBlogRecord(id);
  if (!current) return null;
  await blogs().delete(postKey(id));
  await Promise.all([releaseSlug(current.slug, id), counters().delete(viewsKey(id))]);
  await purgeBlogCache([current.slug]);
  return current;
}

export async function getBlogBySlug(slug: string): Promise<StoredBlog | null> {
  const entry = (await blogs().get(slugKey(slug), { type: 'json' })) as { id: string } | null;
  if (!entry) return null;
  const blog = await getBlogRecord(entry.id);
  return blog?.slug === slug ? blog : null;
}

export { getBlogRecord as getBlogById };

/** Every post, drafts too, newest first (admin list). */
export async function listAllBlogs(): Promise<StoredBlog[]> {
  return (await listBlogRecords()).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

// ---------- views ----------

export async function viewCount(id: string): Promise<number> {
  const entry = (await counters().get(viewsKey(id), { type: 'json' })) as { count: number } | null;
  return entry?.count ?? 0;
}

async function viewCounts(ids: string[]): Promise<Map<string, number>> {
  return new Map(await Promise.all(ids.map(async (id) => [id, await viewCount(id)] as const)));
}

/** Counts one view of a published post (and the month's total for the dashboard); null if not public. */
export async function countView(slug: string, at = new Date()): Promise<number | null> {
  const blog = await getBlogBySlug(slug);
  if (!blog?.isPublished) return null;
  const [views] = await Promise.all([increment(counters(), viewsKey(blog._id)), addView(at)]);
  return views;
}

// ---------- shapes ----------

export function toAdmin(blog: StoredBlog, views: number): AdminBlog {
  const { html: _html, createdBy: _createdBy, ...rest } = blog;
  return { ...rest, views };
}

export function toSummary(blog: StoredBlog, views: number): PublicBlogSummary {
  return {
    _id: blog._id,
    slug: blog.slug,
    title: blog.title,
    excerpt: blog.excerpt,
    featuredImage: blog.featuredImage,
    featuredImageAlt: blog.featuredImageAlt,
    author: blog.author,
    category: blog.category,
    publishedAt: blog.publishedAt,
    createdAt: blog.createdAt,
    updatedAt: blog.updatedAt,
    readTime: blog.readTime || 5,
    views,
    tags: blog.tags,
    metaTitle: blog.metaTitle,
    metaDescription: blog.metaDescription,
    seoKeywords: blog.seoKeywords,
  };
}

/** The public post, its content sanitised again as it is served. */
export async function toPublic(blog: StoredBlog): Promise<PublicBlog> {
  const [views, content] = await Promise.all([viewCount(blog._id), sanitizeHtml(blog.html)]);
  return { ...toSummary(blog, views), content };
}

export async function adminList(): Promise<AdminBlog[]> {
  const all = await listAllBlogs();
  const views = await viewCounts(all.map((blog) => blog._id));
  return all.map((blog) => toAdmin(blog, views.get(blog._id) ?? 0));
}

const fold = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Published posts, newest first, filtered by every word of `search`, one page at a time (SPEC 2.11). */
export async function listPublished({ page, limit, search }: { page: number; limit: number; search?: string }): Promise<BlogListAnswer> {
  const words = fold(search ?? '').split(/\s+/).filter(Boolean);
  const published = (await listBlogRecords())
    .filter((blog) => blog.isPublished)
    .filter((blog) => {
      if (!words.length) return true;
      const haystack = fold([blog.title, blog.excerpt, blog.author, blog.category, ...blog.tags].join(' '));
      return words.every((word) => haystack.includes(word));
    })
    .sort((a, b) => (b.publishedAt ?? b.createdAt).localeCompare(a.publishedAt ?? a.createdAt));
  const total = published.length;
  const totalPages = Math.ceil(total / limit);
  const currentPage = Math.min(Math.max(1, page), Math.max(1, totalPages));
  const slice = published.slice((currentPage - 1) * limit, currentPage * limit);
  const views = await viewCounts(slice.map((blog) => blog._id));
  return { blogs: slice.map((blog) => toSummary(blog, views.get(blog._id) ?? 0)), totalPages, currentPage, total };
}
