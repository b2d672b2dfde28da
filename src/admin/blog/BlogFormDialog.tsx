import { lazy, Suspense, useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { History, X } from 'lucide-react';
import { toast } from 'sonner';
import * as v from 'valibot';
import {
  AdminBlogSchema,
  BLOG_LIMITS,
  BlogInputSchema,
  MAX_KEYWORDS,
  MAX_TAGS,
  slugify,
  type AdminBlog,
  type ContentType,
} from '../../schemas/blog';
import { api, ApiError, failureText } from '../api';
import { issuesToFieldErrors } from '../field-errors';
import { Loading } from '../Loading';
import { EditConflict, useEditConflict } from '../edits/EditConflict';
import { useLeaveGuard } from '../edits/useLeaveGuard';
import { clearAutosave, readAutosave, writeAutosave } from './autosave';
import { blogFieldLabel, EMPTY_FORM, formFromBlog, formFromSaved, payload, sameForm, type BlogForm } from './blog-form';
import BlogTextField, { FieldError } from './BlogTextField';
import ChipsInput from './ChipsInput';
import ContentField from './ContentField';
import ImageUpload from './ImageUpload';
import KeptChanges from './KeptChanges';
import { markdownPreview } from './MarkdownEditor';
import Modal from './Modal';
import SlugField from './SlugField';
import ToggleButton from './ToggleButton';
import './blog-admin.css';

const RevisionHistory = lazy(() => import('./RevisionHistory'));

/** The specification's words for a save that failed without a message from the server. */
const GENERIC_SAVE_ERROR = 'Something went wrong. Please try again.';
type SaveAnswer = { success: boolean; message: string; blog: AdminBlog };
type TextName = 'title' | 'excerpt' | 'author' | 'category' | 'metaTitle' | 'metaDescription' | 'publishAt';

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
  const conflicts = useEditConflict<BlogForm>();
  const { conflict } = conflicts;
  // The newer post a conflict came with: its address for the link to it.
  const [newer, setNewer] = useState<AdminBlog | null>(null);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [current, setCurrent] = useState<AdminBlog | null>(blog);
  const [showHistory, setShowHistory] = useState(false);
  // The rich text editor reads its content once; a new key gives it a restored text.
  const [editorKey, setEditorKey] = useState(0);
  // Kept in this browser by an earlier session of this editor that never saved (closed tab, crash, reload).
  const [kept, setKept] = useState(() => {
    const entry = readAutosave(blog?._id ?? null);
    return entry && !sameForm(formFromSaved(entry.form, initial.current), initial.current) ? entry : null;
  });
  // A draft's address follows its title until someone chooses one; a published post keeps its own.
  const [slugChosen, setSlugChosen] = useState(() =>
    blog ? blog.publishedAt === null && blog.slug !== slugify(blog.title) : false,
  );
  const id = useId();
  const dirty = !sameForm(form, initial.current);
  const { confirmLeave, dialog } = useLeaveGuard(dirty, 'You have unsaved changes. Close without saving them?');
  const editing = current !== null;
  const everPublished = current?.publishedAt != null;
  const shownSlug = slugChosen
    ? form.slug
    : everPublished
      ? (current?.slug ?? '')
      : form.title.trim()
        ? slugify(form.title)
        : '';

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
    confirmLeave(() => {
      clearAutosave(current?._id ?? null);
      onClose();
    });
  }

  function switchContentType(next: ContentType) {
    if (next === form.contentType) return;
    // Markdown becomes HTML for the editor; HTML is valid Markdown and is kept as it is.
    const content = next === 'html' && form.content.trim() ? markdownPreview(form.content) : form.content;
    setForm((current) => ({ ...current, contentType: next, content }));
  }

  async function save(atVersion: number, values = form) {
    setAlert('');
    const body = payload(values, slugChosen);
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
        // Someone saved a newer version: keep everything typed here, say so, offer the choice.
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

  function showConflict(message: string, newerPost: unknown) {
    const parsed = v.safeParse(AdminBlogSchema, newerPost);
    if (parsed.success) {
      setNewer(parsed.output);
      conflicts.show({ message, theirs: formFromBlog(parsed.output), version: parsed.output.version });
    } else setAlert(`Error saving blog: ${message}`);
  }

  /** The form now shows `blog` as saved (a restored revision, or their version taken from a conflict). */
  function loadSaved(saved: AdminBlog) {
    const next = formFromBlog(saved);
    initial.current = next;
    setForm(next);
    setCurrent(saved);
    setVersion(saved.version);
    setEditorKey((key) => key + 1);
    setErrors({});
    setAlert('');
    conflicts.clear();
    clearAutosave(saved._id);
  }

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // Only this form's own submit saves (not one bubbling up from a dialog rendered inside it).
    if (event.target !== event.currentTarget) return;
    void save(version);
  }

  const textField = (
    name: TextName,
    label: string,
    options: { required?: boolean; rows?: number; type?: string; hint?: string } = {},
  ) => (
    <BlogTextField
      id={`${id}-${name}`}
      label={label}
      value={form[name]}
      error={errors[name]}
      onChange={(value) => set(name, value)}
      maxLength={name === 'publishAt' ? undefined : BLOG_LIMITS[name]}
      {...options}
    />
  );
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
            <KeptChanges
              kept={kept}
              onRestore={() => {
                const next = formFromSaved(kept.form, initial.current);
                setForm(next);
                setEditorKey((key) => key + 1);
                if (next.slug && next.slug !== initial.current.slug) setSlugChosen(true);
                setKept(null);
              }}
              onDiscard={() => {
                clearAutosave(current?._id ?? null);
                setKept(null);
              }}
            />
          )}
          {showHistory && current && (
            <div id={`${id}-history`}>
              <Suspense fallback={<Loading text="Loading history..." />}>
                <RevisionHistory
                  blog={current}
                  version={version}
                  dirty={dirty}
                  onRestored={(restored, revision) => {
                    loadSaved(restored);
                    toast.success(`Version ${revision} restored`);
                  }}
                  onConflict={showConflict}
                />
              </Suspense>
            </div>
          )}
          {conflict && (
            <EditConflict
              conflict={conflict}
              mine={form}
              label={blogFieldLabel}
              lead="Error saving blog: "
              saving={saving}
              onSave={(value, over) => {
                setForm(value);
                setEditorKey((key) => key + 1);
                setVersion(conflicts.settle(conflict));
                void save(over, value);
              }}
              onTake={() => {
                if (newer) loadSaved(newer);
              }}
            >
              {newer?.isPublished && (
                <a href={`/blog/${newer.slug}`} target="_blank" rel="noopener">
                  See the published post
                </a>
              )}
            </EditConflict>
          )}
          {alert && (
            <div className="admin-banner is-error" role="alert">
              <p>{alert}</p>
            </div>
          )}

          {textField('title', 'Title', { required: true })}
          <SlugField
            id={`${id}-slug`}
            value={shownSlug}
            everPublished={everPublished}
            error={errors.slug}
            onChange={(value) => {
              setSlugChosen(true);
              set('slug', value);
            }}
          />
          {textField('excerpt', 'Excerpt', { required: true, rows: 3 })}
          <ContentField
            id={`${id}-content`}
            value={form.content}
            contentType={form.contentType}
            editorKey={editorKey}
            error={errors.content}
            onChange={(value) => set('content', value)}
            onSwitch={switchContentType}
          />

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
          <FieldError id={`${id}-featuredImage`} error={errors.featuredImage} />

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
      {dialog}
    </Modal>
  );
}
