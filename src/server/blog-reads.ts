import { addView, increment } from './counters.ts';
import { sanitizeHtml } from './sanitize.ts';
import * as v from 'valibot';
import {
  type AdminBlog,
  type BlogListAnswer,
  type PublicBlog,
  type PublicBlogSummary,
  PublicBlogSummarySchema,
} from '../schemas/blog.ts';
import { dataStore } from './blobs.ts';
import { getBlogRecord, listBlogRecords, slugKey, type StoredBlog } from './blog-records.ts';

/**
 * Reading the blog: a post by its address (or the one that moved from it), every post, view counts, the
 * shapes the admin and the public API answer with, and the published list with its search and paging
 * (posts are written by ./blogs.ts; records parsed by ./blog-records.ts).
 */

export const counters = () => dataStore('counters');
export const viewsKey = (id: string) => `blog-views/${id}`;

export async function getBlogBySlug(slug: string): Promise<StoredBlog | null> {
  const entry = (await dataStore('blogs').get(slugKey(slug), { type: 'json' })) as { id: string } | null;
  if (!entry) return null;
  const blog = await getBlogRecord(entry.id);
  return blog?.slug === slug ? blog : null;
}

/** The published post that used to live at `slug` (an old address that now redirects), or null. */
export async function findMovedBlog(slug: string): Promise<StoredBlog | null> {
  const entry = (await dataStore('blogs').get(slugKey(slug), { type: 'json' })) as { id: string } | null;
  if (!entry || typeof entry.id !== 'string') return null;
  const blog = await getBlogRecord(entry.id);
  return blog?.isPublished && blog.slug !== slug && blog.previousSlugs.includes(slug) ? blog : null;
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

/** The public summary: the schema keeps exactly the public fields. */
export function toSummary(blog: StoredBlog, views: number): PublicBlogSummary {
  return v.parse(PublicBlogSummarySchema, { ...blog, readTime: blog.readTime || 5, views });
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

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Published posts, newest first, filtered by every word of `search`, one page at a time (docs/routes.md, Blog). */
export async function listPublished({
  page,
  limit,
  search,
}: {
  page: number;
  limit: number;
  search?: string;
}): Promise<BlogListAnswer> {
  const words = fold(search ?? '')
    .split(/\s+/)
    .filter(Boolean);
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
