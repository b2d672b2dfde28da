import { sanitizeHtml } from './sanitize.ts';
import * as v from 'valibot';
import {
  type AdminBlog,
  type BlogListAnswer,
  type PublicBlog,
  type PublicBlogSummary,
  PublicBlogSummarySchema,
} from '../schemas/blog.ts';
import { db, join, sql } from '../platform/database.ts';
import { monthKey } from './months.ts';
import {
  POST_COLUMNS,
  foldForSearch,
  fromRow,
  fromRows,
  getBlogRecord,
  listBlogRecords,
  type PostRow,
  type StoredBlog,
} from './blog-records.ts';

/**
 * Reading the blog: a post by its address (or the one that moved from it), every post, view counts, the
 * shapes the admin and the public API answer with, and the published list with its search and paging
 * (posts are written by ./blogs.ts; rows parsed by ./blog-records.ts).
 */

export async function getBlogBySlug(slug: string): Promise<StoredBlog | null> {
  const [row] = await db().query<PostRow>(sql`SELECT ${POST_COLUMNS} FROM blog_posts p WHERE p.slug = ${slug}`);
  return row ? fromRow(row) : null;
}

/** The published post that used to live at `slug` (an old address that now redirects), or null. */
export async function findMovedBlog(slug: string): Promise<StoredBlog | null> {
  const [row] = await db().query<PostRow>(
    sql`SELECT ${POST_COLUMNS} FROM blog_slugs s JOIN blog_posts p ON p.id = s.post_id
        WHERE s.slug = ${slug} AND p.is_published AND p.slug <> ${slug} AND ${slug} = ANY(p.previous_slugs)`,
  );
  return row ? fromRow(row) : null;
}

export { getBlogRecord as getBlogById };

/** Every post, drafts too, newest first (admin list). */
export const listAllBlogs = listBlogRecords;

// ---------- views ----------

export async function viewCount(id: string): Promise<number> {
  const [row] = await db().query<{ views: number }>(sql`SELECT views FROM blog_posts WHERE id = ${id}`);
  return row?.views ?? 0;
}

/**
 * Counts one view of a published post, and one for the month's total of the dashboard; null (nothing counted)
 * if no published post has this address. One statement: parallel beacons each add their one, and a view is
 * never counted for the month without its post.
 */
export async function countView(slug: string, at = new Date()): Promise<number | null> {
  const [row] = await db().query<{ views: number }>(
    sql`WITH post AS (
          UPDATE blog_posts SET views = views + 1 WHERE slug = ${slug} AND is_published RETURNING views
        ), month AS (
          INSERT INTO monthly_views (month, count) SELECT ${monthKey(at)}, 1 FROM post
          ON CONFLICT (month) DO UPDATE SET count = monthly_views.count + 1
        )
        SELECT views FROM post`,
  );
  return row ? row.views : null;
}

// ---------- shapes ----------

export function toAdmin(blog: StoredBlog, views: number = blog.views): AdminBlog {
  const { html: _html, createdBy: _createdBy, ...rest } = blog;
  return { ...rest, views };
}

/** The public summary: the schema keeps exactly the public fields. */
export function toSummary(blog: StoredBlog, views: number = blog.views): PublicBlogSummary {
  return v.parse(PublicBlogSummarySchema, { ...blog, readTime: blog.readTime || 5, views });
}

/** The public post, its content sanitised again as it is served. */
export async function toPublic(blog: StoredBlog): Promise<PublicBlog> {
  return { ...toSummary(blog), content: await sanitizeHtml(blog.html) };
}

export async function adminList(): Promise<AdminBlog[]> {
  return (await listAllBlogs()).map((blog) => toAdmin(blog));
}

/** A word as a LIKE pattern that matches it anywhere (its own %, _ and \ taken literally). */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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
  const words = foldForSearch(search ?? '')
    .split(/\s+/)
    .filter(Boolean);
  // Each word must appear in the folded title, excerpt, author, category and tags (the search_text column).
  const where = join(
    [sql`p.is_published`, ...words.map((word) => sql`p.search_text LIKE ${containing(word)}`)],
    ' AND ',
  );
  const [{ total }] = await db().query<{ total: number }>(
    sql`SELECT count(*)::int AS total FROM blog_posts p WHERE ${where}`,
  );
  const totalPages = Math.ceil(total / limit);
  const currentPage = Math.min(Math.max(1, page), Math.max(1, totalPages));
  const rows = total
    ? await db().query<PostRow>(
        sql`SELECT ${POST_COLUMNS} FROM blog_posts p WHERE ${where}
            ORDER BY coalesce(p.published_at, p.created_at) DESC, p.id
            LIMIT ${limit} OFFSET ${(currentPage - 1) * limit}`,
      )
    : [];
  return { blogs: fromRows(rows).map((blog) => toSummary(blog)), totalPages, currentPage, total };
}

/** The dashboard's blog figures: posts, published ones, those published before `since`, and the newest five. */
export async function blogFigures(since: Date) {
  const [[counts], newest] = await Promise.all([
    db().query<{ total: number; published: number; published_before: number }>(
      sql`SELECT count(*)::int AS total,
                 count(*) FILTER (WHERE is_published)::int AS published,
                 count(*) FILTER (WHERE is_published AND coalesce(published_at, created_at) < ${since.toISOString()})::int
                   AS published_before
          FROM blog_posts`,
    ),
    db().query<PostRow>(sql`SELECT ${POST_COLUMNS} FROM blog_posts p ORDER BY p.created_at DESC, p.id LIMIT 5`),
  ]);
  return {
    total: counts?.total ?? 0,
    published: counts?.published ?? 0,
    publishedBefore: counts?.published_before ?? 0,
    newest: fromRows(newest),
  };
}
