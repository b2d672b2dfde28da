import { randomUUID } from 'node:crypto';
import { purgeTags } from './cdn.ts';
import { RefusedInput } from './http.ts';
import { dataStore, updateJSON } from './blobs.ts';
import { renderContent, sanitizeHtml } from './sanitize.ts';
import * as v from 'valibot';
import {
  getBlogRecord,
  listBlogRecords,
  parseBlogRecord,
  postKey,
  readRevisions,
  revisionsKey,
  slugKey,
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
import { counters, viewCount, viewsKey } from './blog-reads.ts';
import type { Actor } from './activity.ts';
import { logPost } from './blog-activity.ts';
import { SCHEDULE_ACTOR } from '../schemas/activity.ts';

/**
 * The blog store: posts under `post/{id}`, the slug index under `slug/{slug}` (written with onlyIfNew,
 * so two posts can never take the same address), live view counts in the counters store.
 */
export const blogs = () => dataStore('blogs');

export const CACHE_TAG = 'blog';
export const LIST_CACHE_TAG = 'blog-list';
export const postCacheTag = (slug: string) => `blog-${slug}`;
const MAX_SLUG = BLOG_LIMITS.slug;

export { slugify };

/**
 * Takes `base`, else `base-2`, `base-3`, ... for post `id`. The index entry is only ever created when
 * missing (onlyIfNew through updateJSON, which also queues writers of one key inside this process), so
 * two posts saved at the same moment cannot end up with the same address.
 */
/** Takes exactly `slug` for post `id`; false when another post has it (or had it, as an old address). */
async function claimExact(slug: string, id: string): Promise<boolean> {
  const owner = await updateJSON<{ id: string }>(blogs(), slugKey(slug), (current) => (current ? undefined : { id }));
  return owner?.id === id;
}

async function claimSlug(base: string, id: string): Promise<string> {
  for (let n = 1; n <= 50; n++) {
    const candidate = n === 1 ? base : `${base.slice(0, MAX_SLUG - String(n).length - 1).replace(/-+$/, '')}-${n}`;
    if (await claimExact(candidate, id)) return candidate;
  }
  const fallback = `${base.slice(0, MAX_SLUG - 9).replace(/-+$/, '')}-${id.slice(0, 8)}`;
  await blogs().setJSON(slugKey(fallback), { id });
  return fallback;
}

async function releaseSlug(slug: string, id: string): Promise<void> {
  const owner = (await blogs().get(slugKey(slug), { type: 'json' })) as { id: string } | null;
  if (owner?.id === id) await blogs().delete(slugKey(slug));
}

export const SLUG_TAKEN = 'This address is already used by another post. Choose another one.';

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

/** Keeps this save as a revision: the newest MAX_REVISIONS, newest first. */
async function recordRevision(blog: StoredBlog): Promise<void> {
  const revision: BlogRevision = {
    version: blog.version,
    savedAt: blog.updatedAt,
    savedBy: blog.updatedBy,
    ...contentOf(blog),
  };
  // A new post starts its history (no read needed: nothing can be there yet).
  if (
    blog.version === 1 &&
    (await blogs().setJSON(revisionsKey(blog._id), { revisions: [revision] }, { onlyIfNew: true })).modified
  )
    return;
  await updateJSON<{ revisions: BlogRevision[] }>(blogs(), revisionsKey(blog._id), (current) => {
    const kept = (Array.isArray(current?.revisions) ? current.revisions : []).filter(
      (entry) => entry?.version !== revision.version,
    );
    return { revisions: [revision, ...kept].slice(0, MAX_REVISIONS) };
  });
}

export async function createBlog(input: BlogInput, by: string, now = new Date()): Promise<StoredBlog> {
  const id = randomUUID().replace(/-/g, '');
  const prepared = await prepare(input);
  let slug: string;
  if (input.slug) {
    if (!(await claimExact(input.slug, id))) throw new RefusedInput(400, SLUG_TAKEN, 'slug');
    slug = input.slug;
  } else slug = await claimSlug(slugify(input.title), id);
  const at = now.toISOString();
  const record: StoredBlog = {
    _id: id,
    slug,
    previousSlugs: [],
    ...prepared,
    ...publishing(input, null, at),
    createdAt: at,
    updatedAt: at,
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
  await Promise.all([recordRevision(record), purgeBlogCache([slug])]);
  return record;
}

export type UpdateResult =
  | { ok: true; blog: StoredBlog; previousSlug: string; before: StoredBlog }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'conflict'; current: StoredBlog };

/**
 * Saves the whole post if it is still at the version the editor loaded; otherwise nothing changes and
 * the newer version is returned (409 for the client). Without a chosen address the slug follows the
 * title until the post has been published once, then it stays. A chosen address is taken as it is;
 * when a published post moves, its old address stays reserved and redirects to the new one.
 */
export async function updateBlog(id: string, input: BlogUpdate, by: string, now = new Date()): Promise<UpdateResult> {
  const [current, prepared, views] = await Promise.all([getBlogRecord(id), prepare(input), viewCount(id)]);
  if (!current) return { ok: false, reason: 'not-found' };
  if (current.version !== input.version) return { ok: false, reason: 'conflict', current };

  const everPublished = current.publishedAt !== null;
  let slug = current.slug;
  if (input.slug && input.slug !== current.slug) {
    if (!(await claimExact(input.slug, id))) throw new RefusedInput(400, SLUG_TAKEN, 'slug');
    slug = input.slug;
  } else if (!input.slug && !everPublished && slugify(input.title) !== slugify(current.title)) {
    slug = await claimSlug(slugify(input.title), id);
  }

  let outcome: UpdateResult | undefined;
  let before = current;
  const saved = await updateJSON<StoredBlog>(blogs(), postKey(id), (raw) => {
    const latest = parseBlogRecord(postKey(id), raw);
    if (latest) before = latest;
    if (!latest) {
      outcome = { ok: false, reason: 'not-found' };
      return undefined;
    }
    if (latest.version !== input.version) {
      outcome = { ok: false, reason: 'conflict', current: latest };
      return undefined;
    }
    const at = now.toISOString();
    const moved = slug !== latest.slug;
    // A published post's old address is kept (it redirects); a draft's is given up.
    const previousSlugs = [
      ...latest.previousSlugs,
      ...(moved && latest.publishedAt !== null ? [latest.slug] : []),
    ].filter((old) => old !== slug);
    return {
      ...latest,
      ...prepared,
      slug,
      previousSlugs,
      ...publishing(input, latest.publishedAt, at),
      views,
      updatedAt: at,
      updatedBy: by,
      version: latest.version + 1,
    };
  });
  if (outcome || !saved) {
    if (slug !== current.slug) await releaseSlug(slug, id);
    return outcome ?? { ok: false, reason: 'not-found' };
  }
  const blog = saved;
  if (blog.slug !== current.slug && !blog.previousSlugs.includes(current.slug)) await releaseSlug(current.slug, id);
  await Promise.all([recordRevision(blog), purgeBlogCache([current.slug, blog.slug, ...blog.previousSlugs])]);
  return { ok: true, blog, previousSlug: current.slug, before };
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
 * now", by `actor`), purges the cached pages and logs each. Answers the addresses it published.
 */
export async function publishDuePosts(now = new Date(), actor: Actor = SCHEDULE_ACTOR): Promise<string[]> {
  const at = now.toISOString();
  const due = (await listBlogRecords()).filter(
    (blog) => !blog.isPublished && blog.publishAt !== null && blog.publishAt <= at,
  );
  const published: string[] = [];
  for (const blog of due) {
    let changed = false;
    const saved = await updateJSON<StoredBlog>(blogs(), postKey(blog._id), (raw) => {
      const latest = parseBlogRecord(postKey(blog._id), raw);
      // Unpublished, rescheduled or deleted since the list was read: leave it.
      if (!latest || latest.isPublished || latest.publishAt === null || latest.publishAt > at) return undefined;
      changed = true;
      return {
        ...latest,
        isPublished: true,
        publishedAt: latest.publishedAt ?? latest.publishAt,
        publishAt: null,
        updatedAt: at,
        version: latest.version + 1,
      };
    });
    if (changed && saved) {
      published.push(saved.slug);
      await logPost(actor, 'published', blog, saved);
      await purgeBlogCache([saved.slug, ...saved.previousSlugs]);
    }
  }
  return published;
}

/** Deletes a post with its history and addresses; its images go too unless something else still uses them. */
export async function deleteBlog(id: string): Promise<StoredBlog | null> {
  const current = await getBlogRecord(id);
  if (!current) return null;
  await blogs().delete(postKey(id));
  await Promise.all([
    ...[current.slug, ...current.previousSlugs].map((slug) => releaseSlug(slug, id)),
    counters().delete(viewsKey(id)),
    blogs().delete(revisionsKey(id)),
  ]);
  // Its images go only if nothing else names them: other posts and every revision, catalogue edits, settings.
  const own = imageIdsIn([current.featuredImage, current.content, current.html]);
  await Promise.all((await unusedUploadIds(own)).map(deleteImage));
  await purgeBlogCache([current.slug, ...current.previousSlugs]);
  return current;
}
