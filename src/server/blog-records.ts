import * as v from 'valibot';
import { db, iso, isoOf, raw, sql, type Queryable } from '../platform/database.ts';
import { BlogRevisionSchema, StoredBlogSchema, type BlogRevision, type StoredBlog } from '../schemas/blog.ts';

/**
 * Blog posts as rows of `blog_posts` (a column per field); src/server/blogs.ts writes them. `blog_slugs` holds
 * every address a post answers at (its current one and, once published, its earlier ones: the primary key makes
 * two posts sharing an address impossible) and `blog_revisions` its saved versions. Every row read is parsed
 * with its schema: one that does not match is reported and left out, so one broken row never takes the blog down.
 */
export type { StoredBlog };

const ID = /^[a-f0-9]{32}$/;

/** The columns of a post, read from `blog_posts` named `p`. */
export const POST_COLUMNS = raw(
  `p.id, p.slug, p.previous_slugs, p.title, p.excerpt, p.content, p.content_type, p.html, p.author,
   p.featured_image, p.featured_image_alt, p.category, p.tags, p.seo_keywords, p.meta_title, p.meta_description,
   p.is_published, p.published_at, p.publish_at, p.read_time, p.views, p.version, p.created_at, p.updated_at,
   p.created_by, p.updated_by`,
);

export interface PostRow {
  id: string;
  slug: string;
  previous_slugs: string[];
  title: string;
  excerpt: string;
  content: string;
  content_type: string;
  html: string;
  author: string;
  featured_image: string;
  featured_image_alt: string;
  category: string;
  tags: string[];
  seo_keywords: string[];
  meta_title: string;
  meta_description: string;
  is_published: boolean;
  published_at: Date | null;
  publish_at: Date | null;
  read_time: number;
  views: number;
  version: number;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  updated_by: string;
}

/** A row as a post, or null (with a log line naming the post and the first problem) when it does not parse. */
export function fromRow(row: PostRow): StoredBlog | null {
  const result = v.safeParse(StoredBlogSchema, {
    _id: row.id,
    slug: row.slug,
    previousSlugs: row.previous_slugs,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    contentType: row.content_type,
    html: row.html,
    author: row.author,
    featuredImage: row.featured_image,
    featuredImageAlt: row.featured_image_alt,
    category: row.category,
    tags: row.tags,
    seoKeywords: row.seo_keywords,
    metaTitle: row.meta_title,
    metaDescription: row.meta_description,
    isPublished: row.is_published,
    publishedAt: iso(row.published_at),
    publishAt: iso(row.publish_at),
    readTime: row.read_time,
    views: row.views,
    version: row.version,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
    createdBy: row.created_by,
    updatedBy: row.updated_by,
  });
  if (result.success) return result.output;
  const issue = result.issues[0];
  console.error(`[blogs] skipped the broken post ${row.id}: ${v.getDotPath(issue) ?? 'record'}: ${issue.message}`);
  return null;
}

export const fromRows = (rows: PostRow[]): StoredBlog[] =>
  rows.map(fromRow).filter((record): record is StoredBlog => record !== null);

/** Every post, drafts too, newest first. */
export async function listBlogRecords(): Promise<StoredBlog[]> {
  return fromRows(
    await db().query<PostRow>(sql`SELECT ${POST_COLUMNS} FROM blog_posts p ORDER BY p.created_at DESC, p.id`),
  );
}

export async function getBlogRecord(id: string, from: Queryable = db()): Promise<StoredBlog | null> {
  if (!ID.test(id)) return null;
  const [row] = await from.query<PostRow>(sql`SELECT ${POST_COLUMNS} FROM blog_posts p WHERE p.id = ${id}`);
  return row ? fromRow(row) : null;
}

/** The kept versions of a post, newest first; a broken one is left out. */
export async function readRevisions(id: string): Promise<BlogRevision[]> {
  if (!ID.test(id)) return [];
  const rows = await db().query<{ version: number; saved_at: Date; saved_by: string; content: object }>(
    sql`SELECT version, saved_at, saved_by, content FROM blog_revisions WHERE post_id = ${id} ORDER BY version DESC`,
  );
  return rows.flatMap((row) => {
    const result = v.safeParse(BlogRevisionSchema, {
      ...row.content,
      version: row.version,
      savedAt: isoOf(row.saved_at),
      savedBy: row.saved_by,
    });
    if (!result.success) console.error(`[blogs] ignored the broken revision ${row.version} of ${id}`);
    return result.success ? [result.output] : [];
  });
}

/** Text as the public search compares it: lower case, accents removed ("Évaluation" -> "evaluation"). */
export const foldForSearch = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** What the public search looks in, folded (the `search_text` column, written with every save). */
export const searchTextOf = (blog: Pick<StoredBlog, 'title' | 'excerpt' | 'author' | 'category' | 'tags'>) =>
  foldForSearch([blog.title, blog.excerpt, blog.author, blog.category, ...blog.tags].join(' '));
