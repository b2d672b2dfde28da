import { diff, recordActivity, type Actor } from './activity.ts';
import type { StoredBlog } from './blog-records.ts';

/** The fields of a post a person writes or sets, as the activity log compares them. */
function written(blog: StoredBlog | null) {
  if (!blog) return {};
  const { _id, previousSlugs, html, views, readTime, publishedAt, ...fields } = blog;
  return fields;
}

/** Logs a save of a post (best effort, after the save): what changed between `before` and `after`. */
export function logPost(actor: Actor, action: string, before: StoredBlog | null, after: StoredBlog | null) {
  const blog = after ?? before;
  if (!blog) return Promise.resolve(null);
  return recordActivity({
    actor,
    kind: 'post',
    action,
    target: { id: blog._id, label: blog.title || blog.slug },
    changes: diff(written(before), written(after)),
  });
}

/** The action a save of a post amounts to: publishing or unpublishing it says so, anything else is an update. */
export function postAction(before: StoredBlog, after: StoredBlog): string {
  if (!before.isPublished && after.isPublished) return 'published';
  if (before.isPublished && !after.isPublished) return 'unpublished';
  return 'updated';
}
