import { randomUUID } from 'node:crypto';
import { purgeTags } from './cdn.ts';
import { RefusedInput } from './http.ts';
import { renderContent, sanitizeHtml } from './sanitize.ts';
import * as v from 'valibot';
import { db, json, sql, type Queryable } from '../platform/database.ts';
import {
  POST_COLUMNS,
  fromRow,
  getBlogRecord,
  readRevisions,
  searchTextOf,
  type PostRow,
  type StoredBlog,
} from './blog-records.ts';
import { deleteImage, imageIdsIn } from './uploads.ts';
import { unusedUploadIds } from './upload-references.ts';
import { readTimeMinutes } from '../lib/blog-content.ts';
import {
  BLOG_LIMITS,
  BlogUpdateSchema,
  slugify,
  MAX_REVISIONS,
  type BlogContent,
  type BlogInput,
  type BlogRevision,
  type BlogUpdate,
} from '../schemas/blog.ts';
import type { Actor } from './activity.ts';
import { logPost } from './blog-activity.ts';
import { SCHEDULE_ACTOR } from '../schemas/activity.ts';

/**
 * Writing the blog: posts in `blog_posts`, every address a post answers at in `blog_slugs` (its primary key
 * means two posts can never take the same address, however they race), the saved versions in `blog_revisions`.
 * Each write is one transaction; the version check of a save is the condition of its UPDATE. The view count
 * is only ever added to by the view beacon (./blog-reads.ts), never written by a save.
 */
export const CACHE_TAG = 'blog';
export const LIST_CACHE_TAG = 'blog-list';
export const postCacheTag = (slug: string) => `blog-${slug}`;
const MAX_SLUG = BLOG_LIMITS.slug;

export { slugify };

export const SLUG_TAKEN = 'This address is already used by another post. Choose another one.';

/**
 * Takes exactly `slug` for post `id`: true when the address is now this post's (or already was: a published
 * post moving back to an earlier address), false when another post has it or had it. A post saved at the same
 * moment that wants the same address waits for this transaction and then finds it taken.
 */
async function claimExact(tx: Queryable, slug: string, id: string): Promise<boolean> {
  const claimed = await tx.query(
    sql`INSERT INTO blog_slugs (slug, post_id) VALUES (${slug}, ${id})
        ON CONFLICT (slug) DO UPDATE SET post_id = EXCLUDED.post_id WHERE blog_slugs.post_id = EXCLUDED.post_id
        RETURNING slug`,
  );
  return claimed.length === 1;
}

/** Takes `base`, else the first free of `base-2`, `base-3`, ... `base-50`, else `base-{start of the id}`. */
async function claimSlug(tx: Queryable, base: string, id: string): Promise<string> {
  const candidates = Array.from({ length: 50 }, (_, i) =>
    i === 0 ? base : `${base.slice(0, MAX_SLUG - String(i + 1).length - 1).replace(/-+$/, '')}-${i + 1}`,
  );
  // A candidate free when read can be taken by a post saved at the same moment: then the next one is tried.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [free] = await tx.query<{ slug: string }>(
      sql`SELECT c.slug FROM unnest(${candidates}::text[]) WITH ORDINALITY AS c(slug, n)
          WHERE NOT EXISTS (SELECT 1 FROM blog_slugs s WHERE s.slug = c.slug AND s.post_id <> ${id})
          ORDER BY c.n LIMIT 1`,
    );
    if (!free) break;
    if (await claimExact(tx, free.slug, id)) return free.slug;
  }
  const fallback = `${base.slice(0, MAX_SLUG - 9).replace(/-+$/, '')}-${id.slice(0, 8)}`;
  if (await claimExact(tx, fallback, id)) return fallback;
  throw new RefusedInput(400, SLUG_TAKEN, 'slug');
}

/** Drops the CDN's copies of the blog pages and answers that a write changed. */
export async function purgeBlogCache(slugs: string[]): Promise<void> {
  const tags = [LIST_CACHE_TAG, ...new Set(slugs)].map((slug) => (slug === LIST_CACHE_TAG ? slug : postCacheTag(slug)));
  await purgeTags(tags);
}

/** Only the content fields of a post (a new content field must be added here, or this does not type-check). */
const contentOf = ({
  title,
  excerpt,
  content,
  contentType,
  author,
  featuredImage,
  featuredImageAlt,
  category,
  tags,
  seoKeywords,
  metaTitle,
  metaDescription,
}: BlogContent): BlogContent => ({
  title,
  excerpt,
  content,
  contentType,
  author,
  featuredImage,
  featuredImageAlt,
  category,
  tags,
  seoKeywords,
  metaTitle,
  metaDescription,
});

async function prepare(input: BlogInput) {
  const fields = contentOf(input);
  const content = input.contentType === 'html' ? await sanitizeHtml(input.content) : input.content;
  const html = await renderContent(input.content, input.contentType);
  return { ...fields, content, html, readTime: readTimeMinutes(html) };
}

/**
 * Publishing state after a save at `at`: published now when asked, or when the chosen publish time has
 * already come; otherwise a draft, scheduled when it has a publish time.
 */
function publishing(input: Pick<BlogInput, 'isPublished' | 'publishAt'>, publishedAt: string | null, at: string) {
  const due = input.publishAt !== null && input.publishAt <= at;
  const isPublished = input.isPublished || due;
  return {
    isPublished,
    publishedAt: publishedAt ?? (isPublished ? at : null),
    publishAt: isPublished ? null : input.publishAt,
  };
}

/** Keeps this save of `blog` as a revision, and only the newest MAX_REVISIONS of the post. */
async function recordRevision(tx: Queryable, blog: StoredBlog): Promise<void> {
  await tx.query(
    sql`INSERT INTO blog_revisions (post_id, version, saved_at, saved_by, content)
        VALUES (${blog._id}, ${blog.version}, ${blog.updatedAt}, ${blog.updatedBy}, ${json(contentOf(blog))}::jsonb)`,
  );
  await tx.query(
    sql`DELETE FROM blog_revisions WHERE post_id = ${blog._id} AND version NOT IN (
          SELECT version FROM blog_revisions WHERE post_id = ${blog._id} ORDER BY version DESC LIMIT ${MAX_REVISIONS})`,
  );
}

/** A written row as a post; a row the schema refuses right after the write is a fault, not a save. */
function written(row: PostRow | undefined): StoredBlog {
  const blog = row ? fromRow(row) : null;
  if (!blog) throw new Error('A saved post could not be read back');
  return blog;
}

export async function createBlog(input: BlogInput, by: string, now = new Date()): Promise<StoredBlog> {
  const id = randomUUID().replace(/-/g, '');
  const prepared = await prepare(input);
  const at = now.toISOString();
  const { isPublished, publishedAt, publishAt } = publishing(input, null, at);
  const blog = await db().transaction(async (tx) => {
    let slug: string;
    if (input.slug) {
      if (!(await claimExact(tx, input.slug, id))) throw new RefusedInput(400, SLUG_TAKEN, 'slug');
      slug = input.slug;
    } else slug = await claimSlug(tx, slugify(input.title), id);
    const [row] = await tx.query<PostRow>(
      sql`INSERT INTO blog_posts AS p (id, slug, title, excerpt, content, content_type, html, author, featured_image,
            featured_image_alt, category, tags, seo_keywords, meta_title, meta_description, is_published, published_at,
            publish_at, read_time, version, created_at, updated_at, created_by, updated_by, search_text)
          VALUES (${id}, ${slug}, ${prepared.title}, ${prepared.excerpt}, ${prepared.content}, ${prepared.contentType},
            ${prepared.html}, ${prepared.author}, ${prepared.featuredImage}, ${prepared.featuredImageAlt},
            ${prepared.category}, ${prepared.tags}::text[], ${prepared.seoKeywords}::text[], ${prepared.metaTitle},
            ${prepared.metaDescription}, ${isPublished}, ${publishedAt}, ${publishAt}, ${prepared.readTime}, 1, ${at},
            ${at}, ${by}, ${by}, ${searchTextOf(prepared)})
          RETURNING ${POST_COLUMNS}`,
    );
    const saved = written(row);
    await recordRevision(tx, saved);
    return saved;
  });
  await purgeBlogCache([blog.slug]);
  return blog;
}

export type UpdateResult =
  | { ok: true; blog: StoredBlog; previousSlug: string; before: StoredBlog }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'conflict'; current: StoredBlog };

/** Thrown inside a save's transaction when its version check failed, so the addresses it claimed are let go. */
class StaleSave extends Error {}

/**
 * Saves the whole post if it is still at the version the editor loaded; otherwise nothing changes and
 * the newer version is returned (409 for the client). Without a chosen address the slug follows the
 * title until the post has been published once, then it stays. A chosen address is taken as it is;
 * when a published post moves, its old address stays reserved and redirects to the new one.
 */
export async function updateBlog(id: string, input: BlogUpdate, by: string, now = new Date()): Promise<UpdateResult> {
  const [current, prepared] = await Promise.all([getBlogRecord(id), prepare(input)]);
  if (!current) return { ok: false, reason: 'not-found' };
  if (current.version !== input.version) return { ok: false, reason: 'conflict', current };

  const at = now.toISOString();
  // The row is still at the version read above whenever the UPDATE below lands, so what is worked out from
  // `current` (its address, when it was first published) is what the saved row had.
  const everPublished = current.publishedAt !== null;
  const { isPublished, publishedAt, publishAt } = publishing(input, current.publishedAt, at);
  let blog: StoredBlog;
  try {
    blog = await db().transaction(async (tx) => {
      let slug = current.slug;
      if (input.slug && input.slug !== current.slug) {
        if (!(await claimExact(tx, input.slug, id))) throw new RefusedInput(400, SLUG_TAKEN, 'slug');
        slug = input.slug;
      } else if (!input.slug && !everPublished && slugify(input.title) !== slugify(current.title)) {
        slug = await claimSlug(tx, slugify(input.title), id);
      }
      const moved = slug !== current.slug;
      // A published post's old address is kept (it redirects); a draft's is given up.
      const previousSlugs = [...current.previousSlugs, ...(moved && everPublished ? [current.slug] : [])].filter(
        (old) => old !== slug,
      );
      const [row] = await tx.query<PostRow>(
        sql`UPDATE blog_posts AS p SET
              slug = ${slug}, previous_slugs = ${previousSlugs}::text[], title = ${prepared.title},
              excerpt = ${prepared.excerpt}, content = ${prepared.content}, content_type = ${prepared.contentType},
              html = ${prepared.html}, author = ${prepared.author}, featured_image = ${prepared.featuredImage},
              featured_image_alt = ${prepared.featuredImageAlt}, category = ${prepared.category},
              tags = ${prepared.tags}::text[], seo_keywords = ${prepared.seoKeywords}::text[],
              meta_title = ${prepared.metaTitle}, meta_description = ${prepared.metaDescription},
              is_published = ${isPublished}, published_at = ${publishedAt}, publish_at = ${publishAt},
              read_time = ${prepared.readTime}, version = p.version + 1, updated_at = ${at}, updated_by = ${by},
              search_text = ${searchTextOf(prepared)}
            WHERE p.id = ${id} AND p.version = ${input.version}
            RETURNING ${POST_COLUMNS}`,
      );
      if (!row) throw new StaleSave();
      if (moved && !everPublished)
        await tx.query(sql`DELETE FROM blog_slugs WHERE slug = ${current.slug} AND post_id = ${id}`);
      const saved = written(row);
      await recordRevision(tx, saved);
      return saved;
    });
  } catch (cause) {
    if (!(cause instanceof StaleSave)) throw cause;
    const latest = await getBlogRecord(id);
    return latest ? { ok: false, reason: 'conflict', current: latest } : { ok: false, reason: 'not-found' };
  }
  await purgeBlogCache([current.slug, blog.slug, ...blog.previousSlugs]);
  return { ok: true, blog, previousSlug: current.slug, before: current };
}

/** The kept versions of a post, newest first (null when there is no such post). */
export async function listRevisions(id: string): Promise<BlogRevision[] | null> {
  if (!(await getBlogRecord(id))) return null;
  return readRevisions(id);
}

export type RestoreResult = UpdateResult | { ok: false; reason: 'no-revision' };

/**
 * Brings back the written fields of revision `revision` as a new save (so the restore is itself in the
 * history and can be undone). The address and publishing state stay as they are now.
 */
export async function restoreRevision(
  id: string,
  revision: number,
  version: number,
  by: string,
  now = new Date(),
): Promise<RestoreResult> {
  const current = await getBlogRecord(id);
  if (!current) return { ok: false, reason: 'not-found' };
  if (current.version !== version) return { ok: false, reason: 'conflict', current };
  const found = (await readRevisions(id)).find((entry) => entry.version === revision);
  if (!found) return { ok: false, reason: 'no-revision' };
  const parsed = v.safeParse(BlogUpdateSchema, {
    ...contentOf(found),
    slug: '',
    isPublished: current.isPublished,
    publishAt: current.publishAt,
    version,
  });
  if (!parsed.success) return { ok: false, reason: 'no-revision' };
  return updateBlog(id, parsed.output, by, now);
}

/**
 * Publishes every draft whose publish time has come (the scheduled function, and the admin's "run
 * now", by `actor`), purges the cached pages and logs each. Answers the addresses it published. The due
 * drafts are locked as they are read, so two runs at once publish each post once.
 */
export async function publishDuePosts(now = new Date(), actor: Actor = SCHEDULE_ACTOR): Promise<string[]> {
  const at = now.toISOString();
  const changes = await db().transaction(async (tx) => {
    const due = await tx.query<PostRow>(
      sql`SELECT ${POST_COLUMNS} FROM blog_posts p
          WHERE NOT p.is_published AND p.publish_at IS NOT NULL AND p.publish_at <= ${at}
          ORDER BY p.id FOR UPDATE`,
    );
    if (!due.length) return [];
    const saved = await tx.query<PostRow>(
      sql`UPDATE blog_posts AS p
          SET is_published = true, published_at = coalesce(p.published_at, p.publish_at), publish_at = NULL,
              updated_at = ${at}, version = p.version + 1
          WHERE p.id = ANY(${due.map((row) => row.id)}::text[])
          RETURNING ${POST_COLUMNS}`,
    );
    const after = new Map(saved.map((row) => [row.id, row]));
    return due.map((row) => ({ before: fromRow(row), after: after.has(row.id) ? fromRow(after.get(row.id)!) : null }));
  });
  const published: string[] = [];
  for (const { before, after } of changes) {
    if (!after) continue;
    published.push(after.slug);
    await logPost(actor, 'published', before, after);
    await purgeBlogCache([after.slug, ...after.previousSlugs]);
  }
  return published;
}

/** Deletes a post with its history and addresses; its images go too unless something else still uses them. */
export async function deleteBlog(id: string): Promise<StoredBlog | null> {
  if (!/^[a-f0-9]{32}$/.test(id)) return null;
  // Its addresses and revisions go with it (ON DELETE CASCADE).
  const [row] = await db().query<PostRow>(
    sql`DELETE FROM blog_posts AS p WHERE p.id = ${id} RETURNING ${POST_COLUMNS}`,
  );
  if (!row) return null;
  const removed = fromRow(row);
  // Its images go only if nothing else names them: other posts and every revision, catalogue edits, settings.
  const own = imageIdsIn([row.featured_image, row.content, row.html]);
  await Promise.all((await unusedUploadIds(own)).map(deleteImage));
  await purgeBlogCache([row.slug, ...row.previous_slugs]);
  return removed;
}
