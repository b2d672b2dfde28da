import type { ReactNode } from 'react';
import { CalendarDays, Eye, EyeOff, Pencil, Send, Trash2, UserRound } from 'lucide-react';
import type { AdminBlog } from '../../schemas/blog';
import { formatLongDate } from '../../lib/dates';
import Thumbnail from './Thumbnail';

/**
 * The schedule publishes due posts every minute; a post still unpublished two minutes after its time missed
 * it (the schedule did not run, or failed), and staff are offered to publish it themselves.
 */
const OVERDUE_AFTER_MS = 2 * 60_000;

export function isOverdue(blog: Pick<AdminBlog, 'isPublished' | 'publishAt'>, now: number): boolean {
  if (blog.isPublished || !blog.publishAt) return false;
  const due = Date.parse(blog.publishAt);
  return Number.isFinite(due) && now - due > OVERDUE_AFTER_MS;
}

/** One post in Manage Blogs: status, author, date, views, excerpt and its actions. */
export default function BlogCard({
  blog,
  busy,
  onEdit,
  onToggle,
  onDelete,
  now = Date.now(),
}: {
  blog: AdminBlog;
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
  now?: number;
}) {
  const titleId = `blog-${blog._id}-title`;
  const overdue = isOverdue(blog, now);
  return (
    <article className="blog-admin-card" aria-labelledby={titleId}>
      {blog.featuredImage && (
        <Thumbnail className="blog-admin-card__image" src={blog.featuredImage} width={480} height={270} />
      )}
      <div className="blog-admin-card__body">
        <div className="blog-admin-card__top">
          <h2 id={titleId} className="blog-admin-card__title">
            {blog.title}
          </h2>
          {blog.isPublished ? (
            <span className="status-badge is-published">Published</span>
          ) : overdue && blog.publishAt ? (
            <span className="status-badge is-overdue">
              Overdue: due{' '}
              <time dateTime={blog.publishAt}>
                {new Date(blog.publishAt).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' })}
              </time>
            </span>
          ) : blog.publishAt ? (
            <span className="status-badge is-scheduled">
              Scheduled{' '}
              <time dateTime={blog.publishAt}>
                {new Date(blog.publishAt).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' })}
              </time>
            </span>
          ) : (
            <span className="status-badge is-draft">Draft</span>
          )}
        </div>
        <ul className="blog-admin-card__meta" role="list">
          <li>
            <UserRound size={15} aria-hidden="true" /> {blog.author}
          </li>
          <li>
            <CalendarDays size={15} aria-hidden="true" /> {formatLongDate(blog.createdAt)}
          </li>
          {blog.views > 0 && (
            <li>
              <Eye size={15} aria-hidden="true" /> {blog.views.toLocaleString('en-AU')}{' '}
              {blog.views === 1 ? 'view' : 'views'}
            </li>
          )}
        </ul>
        <p className="blog-admin-card__excerpt">{blog.excerpt}</p>
      </div>
      <div className="blog-admin-card__actions">
        <CardButton onClick={onEdit} busy={busy} describedBy={titleId}>
          <Pencil size={16} aria-hidden="true" /> Edit
        </CardButton>
        <CardButton onClick={onToggle} busy={busy} describedBy={titleId}>
          {blog.isPublished ? <EyeOff size={16} aria-hidden="true" /> : <Send size={16} aria-hidden="true" />}{' '}
          {blog.isPublished ? 'Unpublish' : overdue ? 'Publish now' : 'Publish'}
        </CardButton>
        <CardButton onClick={onDelete} busy={busy} describedBy={titleId} danger>
          <Trash2 size={16} aria-hidden="true" /> Delete
        </CardButton>
        {blog.isPublished && (
          <a className="blog-admin-card__view" href={`/blog/${blog.slug}`} target="_blank" rel="noopener">
            View<span className="visually-hidden"> {blog.title} (opens in a new tab)</span>
          </a>
        )}
      </div>
    </article>
  );
}

/** An action on a post's card, described by the post's title and off while the card is busy. */
function CardButton({
  onClick,
  busy,
  describedBy,
  danger,
  children,
}: {
  onClick: () => void;
  busy: boolean;
  describedBy: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`admin-btn admin-btn--ghost${danger ? ' is-danger' : ''}`}
      onClick={onClick}
      disabled={busy}
      aria-describedby={describedBy}
    >
      {children}
    </button>
  );
}
