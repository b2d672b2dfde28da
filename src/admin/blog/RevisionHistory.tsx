import { useEffect, useMemo, useState } from 'react';
import * as v from 'valibot';
import { History, RotateCcw } from 'lucide-react';
import {
  AdminBlogSchema,
  BlogRevisionsSchema,
  MAX_REVISIONS,
  type AdminBlog,
  type BlogRevision,
} from '../../schemas/blog';
import { api, ApiError, failureText } from '../api';
import ConfirmDialog from './ConfirmDialog';
import { markdownPreview, sanitizeInBrowser } from './MarkdownEditor';
import { Loading } from '../Loading';

const when = (iso: string) => new Date(iso).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The kept versions of a post (the last MAX_REVISIONS saves), newest first: each can be read and
 * restored. A restore is saved as a new version, so it shows up here too and can itself be undone.
 */
export default function RevisionHistory({
  blog,
  version,
  dirty,
  onRestored,
  onConflict,
}: {
  blog: AdminBlog;
  version: number;
  dirty: boolean;
  onRestored: (blog: AdminBlog, revision: number) => void;
  onConflict: (message: string, current: AdminBlog | null) => void;
}) {
  const [revisions, setRevisions] = useState<BlogRevision[] | null>(null);
  const [problem, setProblem] = useState('');
  const [viewing, setViewing] = useState<number | null>(null);
  const [restoring, setRestoring] = useState<BlogRevision | null>(null);
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is not read here, but each new saved version must reload the list
  useEffect(() => {
    let live = true;
    api<unknown>(`/blogs/admin/${blog._id}/revisions`)
      .then((answer) => {
        const parsed = v.safeParse(BlogRevisionsSchema, answer);
        if (!live) return;
        if (parsed.success) setRevisions(parsed.output.revisions);
        else setProblem('The history of this post could not be read.');
      })
      .catch((cause: unknown) => {
        console.error('The revisions could not be loaded', cause);
        if (live) setProblem('The history of this post could not be loaded. Please try again.');
      });
    return () => {
      live = false;
    };
  }, [blog._id, version]);

  async function restore(revision: BlogRevision) {
    setRestoring(null);
    setBusy(true);
    try {
      const answer = await api<{ blog: unknown }>(`/blogs/admin/${blog._id}/revisions`, {
        method: 'POST',
        body: { revision: revision.version, version },
      });
      onRestored(v.parse(AdminBlogSchema, answer.blog), revision.version);
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409) {
        const current = v.safeParse(AdminBlogSchema, (cause.body as { current?: unknown } | undefined)?.current);
        onConflict(cause.message, current.success ? current.output : null);
      } else
        setProblem(
          `The version could not be restored: ${failureText(cause, 'Something went wrong. Please try again.')}`,
        );
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="revisions" aria-labelledby="revisions-title">
      <h3 id="revisions-title" className="revisions__title">
        <History size={18} aria-hidden="true" /> History
      </h3>
      <p className="admin-hint">
        The last {MAX_REVISIONS} saved versions of this post. Restoring one saves its text as a new version; the address
        and publishing stay as they are.
      </p>
      {problem && (
        <p className="admin-error" role="alert">
          {problem}
        </p>
      )}
      {revisions === null && !problem ? (
        <Loading text="Loading history..." />
      ) : (
        <ol className="revisions__list" role="list">
          {revisions?.map((revision) => (
            <li key={revision.version} className="revisions__item">
              <div className="revisions__line">
                <span className="revisions__meta">
                  <strong>Version {revision.version}</strong>
                  {revision.version === version && <span className="status-badge is-published">Current</span>}
                  <span>
                    {when(revision.savedAt)} by {revision.savedBy || 'unknown'}
                  </span>
                  <span className="revisions__heading">{revision.title}</span>
                </span>
                <span className="revisions__actions">
                  <button
                    type="button"
                    className="admin-btn admin-btn--ghost"
                    aria-expanded={viewing === revision.version}
                    onClick={() => setViewing(viewing === revision.version ? null : revision.version)}
                  >
                    {viewing === revision.version ? 'Hide' : 'View'}
                    <span className="visually-hidden"> version {revision.version}</span>
                  </button>
                  {revision.version !== version && (
                    <button
                      type="button"
                      className="admin-btn admin-btn--ghost"
                      disabled={busy}
                      onClick={() => setRestoring(revision)}
                    >
                      <RotateCcw size={16} aria-hidden="true" /> Restore
                      <span className="visually-hidden"> version {revision.version}</span>
                    </button>
                  )}
                </span>
              </div>
              {viewing === revision.version && <RevisionPreview revision={revision} />}
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={restoring !== null}
        message={`Restore version ${restoring?.version ?? ''}?${dirty ? ' Your unsaved changes in this form will be replaced.' : ''}`}
        confirmLabel="Restore"
        onConfirm={() => restoring && void restore(restoring)}
        onCancel={() => setRestoring(null)}
      />
    </section>
  );
}

function RevisionPreview({ revision }: { revision: BlogRevision }) {
  // The same allow-list the public page uses, applied in the browser.
  const html = useMemo(
    () =>
      revision.contentType === 'markdown' ? markdownPreview(revision.content) : sanitizeInBrowser(revision.content),
    [revision],
  );
  return (
    <div className="revisions__preview">
      <p className="revisions__excerpt">{revision.excerpt}</p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: both branches above run the HTML through DOMPurify with the blog allow-list */}
      <div className="post-preview" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
