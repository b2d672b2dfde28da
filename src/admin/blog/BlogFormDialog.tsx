import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { X } from 'lucide-react';
import { toast } from 'sonner';
import { DEFAULT_AUTHOR, DEFAULT_CATEGORY, MAX_KEYWORDS, MAX_TAGS, hasVisibleContent, type AdminBlog, type ContentType } from '../../schemas/blog';
import { api, ApiError } from '../api';
import ChipsInput from './ChipsInput';
import ConfirmDialog from './ConfirmDialog';
import ImageUpload from './ImageUpload';
import MarkdownEditor, { markdownPreview } from './MarkdownEditor';
import RichTextEditor from './RichTextEditor';
import './blog-admin.css';

export interface BlogForm {
  title: string;
  excerpt: string;
  content: string;
  contentType: ContentType;
  author: string;
  featuredImage: string;
  featuredImageAlt: string;
  category: string;
  tags: string[];
  seoKeywords: string[];
  metaTitle: string;
  metaDescription: string;
  isPublished: boolean;
}

export const EMPTY_FORM: BlogForm = {
  title: '',
  excerpt: '',
  content: '',
  contentType: 'html',
  author: DEFAULT_AUTHOR,
  featuredImage: '',
  featuredImageAlt: '',
  category: DEFAULT_CATEGORY,
  tags: [],
  seoKeywords: [],
  metaTitle: '',
  metaDescription: '',
  isPublished: false,
};

export function formFromBlog(blog: AdminBlog): BlogForm {
  const { title, excerpt, content, contentType, author, featuredImage, featuredImageAlt, category, tags, seoKeywords, metaTitle, metaDescription, isPublished } = blog;
  return { title, excerpt, content, contentType, author, featuredImage, featuredImageAlt, category, tags: [...tags], seoKeywords: [...seoKeywords], metaTitle, metaDescription, isPublished };
}

const same = (a: BlogForm, b: BlogForm) => JSON.stringify(a) === JSON.stringify(b);
type SaveAnswer = { success: boolean; message: string; blog: AdminBlog };

/** SPEC 2.15: the 'Create New Blog Post' / 'Edit Blog Post' modal with every field of the post. */
export default function BlogFormDialog({ blog, onClose, onSaved }: { blog: AdminBlog | null; onClose: () => void; onSaved: (blog: AdminBlog) => void }) {
  const initial = useRef(blog ? formFromBlog(blog) : EMPTY_FORM);
  const [form, setForm] = useState<BlogForm>(initial.current);
  const [version, setVersion] = useState(blog?.version ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState('');
  const [conflict, setConflict] = useState<AdminBlog | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const dirty = !same(form, initial.current);
  const editing = blog !== null;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  // SPEC: unsaved changes are not lost by leaving the page either.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  function set<K extends keyof BlogForm>(key: K, value: BlogForm[K]) {
    setForm((current) => ({ ...current, [key]: value }));
    if (errors[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  }

  function requestClose() {
    if (saving) return;
    if (dirty) setConfirmClose(true);
    else onClose();
  }

  function switchContentType(next: ContentType) {
    if (next === form.contentType) return;
    // Markdown becomes HTML for the editor; HTML is valid Markdown and is kept as it is.
    const content = next === 'html' && form.content.trim() ? markdownPreview(form.content) : form.content;
    setForm((current) => ({ ...current, contentType: next, content }));
  }

  function validate(): Record<string, string> {
    const found: Record<string, string> = {};
    if (!form.title.trim()) found.title = 'Title is required';
    if (!form.excerpt.trim()) found.excerpt = 'Excerpt is required';
    if (!hasVisibleContent(form.content)) found.content = 'Content is required';
    return found;
  }

  async function save(atVersion: number) {
    setAlert('');
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) {
      setAlert('Please fill in the required fields.');
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const answer = editing
        ? await api<SaveAnswer>(`/blogs/${blog._id}`, { method: 'PUT', body: { ...form, version: atVersion } })
        : await api<SaveAnswer>('/blogs', { method: 'POST', body: form });
      toast.success(editing ? 'Blog updated successfully' : 'Blog created successfully');
      onSaved(answer.blog);
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409) {
        // Someone saved a newer version: keep everything typed here, say so, offer to save over it.
        const latest = await api<{ blogs: AdminBlog[] }>('/blogs/admin/all').catch(() => null);
        setConflict(latest?.blogs.find((candidate) => candidate._id === blog?._id) ?? null);
        setAlert(`Error saving blog: ${cause.message}`);
      } else if (cause instanceof ApiError) {
        if (cause.errors.length) setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
        setAlert(`Error saving blog: ${cause.errors.length ? JSON.stringify(cause.errors) : cause.message || 'Something went wrong. Please try again.'}`);
      } else {
        setAlert('Error saving blog: Something went wrong. Please try again.');
      }
      toast.error('The blog was not saved');
    } finally {
      setSaving(false);
    }
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void save(version);
  }

  function overwrite() {
    if (!conflict) return;
    setVersion(conflict.version);
    setConflict(null);
    void save(conflict.version);
  }

  const fieldId = (name: string) => `${id}-${name}`;
  const errorId = (name: string) => (errors[name] ? `${id}-${name}-error` : undefined);
  const FieldError = ({ name }: { name: string }) => (errors[name] ? <p id={`${id}-${name}-error`} className="admin-error">{errors[name]}</p> : null);
  const title = editing ? 'Edit Blog Post' : 'Create New Blog Post';

  return (
    <dialog
      ref={dialog}
      className="blog-modal"
      aria-labelledby={`${id}-heading`}
      onCancel={(event) => {
        event.preventDefault();
        requestClose();
      }}
    >
      <form className="blog-form" onSubmit={onSubmit} noValidate aria-busy={saving}>
        <header className="blog-form__head">
          <h2 id={`${id}-heading`}>{title}</h2>
          <button type="button" className="blog-form__close" onClick={requestClose} aria-label="Close">
            <X size={22} aria-hidden="true" />
          </button>
        </header>

        <div className="blog-form__body">
          {alert && (
            <div className="admin-banner is-error" role="alert">
              <p>{alert}</p>
              {conflict && (
                <div className="blog-form__conflict">
                  <button type="button" className="admin-btn admin-btn--primary" onClick={overwrite} disabled={saving}>
                    Save my version anyway
                  </button>
                  <a href={`/blog/${conflict.slug}`} target="_blank" rel="noopener">
                    See the published post
                  </a>
                </div>
              )}
            </div>
          )}

          <div className="admin-field">
            <label htmlFor={fieldId('title')}>Title <span aria-hidden="true">*</span></label>
            <input id={fieldId('title')} type="text" value={form.title} required maxLength={200} aria-invalid={errors.title ? true : undefined} aria-describedby={errorId('title')} onChange={(event) => set('title', event.target.value)} />
            <FieldError name="title" />
          </div>

          <div className="admin-field">
            <label htmlFor={fieldId('excerpt')}>Excerpt <span aria-hidden="true">*</span></label>
            <textarea id={fieldId('excerpt')} value={form.excerpt} required rows={3} maxLength={500} aria-invalid={errors.excerpt ? true : undefined} aria-describedby={errorId('excerpt')} onChange={(event) => set('excerpt', event.target.value)} />
            <FieldError name="excerpt" />
          </div>

          <div className="admin-field content-field">
            <div className="content-field__head">
              <label id={`${id}-content-label`} htmlFor={form.contentType === 'markdown' ? fieldId('content') : undefined}>
                Content <span aria-hidden="true">*</span>
              </label>
              <div className="segmented" role="group" aria-label="Content format">
                <button type="button" aria-pressed={form.contentType === 'html'} onClick={() => switchContentType('html')}>HTML Editor</button>
                <button type="button" aria-pressed={form.contentType === 'markdown'} onClick={() => switchContentType('markdown')}>Markdown</button>
              </div>
            </div>
            {form.contentType === 'html' ? (
              <RichTextEditor key="html" value={form.content} onChange={(html) => set('content', html)} labelId={`${id}-content-label`} invalid={Boolean(errors.content)} describedBy={errorId('content')} />
            ) : (
              <MarkdownEditor key="markdown" id={fieldId('content')} value={form.content} onChange={(text) => set('content', text)} invalid={Boolean(errors.content)} describedBy={errorId('content')} />
            )}
            <FieldError name="content" />
          </div>

          <div className="blog-form__row">
            <div className="admin-field">
              <label htmlFor={fieldId('author')}>Author</label>
              <input id={fieldId('author')} type="text" value={form.author} maxLength={100} onChange={(event) => set('author', event.target.value)} />
            </div>
            <div className="admin-field">
              <label htmlFor={fieldId('category')}>Category</label>
              <input id={fieldId('category')} type="text" value={form.category} maxLength={60} onChange={(event) => set('category', event.target.value)} />
            </div>
          </div>

          <ImageUpload value={form.featuredImage} alt={form.featuredImageAlt} onChange={(url) => set('featuredImage', url)} onAltChange={(alt) => set('featuredImageAlt', alt)} onBusyChange={setUploading} />
          <FieldError name="featuredImage" />

          <div className="blog-form__row">
            <ChipsInput label="Tags" values={form.tags} onChange={(tags) => set('tags', tags)} placeholder="Type a tag and press Enter" max={MAX_TAGS} />
            <ChipsInput label="SEO Keywords" values={form.seoKeywords} onChange={(keywords) => set('seoKeywords', keywords)} placeholder="Type a keyword and press Enter" max={MAX_KEYWORDS} />
          </div>

          <div className="admin-field">
            <label htmlFor={fieldId('metaTitle')}>Meta Title</label>
            <input id={fieldId('metaTitle')} type="text" value={form.metaTitle} maxLength={120} aria-describedby={`${id}-metaTitle-hint`} onChange={(event) => set('metaTitle', event.target.value)} />
            <p id={`${id}-metaTitle-hint`} className="admin-hint">Shown in search results and browser tabs. Leave empty to use the title.</p>
          </div>
          <div className="admin-field">
            <label htmlFor={fieldId('metaDescription')}>Meta Description</label>
            <textarea id={fieldId('metaDescription')} value={form.metaDescription} rows={2} maxLength={300} aria-describedby={`${id}-metaDescription-hint`} onChange={(event) => set('metaDescription', event.target.value)} />
            <p id={`${id}-metaDescription-hint`} className="admin-hint">Leave empty to use the excerpt.</p>
          </div>

          <label className="blog-form__check">
            <input type="checkbox" checked={form.isPublished} onChange={(event) => set('isPublished', event.target.checked)} /> Publish immediately
          </label>
        </div>

        <footer className="blog-form__foot">
          {dirty && !saving && <span className="admin-dirty">Unsaved changes</span>}
          <button type="button" className="admin-btn admin-btn--ghost" onClick={requestClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="admin-btn admin-btn--primary" disabled={saving || uploading}>
            {saving ? 'Saving...' : editing ? 'Update Blog' : 'Create Blog'}
          </button>
        </footer>
      </form>
      <ConfirmDialog
        open={confirmClose}
        message="You have unsaved changes. Close without saving them?"
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        danger
        onConfirm={() => {
          setConfirmClose(false);
          onClose();
        }}
        onCancel={() => setConfirmClose(false)}
      />
    </dialog>
  );
}
