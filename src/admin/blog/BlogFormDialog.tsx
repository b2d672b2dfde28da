import { lazy, Suspense, useEffect, useId, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { History, X } from 'lucide-react';
import { toast } from 'sonner';
import * as v from 'valibot';
import {
  AdminBlogSchema,
  BLOG_LIMITS,
  BlogInputSchema,
  CONTENT_TYPES,
  DEFAULT_AUTHOR,
  DEFAULT_CATEGORY,
  MAX_KEYWORDS,
  MAX_TAGS,
  slugify,
  type AdminBlog,
  type ContentType,
} from '../../schemas/blog';
import { api, ApiError, failureText } from '../api';

/** The specification's words for a save that failed without a message from the server. */
const GENERIC_SAVE_ERROR = 'Something went wrong. Please try again.';
import { issuesToFieldErrors } from '../field-errors';
import { clearAutosave, readAutosave, writeAutosave } from './autosave';
import ChipsInput from './ChipsInput';
import ConfirmDialog from './ConfirmDialog';
import ImageUpload from './ImageUpload';
import MarkdownEditor, { markdownPreview } from './MarkdownEditor';
import Modal from './Modal';
import { Loading } from '../Loading';
import RichTextEditor from './RichTextEditor';
import ToggleButton from './ToggleButton';

const RevisionHistory = lazy(() => import('./RevisionHistory'));
import './blog-admin.css';

/** The form's state: the post's input, with the publish time as the date-time field holds it (local time). */
export type BlogForm = Required<Omit<v.InferInput<typeof BlogInputSchema>, 'publishAt'>> & {
  publishAt: string;
  contentType: ContentType;
};

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
  slug: '',
  isPublished: false,
  publishAt: '',
};

/** An ISO time as a datetime-local field shows it, in this browser's time zone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formFromBlog(blog: AdminBlog): BlogForm {
  const fields = Object.fromEntries(Object.keys(EMPTY_FORM).map((key) => [key, blog[key as keyof AdminBlog]]));
  return {
    ...(fields as BlogForm),
    tags: [...blog.tags],
    seoKeywords: [...blog.seoKeywords],
    publishAt: toLocalInput(blog.publishAt),
  };
}

/** A form kept by the autosave, field by field: only values of the right type are taken back. */
function formFromSaved(saved: Record<string, unknown>, base: BlogForm): BlogForm {
  const form: Record<string, unknown> = { ...base };
  for (const [key, fallback] of Object.entries(base)) {
    const value = saved[key];
    if (
      Array.isArray(fallback)
        ? Array.isArray(value) && value.every((item) => typeof item === 'string')
        : typeof value === typeof fallback
    )
      form[key] = value;
  }
  if (!CONTENT_TYPES.includes(form.contentType as ContentType)) form.contentType = base.contentType;
  return form as BlogForm;
}

const same = (a: BlogForm, b: BlogForm) => JSON.stringify(a) === JSON.stringify(b);
type SaveAnswer = { success: boolean; message: string; blog: AdminBlog };

/** The 'Create New Blog Post' / 'Edit Blog Post' modal with every field of the post. */
export default function BlogFormDialog({
  blog,
  onClose,
  onSaved,
}: {
  blog: AdminBlog | null;
  onClose: () => void;
  onSaved: (blog: AdminBlog) => void;
}) {
  const initial = useRef(blog ? formFromBlog(blog) : EMPTY_FORM);
  const [form, setForm] = useState<BlogForm>(initial.current);
  const [version, setVersion] = useState(blog?.version ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState('');
  const [conflict, setConflict] = useState<AdminBlog | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const [current, setCurrent] = useState<AdminBlog | null>(blog);
  const [showHistory, setShowHistory] = useState(false);
  // The rich text editor reads its content once; a new key gives it a restored text.
  const [editorKey, setEditorKey] = useState(0);
  // Kept in this browser by an earlier session of this editor that never saved (closed tab, crash, reload).
  const [kept, setKept] = useState(() => {
    const entry = readAutosave(blog?._id ?? null);
    return entry && !same(formFromSaved(entry.form, initial.current), initial.current) ? entry : null;
  });
  // A draft's address follows its title until someone chooses one; a published post keeps its own.
  const [slugChosen, setSlugChosen] = useState(() =>
    blog ? blog.publishedAt === null && blog.slug !== slugify(blog.title) : false,
  );
  const id = useId();
  const dirty = !same(form, initial.current);
  const editing = current !== null;
  const everPublished = current?.publishedAt != null;
  const shownSlug = slugChosen
    ? form.slug
    : everPublished
      ? (current?.slug ?? '')
      : form.title.trim()
        ? slugify(form.title)
        : '';

  // Unsaved changes are not lost by leaving the page either.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);

  // Every change of an open form is kept in this browser until it is saved or thrown away.
  useEffect(() => {
    if (dirty) writeAutosave(current?._id ?? null, form);
  }, [dirty, form, current]);

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

  /** What is sent: the address only when chosen, the publish time as an ISO time (or the text typed, to be refused). */
  function payload() {
    const at = form.publishAt.trim();
    const time = at ? new Date(at) : null;
    return {
      ...form,
      slug: slugChosen ? form.slug : '',
      publishAt: form.isPublished || !at ? null : time && !Number.isNaN(time.getTime()) ? time.toISOString() : at,
    };
  }

  async function save(atVersion: number) {
    setAlert('');
    const body = payload();
    // The same schema the server applies: same rules, same messages.
    const checked = v.safeParse(BlogInputSchema, body);
    if (!checked.success) {
      const found = issuesToFieldErrors(checked.issues);
      setErrors(found);
      setAlert(
        Object.keys(found).some((field) => ['title', 'excerpt', 'content'].includes(field))
          ? 'Please fill in the required fields.'
          : 'Please correct the highlighted fields.',
      );
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = editing
        ? await api<SaveAnswer>(`/blogs/${current._id}`, { method: 'PUT', body: { ...body, version: atVersion } })
        : await api<SaveAnswer>('/blogs', { method: 'POST', body });
      clearAutosave(current?._id ?? null);
      toast.success(editing ? 'Blog updated successfully' : 'Blog created successfully');
      onSaved(answer.blog);
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409) {
        // Someone saved a newer version: keep everything typed here, say so, offer to save over it.
        showConflict(cause.message, (cause.body as { current?: unknown } | undefined)?.current);
      } else if (cause instanceof ApiError) {
        if (cause.errors.length) setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
        setAlert(
          `Error saving blog: ${cause.errors.length ? JSON.stringify(cause.errors) : failureText(cause, GENERIC_SAVE_ERROR)}`,
        );
      } else {
        setAlert(`Error saving blog: ${GENERIC_SAVE_ERROR}`);
      }
      toast.error('The blog was not saved');
    } finally {
      setSaving(false);
    }
  }

  function showConflict(message: string, newer: unknown) {
    const parsed = v.safeParse(AdminBlogSchema, newer);
    setConflict(parsed.success ? parsed.output : null);
    setAlert(`Error saving blog: ${message}`);
  }

  function restored(blog: AdminBlog, revision: number) {
    const next = formFromBlog(blog);
    initial.current = next;
    setForm(next);
    setCurrent(blog);
    setVersion(blog.version);
    setEditorKey((key) => key + 1);
    setErrors({});
    setAlert('');
    setConflict(null);
    clearAutosave(blog._id);
    toast.success(`Version ${revision} restored`);
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // Only this form's own submit saves (not one bubbling up from a dialog rendered inside it).
    if (event.target !== event.currentTarget) return;
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
  const fieldError = (name: string) =>
    errors[name] ? (
      <p id={`${id}-${name}-error`} className="admin-error">
        {errors[name]}
      </p>
    ) : null;
  /** A text field of the post: its label (* when required), input or textarea, hint and error, linked up. */
  const textField = (
    name: 'title' | 'excerpt' | 'author' | 'category' | 'metaTitle' | 'metaDescription' | 'publishAt',
    label: string,
    { required, rows, type = 'text', hint }: { required?: boolean; rows?: number; type?: string; hint?: string } = {},
  ) => {
    const control = {
      id: fieldId(name),
      value: form[name],
      required,
      maxLength: name === 'publishAt' ? undefined : BLOG_LIMITS[name],
      'aria-invalid': errors[name] ? true : undefined,
      'aria-describedby': [hint && `${id}-${name}-hint`, errorId(name)].filter(Boolean).join(' ') || undefined,
      onChange: (event: ChangeEvent<HTMLInputElement & HTMLTextAreaElement>) => set(name, event.target.value),
    };
    return (
      <div className="admin-field">
        <label htmlFor={control.id}>
          {required ? `${label} ` : label}
          {required && <span aria-hidden="true">*</span>}
        </label>
        {rows ? <textarea {...control} rows={rows} /> : <input {...control} type={type} />}
        {hint && (
          <p id={`${id}-${name}-hint`} className="admin-hint">
            {hint}
          </p>
        )}
        {fieldError(name)}
      </div>
    );
  };
  const chips = (name: 'tags' | 'seoKeywords', label: string, placeholder: string, max: number) => (
    <ChipsInput
      label={label}
      values={form[name]}
      onChange={(values) => set(name, values)}
      placeholder={placeholder}
      max={max}
    />
  );
  const title = editing ? 'Edit Blog Post' : 'Create New Blog Post';
  const scheduled = !form.isPublished && form.publishAt.trim() !== '';

  return (
    <Modal className="blog-modal" labelledBy={`${id}-heading`} onCancel={requestClose}>
      <form className="blog-form" onSubmit={onSubmit} noValidate aria-busy={saving}>
        <header className="blog-form__head">
          <h2 id={`${id}-heading`}>{title}</h2>
          {current && (
            <ToggleButton
              className="blog-form__history"
              expanded={showHistory}
              controls={`${id}-history`}
              onToggle={() => setShowHistory((open) => !open)}
            >
              <History size={18} aria-hidden="true" /> History
            </ToggleButton>
          )}
          <button type="button" className="blog-form__close" onClick={requestClose} aria-label="Close">
            <X size={22} aria-hidden="true" />
          </button>
        </header>

        <div className="blog-form__body">
          {kept && (
            <div className="admin-banner blog-form__kept" role="status">
              <p>
                Unsaved changes{kept.title ? ` to “${kept.title}”` : ''} from{' '}
                {new Date(kept.savedAt).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' })} were kept
                in this browser.
              </p>
              <div className="blog-form__conflict">
                <button
                  type="button"
                  className="admin-btn admin-btn--primary"
                  onClick={() => {
                    const next = formFromSaved(kept.form, initial.current);
                    setForm(next);
                    setEditorKey((key) => key + 1);
                    if (next.slug && next.slug !== initial.current.slug) setSlugChosen(true);
                    setKept(null);
                  }}
                >
                  Restore unsaved changes
                </button>
                <button
                  type="button"
                  className="admin-btn admin-btn--ghost"
                  onClick={() => {
                    clearAutosave(current?._id ?? null);
                    setKept(null);
                  }}
                >
                  Discard them
                </button>
              </div>
            </div>
          )}
          {showHistory && current && (
            <div id={`${id}-history`}>
              <Suspense fallback={<Loading text="Loading history..." />}>
                <RevisionHistory
                  blog={current}
                  version={version}
                  dirty={dirty}
                  onRestored={restored}
                  onConflict={showConflict}
                />
              </Suspense>
            </div>
          )}
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

          {textField('title', 'Title', { required: true })}

          <div className="admin-field">
            <label htmlFor={fieldId('slug')}>Address</label>
            <div className="slug-field">
              <span className="slug-field__prefix" aria-hidden="true">
                /blog/
              </span>
              <input
                id={fieldId('slug')}
                type="text"
                value={shownSlug}
                maxLength={BLOG_LIMITS.slug}
                spellCheck={false}
                autoCapitalize="off"
                aria-invalid={errors.slug ? true : undefined}
                aria-describedby={`${id}-slug-hint${errors.slug ? ` ${id}-slug-error` : ''}`}
                onChange={(event) => {
                  setSlugChosen(true);
                  set('slug', event.target.value);
                }}
              />
            </div>
            <p id={`${id}-slug-hint`} className="admin-hint">
              {everPublished
                ? 'This post has been published, so its address stays as it is. If you change it, the old address keeps working and sends readers to the new one.'
                : 'Made from the title until the post is first published. Lower-case letters, digits and hyphens.'}
            </p>
            {fieldError('slug')}
          </div>

          {textField('excerpt', 'Excerpt', { required: true, rows: 3 })}

          <div className="admin-field content-field">
            <div className="content-field__head">
              <label
                id={`${id}-content-label`}
                htmlFor={form.contentType === 'markdown' ? fieldId('content') : undefined}
              >
                Content <span aria-hidden="true">*</span>
              </label>
              <div className="segmented" role="group" aria-label="Content format">
                <button
                  type="button"
                  aria-pressed={form.contentType === 'html'}
                  onClick={() => switchContentType('html')}
                >
                  HTML Editor
                </button>
                <button
                  type="button"
                  aria-pressed={form.contentType === 'markdown'}
                  onClick={() => switchContentType('markdown')}
                >
                  Markdown
                </button>
              </div>
            </div>
            {form.contentType === 'html' ? (
              <RichTextEditor
                key={`html-${editorKey}`}
                value={form.content}
                onChange={(html) => set('content', html)}
                labelId={`${id}-content-label`}
                invalid={Boolean(errors.content)}
                describedBy={errorId('content')}
              />
            ) : (
              <MarkdownEditor
                key="markdown"
                id={fieldId('content')}
                value={form.content}
                onChange={(text) => set('content', text)}
                invalid={Boolean(errors.content)}
                describedBy={errorId('content')}
              />
            )}
            {fieldError('content')}
          </div>

          <div className="blog-form__row">
            {textField('author', 'Author')}
            {textField('category', 'Category')}
          </div>

          <ImageUpload
            value={form.featuredImage}
            alt={form.featuredImageAlt}
            onChange={(url) => set('featuredImage', url)}
            onAltChange={(alt) => set('featuredImageAlt', alt)}
            onBusyChange={setUploading}
          />
          {fieldError('featuredImage')}

          <div className="blog-form__row">
            {chips('tags', 'Tags', 'Type a tag and press Enter', MAX_TAGS)}
            {chips('seoKeywords', 'SEO Keywords', 'Type a keyword and press Enter', MAX_KEYWORDS)}
          </div>

          {textField('metaTitle', 'Meta Title', {
            hint: 'Shown in search results and browser tabs. Leave empty to use the title.',
          })}
          {textField('metaDescription', 'Meta Description', { rows: 2, hint: 'Leave empty to use the excerpt.' })}

          <div className="blog-form__publish">
            <label className="blog-form__check">
              <input
                type="checkbox"
                checked={form.isPublished}
                onChange={(event) => set('isPublished', event.target.checked)}
              />{' '}
              Publish immediately
            </label>
            {!form.isPublished &&
              textField('publishAt', 'Publish at', {
                type: 'datetime-local',
                hint: 'Leave empty to keep the post a draft. A scheduled post goes live within a minute of this time.',
              })}
          </div>
        </div>

        <footer className="blog-form__foot">
          {dirty && !saving && <span className="admin-dirty">Unsaved changes</span>}
          <button type="button" className="admin-btn admin-btn--ghost" onClick={requestClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="admin-btn admin-btn--primary" disabled={saving || uploading}>
            {saving ? 'Saving...' : editing ? 'Update Blog' : scheduled ? 'Schedule Blog' : 'Create Blog'}
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
          clearAutosave(current?._id ?? null);
          onClose();
        }}
        onCancel={() => setConfirmClose(false)}
      />
    </Modal>
  );
}
