import { lazy, Suspense, useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Plus } from 'lucide-react';
import type { AdminBlog } from '../schemas/blog';
import { api, failureText } from './api';
import ConfirmDialog from './blog/ConfirmDialog';
import BlogCard from './blog/BlogCard';
import { listAutosaves } from './blog/autosave';
import './blog/blog-admin.css';
import { Loading } from './Loading';

// The editor (tiptap, Markdown, upload) loads when it is first needed, and in the background once the list is shown.
const loadForm = () => import('./blog/BlogFormDialog');
const BlogFormDialog = lazy(loadForm);

const QUERY_KEY = ['admin-blogs'];

/** Manage Blogs (docs/texts.md): cards with status, author, date, views and excerpt; create, edit, publish, delete. */
export default function BlogsPage() {
  const queryClient = useQueryClient();
  const { data, isPending, isError } = useQuery({
    queryKey: QUERY_KEY,
    queryFn: async () => {
      try {
        return (await api<{ blogs: AdminBlog[] }>('/blogs/admin/all')).blogs;
      } catch (cause) {
        console.error('The blog list could not be loaded', cause); // only logged; the page shows the error state
        throw cause;
      }
    },
  });
  const [editing, setEditing] = useState<AdminBlog | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<AdminBlog | null>(null);
  // Forms kept in this browser by an editor that was closed without saving (a crash or a reload).
  const [kept, setKept] = useState(() => listAutosaves());

  useEffect(() => {
    if (!data) return;
    const warm = setTimeout(() => void loadForm(), 1000);
    return () => clearTimeout(warm);
  }, [data]);

  const reload = () => queryClient.invalidateQueries({ queryKey: QUERY_KEY });

  const toggle = useMutation({
    // Publish/Unpublish saves the whole blog with the flag turned over.
    mutationFn: (blog: AdminBlog) =>
      api<{ blog: AdminBlog }>(`/blogs/${blog._id}`, {
        method: 'PUT',
        body: { ...blog, isPublished: !blog.isPublished },
      }),
    onSuccess: ({ blog }) => {
      toast.success(blog.isPublished ? 'Blog published' : 'Blog unpublished');
      void reload();
    },
    onError: (cause) => {
      toast.error(`Error updating blog: ${failureText(cause, 'Something went wrong. Please try again.')}`);
      void reload();
    },
  });

  const remove = useMutation({
    mutationFn: (blog: AdminBlog) => api(`/blogs/${blog._id}`, { method: 'DELETE' }),
    onSuccess: () => {
      toast.success('Blog deleted');
      void reload();
    },
    onError: (cause) => {
      console.error('The blog could not be deleted', cause); // the reloaded list shows the post is still there
      toast.error('The blog could not be deleted. Please try again.');
      void reload();
    },
  });

  function openForm(blog: AdminBlog | null) {
    setEditing(blog);
    setFormOpen(true);
  }

  function closeForm() {
    setFormOpen(false);
    setEditing(null);
    setKept(listAutosaves());
  }

  const keptHere = kept.filter(({ postId }) => postId === null || data?.some((blog) => blog._id === postId));

  return (
    <>
      <div className="blogs-toolbar">
        <p className="admin-lead">Write, publish and update the articles on the public blog.</p>
        <button type="button" className="admin-btn admin-btn--primary" onClick={() => openForm(null)}>
          <Plus size={18} aria-hidden="true" /> New Blog Post
        </button>
      </div>

      {!formOpen && keptHere.length > 0 && (
        <div className="admin-banner blogs-kept" role="status">
          <p>Unsaved changes were kept in this browser:</p>
          <ul role="list">
            {keptHere.map(({ postId, entry }) => (
              <li key={postId ?? 'new'}>
                <button
                  type="button"
                  className="admin-btn admin-btn--ghost"
                  onClick={() => openForm(postId ? (data?.find((blog) => blog._id === postId) ?? null) : null)}
                >
                  Continue editing “{entry.title || 'Untitled new post'}”
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}

      {isPending ? (
        <Loading text="Loading blogs..." />
      ) : isError ? (
        <p className="admin-banner is-error" role="alert">
          The blog posts could not be loaded. Please reload the page.
        </p>
      ) : data.length === 0 ? (
        <p className="blogs-empty">No blog posts yet. Use “New Blog Post” to write the first one.</p>
      ) : (
        <ul className="blog-admin-grid" role="list" aria-label="Blog posts">
          {data.map((blog) => (
            <li key={blog._id}>
              <BlogCard
                blog={blog}
                busy={
                  (toggle.isPending && toggle.variables?._id === blog._id) ||
                  (remove.isPending && remove.variables?._id === blog._id)
                }
                onEdit={() => openForm(blog)}
                onToggle={() => toggle.mutate(blog)}
                onDelete={() => setDeleting(blog)}
              />
            </li>
          ))}
        </ul>
      )}

      {formOpen && (
        <Suspense fallback={<Loading text="Loading editor..." />}>
          <BlogFormDialog
            key={editing?._id ?? 'new'}
            blog={editing}
            onClose={closeForm}
            onSaved={() => {
              closeForm();
              void reload();
            }}
          />
        </Suspense>
      )}

      <ConfirmDialog
        open={deleting !== null}
        message="Are you sure you want to delete this blog?"
        confirmLabel="Delete"
        danger
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
