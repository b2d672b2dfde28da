import { useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import * as v from 'valibot';
import { api, ApiError } from './api';
import { issuesToFieldErrors } from './field-errors';
import { LEVELS } from '../lib/catalogue';
import {
  AddCourseSchema,
  DETAIL_FIELDS,
  SaveCategorySchema,
  SaveCourseSchema,
  type AddedFacts,
  type CategoryEdit,
  type CourseEdit,
} from '../schemas/catalogue';
import type { RebuildStatus as Rebuild } from '../server/rebuild';
import './catalogue.css';

type CourseStatus = 'published' | 'edited' | 'new' | 'retired';
interface Stamp {
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}
interface CourseRow extends Stamp {
  code: string;
  title: string;
  level: string;
  category: { slug: string; name: string };
  featured: boolean;
  status: CourseStatus;
  successor: string | null;
}
interface CategoryRow extends Stamp {
  slug: string;
  name: string;
  description: string;
  color: string;
  image: string | null;
  picture: string;
  courseCount: number;
}
interface CatalogueData {
  courses: CourseRow[];
  categories: CategoryRow[];
  overlayError: string | null;
  rebuild: Rebuild;
}
interface CourseEntry extends Stamp {
  code: string;
  facts: AddedFacts;
  added: boolean;
  status: CourseStatus;
  edit: CourseEdit;
}

const STATUS_LABELS: Record<CourseStatus, string> = {
  published: 'Published',
  edited: 'Edited',
  new: 'Added',
  retired: 'Retired',
};
const CATALOGUE_KEY = ['admin-catalogue'];

function useCatalogue() {
  return useQuery({ queryKey: CATALOGUE_KEY, queryFn: () => api<CatalogueData>('/admin/catalogue') });
}

const time = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });

/** The latest rebuild, followed while it runs. */
function RebuildStatus({ initial }: { initial: Rebuild }) {
  const { data = initial } = useQuery({
    queryKey: ['admin-catalogue-rebuild'],
    queryFn: () => api<Rebuild>('/admin/catalogue/rebuild'),
    initialData: initial,
    refetchInterval: (query) => (['requested', 'building'].includes(query.state.data?.state ?? '') ? 3000 : false),
  });
  if (data.state === 'none') return null;
  const texts: Record<Exclude<Rebuild['state'], 'none'>, string> = {
    requested: `Rebuild requested at ${time(data.requestedAt)}; the public pages change when it is live.`,
    building: `Rebuilding the site (requested at ${time(data.requestedAt)})...`,
    live: `Live: the site was rebuilt${data.finishedAt ? ` at ${time(data.finishedAt)}` : ''}${data.durationMs ? ` in ${Math.round(data.durationMs / 1000)} s` : ''}.`,
    failed: `The rebuild requested at ${time(data.requestedAt)} failed${data.message ? `: ${data.message}` : ''}. The saved changes are kept; save again to retry.`,
    'not-configured': 'Saved. No build hook is set up, so the public pages change with the next deploy.',
  };
  return (
    <p
      className={`catalogue-rebuild is-${data.state}`}
      role="status"
      data-testid="rebuild-status"
      data-state={data.state}
    >
      <span className="catalogue-rebuild__dot" aria-hidden="true" />
      {texts[data.state]}
    </p>
  );
}

function Banners({ data }: { data: CatalogueData }) {
  return (
    <>
      <p className="admin-note">
        Changes are saved at once and reach the public pages with the next rebuild of the site, which each save starts.
      </p>
      {data.overlayError && (
        <div className="admin-banner is-error" role="alert">
          <p>The saved catalogue changes are not being used: the site is built from the repository content.</p>
          <p className="admin-banner__note">Reason: {data.overlayError}</p>
        </div>
      )}
      <RebuildStatus initial={data.rebuild} />
    </>
  );
}

function Failed({ retry }: { retry: () => void }) {
  return (
    <div role="alert" className="admin-banner is-error">
      <p>The catalogue could not be loaded.</p>
      <button type="button" className="admin-btn admin-btn--ghost" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

/** A refresh failed but the last list is still shown. */
function Stale({ retry }: { retry: () => void }) {
  return (
    <div role="alert" className="admin-banner is-error">
      <p>The list could not be refreshed; it may be out of date.</p>
      <button type="button" className="admin-btn admin-btn--ghost" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

const toLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A labelled input, textarea or select with its hint and error, wired for screen readers. */
function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="admin-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {error && (
        <p className="admin-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What the form edits: the lists as text, one item a line. */
type Draft = Record<keyof typeof DETAIL_FIELDS, string> & {
  featured: boolean;
  evidence: string;
  terms: string;
  retired: boolean;
  successor: string;
};

function toDraft(edit: CourseEdit): Draft {
  const details = Object.fromEntries(
    Object.entries(DETAIL_FIELDS).map(([key, field]) => {
      const value = edit.details[key as keyof typeof DETAIL_FIELDS];
      return [
        key,
        field.kind === 'lines'
          ? ((value as string[] | undefined) ?? []).join('\n')
          : ((value as string | undefined) ?? ''),
      ];
    }),
  ) as Record<keyof typeof DETAIL_FIELDS, string>;
  return {
    ...details,
    featured: edit.featured,
    evidence: edit.evidence.join('\n'),
    terms: edit.terms.join('\n'),
    retired: Boolean(edit.retired),
    successor: edit.retired?.successor ?? '',
  };
}

function fromDraft(draft: Draft): unknown {
  const details: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(DETAIL_FIELDS)) {
    const raw = draft[key as keyof typeof DETAIL_FIELDS];
    if (field.kind === 'lines') {
      const items = toLines(raw);
      if (items.length > 0 || !('optional' in field)) details[key] = items;
    } else details[key] = raw;
  }
  const successor = draft.successor.trim().toUpperCase();
  return {
    featured: draft.featured,
    details,
    evidence: toLines(draft.evidence),
    terms: toLines(draft.terms).map((term) => term.toLowerCase()),
    retired: draft.retired ? (successor ? { successor } : {}) : null,
  };
}

const EMPTY_FACTS = {
  code: '',
  title: '',
  level: '',
  category: '',
  source: '',
  checkedOn: new Date().toISOString().slice(0, 10),
};

/** Edit one qualification (or add one, without `entry`). */
function CourseForm({
  entry,
  data,
  onDone,
}: {
  entry?: CourseEntry;
  data: CatalogueData;
  onDone: (code?: string) => void;
}) {
  const client = useQueryClient();
  const adding = !entry;
  const [draft, setDraft] = useState<Draft>(() =>
    toDraft(
      entry?.edit ?? { featured: false, details: {} as CourseEdit['details'], evidence: [], terms: [], retired: null },
    ),
  );
  const [facts, setFacts] = useState(EMPTY_FACTS);
  const [version, setVersion] = useState(entry?.version ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<{ message: string; theirs: CourseEntry['edit']; version: number } | null>(
    null,
  );
  const [saving, setSaving] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const set = (key: keyof Draft, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));

  const errorFor = (key: string) => errors[`edit.details.${key}`] ?? errors[`edit.${key}`];

  async function save(event?: FormEvent, overVersion?: number) {
    event?.preventDefault();
    const body = adding
      ? {
          code: facts.code,
          facts: {
            title: facts.title,
            level: facts.level,
            category: facts.category,
            source: facts.source,
            checkedOn: facts.checkedOn,
          },
          edit: fromDraft(draft),
        }
      : { version: overVersion ?? version, edit: fromDraft(draft) };
    const checked = v.safeParse(adding ? AddCourseSchema : SaveCourseSchema, body);
    if (!checked.success) {
      setErrors(issuesToFieldErrors(checked.issues));
      requestAnimationFrame(() => summary.current?.focus());
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const saved = adding
        ? await api<{ entry: { code: string; version: number } }>('/admin/catalogue/courses', {
            method: 'POST',
            body: checked.output,
          })
        : await api<{ entry: { code: string; version: number } }>(`/admin/catalogue/courses/${entry.code}`, {
            method: 'PUT',
            body: checked.output,
          });
      setVersion(saved.entry.version);
      setConflict(null);
      toast.success(adding ? `${saved.entry.code} added` : `${saved.entry.code} saved`);
      await Promise.all([
        client.invalidateQueries({ queryKey: CATALOGUE_KEY }),
        client.invalidateQueries({ queryKey: ['admin-catalogue-rebuild'] }),
      ]);
      onDone(saved.entry.code);
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409 && !adding) {
        const theirs = await api<CourseEntry>(`/admin/catalogue/courses/${entry.code}`);
        setConflict({ message: cause.message, theirs: theirs.edit, version: theirs.version });
      } else if (cause instanceof ApiError && cause.errors.length > 0) {
        setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
        toast.error(cause.message);
      } else toast.error(cause instanceof Error ? cause.message : 'Could not save.');
      requestAnimationFrame(() => summary.current?.focus());
    } finally {
      setSaving(false);
    }
  }

  const messages = Object.values(errors);
  const published = data.courses.filter((c) => c.status !== 'retired' && c.code !== entry?.code);
  return (
    <form className="catalogue-form" onSubmit={save} noValidate aria-labelledby="course-form-title">
      <h2 className="admin-subtitle" id="course-form-title">
        {adding ? 'Add a qualification' : `Edit ${entry.code} ${entry.facts.title}`}
      </h2>
      <div ref={summary} tabIndex={-1} className="catalogue-form__alerts">
        {messages.length > 0 && (
          <div className="admin-banner is-error" role="alert">
            <p>Please fix {messages.length === 1 ? 'this' : 'these'} first:</p>
            <ul>
              {messages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          </div>
        )}
        {conflict && (
          <div className="admin-banner is-error" role="alert" data-testid="conflict">
            <p>{conflict.message}</p>
            <div className="admin-actions">
              <button
                type="button"
                className="admin-btn admin-btn--ghost"
                onClick={() => {
                  setDraft(toDraft(conflict.theirs));
                  setVersion(conflict.version);
                  setConflict(null);
                }}
              >
                Show their version
              </button>
              <button
                type="button"
                className="admin-btn admin-btn--primary"
                onClick={() => {
                  setVersion(conflict.version);
                  void save(undefined, conflict.version);
                }}
              >
                Save my version over it
              </button>
            </div>
          </div>
        )}
      </div>

      <fieldset className="admin-card">
        <legend>Qualification facts</legend>
        {adding ? (
          <>
            <p className="admin-hint">
              Enter the code, title and level exactly as on the National Register, with where and when you checked them.
            </p>
            <div className="catalogue-form__grid">
              <Field label="National code" hint="5 to 12 letters and digits, such as BSB50120" error={errors.code}>
                {(p) => (
                  <input
                    {...p}
                    value={facts.code}
                    onChange={(e) => setFacts({ ...facts, code: e.target.value })}
                    autoComplete="off"
                  />
                )}
              </Field>
              <Field label="Title on the register" error={errors['facts.title']}>
                {(p) => (
                  <input {...p} value={facts.title} onChange={(e) => setFacts({ ...facts, title: e.target.value })} />
                )}
              </Field>
              <Field label="Level" error={errors['facts.level']}>
                {(p) => (
                  <select {...p} value={facts.level} onChange={(e) => setFacts({ ...facts, level: e.target.value })}>
                    <option value="">Choose a level</option>
                    {LEVELS.map((level) => (
                      <option key={level}>{level}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Category" error={errors['facts.category']}>
                {(p) => (
                  <select
                    {...p}
                    value={facts.category}
                    onChange={(e) => setFacts({ ...facts, category: e.target.value })}
                  >
                    <option value="">Choose a category</option>
                    {data.categories.map((c) => (
                      <option key={c.slug} value={c.slug}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                label="Checked against"
                hint="The register page's address, or what you searched"
                error={errors['facts.source']}
              >
                {(p) => (
                  <input
                    {...p}
                    value={facts.source}
                    onChange={(e) => setFacts({ ...facts, source: e.target.value })}
                    placeholder="https://training.gov.au/Training/Details/..."
                  />
                )}
              </Field>
              <Field label="Checked on" error={errors['facts.checkedOn']}>
                {(p) => (
                  <input
                    {...p}
                    type="date"
                    value={facts.checkedOn}
                    onChange={(e) => setFacts({ ...facts, checkedOn: e.target.value })}
                  />
                )}
              </Field>
            </div>
          </>
        ) : (
          <dl className="catalogue-facts">
            <div>
              <dt>Code</dt>
              <dd>{entry.code}</dd>
            </div>
            <div>
              <dt>Title</dt>
              <dd>{entry.facts.title}</dd>
            </div>
            <div>
              <dt>Level</dt>
              <dd>{entry.facts.level}</dd>
            </div>
            <div>
              <dt>Checked</dt>
              <dd>
                {entry.facts.checkedOn}, against {entry.facts.source}
              </dd>
            </div>
            {entry.updatedBy && (
              <div>
                <dt>Last saved</dt>
                <dd>
                  {entry.updatedAt ? time(entry.updatedAt) : ''} by {entry.updatedBy}
                </dd>
              </div>
            )}
          </dl>
        )}
        <label className="catalogue-check">
          <input type="checkbox" checked={draft.featured} onChange={(e) => set('featured', e.target.checked)} />{' '}
          Featured on the home page and in lists
        </label>
      </fieldset>

      <fieldset className="admin-card">
        <legend>Written details</legend>
        {Object.entries(DETAIL_FIELDS).map(([key, field]) => (
          <Field
            key={key}
            label={field.label}
            hint={
              field.kind === 'lines'
                ? `One item a line${'min' in field ? `, at least ${field.min}` : ''}${'optional' in field ? ' (may be left empty)' : ''}.`
                : undefined
            }
            error={errorFor(key)}
          >
            {(p) => (
              <textarea
                {...p}
                rows={field.kind === 'lines' ? 4 : key === 'about' ? 2 : 4}
                value={draft[key as keyof typeof DETAIL_FIELDS]}
                onChange={(e) => set(key as keyof Draft, e.target.value)}
              />
            )}
          </Field>
        ))}
        <Field
          label="Evidence checklist for this qualification"
          hint="One item a line, at most 8. The category's list and the items every applicant needs are added after these."
          error={errorFor('evidence')}
        >
          {(p) => <textarea {...p} rows={4} value={draft.evidence} onChange={(e) => set('evidence', e.target.value)} />}
        </Field>
        <Field
          label="Occupations and search words"
          hint="One a line, most typical first (the first three count more in the search): lower case, such as carpenter or chippy."
          error={errorFor('terms')}
        >
          {(p) => <textarea {...p} rows={4} value={draft.terms} onChange={(e) => set('terms', e.target.value)} />}
        </Field>
      </fieldset>

      {!adding && (
        <fieldset className="admin-card">
          <legend>Retire</legend>
          <label className="catalogue-check">
            <input type="checkbox" checked={draft.retired} onChange={(e) => set('retired', e.target.checked)} /> Retire
            this qualification (its page leaves the site)
          </label>
          {draft.retired && (
            <Field
              label="Successor (optional)"
              hint="Its old address then sends visitors to the successor's page."
              error={errorFor('retired.successor') ?? errors['edit.retired']}
            >
              {(p) => (
                <select {...p} value={draft.successor} onChange={(e) => set('successor', e.target.value)}>
                  <option value="">No successor</option>
                  {published.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.code} {c.title}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
        </fieldset>
      )}

      <div className="admin-actions catalogue-form__actions">
        <button type="submit" className="admin-btn admin-btn--primary" disabled={saving}>
          {saving ? 'Saving...' : adding ? 'Add qualification' : 'Save changes'}
        </button>
        <button type="button" className="admin-btn admin-btn--ghost" onClick={() => onDone()}>
          Back to the list
        </button>
      </div>
    </form>
  );
}

function CourseEditor({ code, data, onDone }: { code: string; data: CatalogueData; onDone: (code?: string) => void }) {
  const {
    data: entry,
    isPending,
    isError,
    refetch,
  } = useQuery({
    queryKey: ['admin-catalogue-course', code],
    queryFn: () => api<CourseEntry>(`/admin/catalogue/courses/${encodeURIComponent(code)}`),
    staleTime: 0,
    gcTime: 0,
  });
  if (isPending)
    return (
      <p className="admin-loading" role="status">
        Loading {code}...
      </p>
    );
  if (isError) return <Failed retry={() => void refetch()} />;
  return <CourseForm key={`${entry.code}-${entry.version}`} entry={entry} data={data} onDone={onDone} />;
}

/** Manage Courses: search and filter the qualifications, edit, retire and add them. */
export function CoursesPage() {
  const { data, isPending, isError, refetch } = useCatalogue();
  const [filters, setFilters] = useState({ text: '', category: '', level: '', status: '' });
  const [open, setOpen] = useState<{ mode: 'edit'; code: string } | { mode: 'add' } | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const shown = useMemo(() => {
    const words = filters.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return (data?.courses ?? []).filter(
      (c) =>
        words.every((word) => `${c.code} ${c.title}`.toLowerCase().includes(word)) &&
        (!filters.category || c.category.slug === filters.category) &&
        (!filters.level || c.level === filters.level) &&
        (!filters.status || c.status === filters.status),
    );
  }, [data, filters]);

  const live = (data?.courses ?? []).filter((c) => c.status !== 'retired');
  const retired = (data?.courses.length ?? 0) - live.length;
  const close = (code?: string) => {
    setOpen(null);
    if (code) setFilters((f) => ({ ...f, text: code }));
    requestAnimationFrame(() => listHeading.current?.focus());
  };

  return (
    <>
      <p className="admin-lead">View the nationally recognised qualifications listed on the site.</p>
      {isPending ? (
        <p className="admin-loading" role="status">
          Loading courses...
        </p>
      ) : !data ? (
        <Failed retry={() => void refetch()} />
      ) : (
        <>
          {isError && <Stale retry={() => void refetch()} />}
          <Banners data={data} />
          {open ? (
            open.mode === 'add' ? (
              <CourseForm data={data} onDone={close} />
            ) : (
              <CourseEditor code={open.code} data={data} onDone={close} />
            )
          ) : (
            <section aria-labelledby="course-list-title">
              <div className="catalogue-toolbar">
                <h2 className="admin-subtitle" id="course-list-title" ref={listHeading} tabIndex={-1}>
                  Qualifications
                </h2>
                <button type="button" className="admin-btn admin-btn--primary" onClick={() => setOpen({ mode: 'add' })}>
                  Add a qualification
                </button>
              </div>
              <div className="catalogue-filters" role="search">
                <Field label="Search">
                  {(p) => (
                    <input
                      {...p}
                      type="search"
                      placeholder="Code or title"
                      value={filters.text}
                      onChange={(e) => setFilters({ ...filters, text: e.target.value })}
                    />
                  )}
                </Field>
                <Field label="Category">
                  {(p) => (
                    <select
                      {...p}
                      value={filters.category}
                      onChange={(e) => setFilters({ ...filters, category: e.target.value })}
                    >
                      <option value="">All categories</option>
                      {data.categories.map((c) => (
                        <option key={c.slug} value={c.slug}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label="Level">
                  {(p) => (
                    <select
                      {...p}
                      value={filters.level}
                      onChange={(e) => setFilters({ ...filters, level: e.target.value })}
                    >
                      <option value="">All levels</option>
                      {LEVELS.map((level) => (
                        <option key={level}>{level}</option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label="Status">
                  {(p) => (
                    <select
                      {...p}
                      value={filters.status}
                      onChange={(e) => setFilters({ ...filters, status: e.target.value })}
                    >
                      <option value="">Any status</option>
                      {Object.entries(STATUS_LABELS).map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              </div>
              <p className="catalogue-count" role="status">
                {shown.length === data.courses.length ? '' : `Showing ${shown.length} of ${data.courses.length}: `}
                {live.length} published courses, {live.filter((c) => c.featured).length} featured
                {retired > 0 ? `, ${retired} retired` : ''}
              </p>
              {shown.length === 0 ? (
                <p className="catalogue-empty">No course matches these filters.</p>
              ) : (
                <table className="admin-table catalogue-table">
                  <thead>
                    <tr>
                      <th scope="col">Code</th>
                      <th scope="col">Title</th>
                      <th scope="col">Level</th>
                      <th scope="col">Category</th>
                      <th scope="col">Status</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((course) => (
                      <tr key={course.code} data-testid={`course-${course.code}`}>
                        <th scope="row" data-label="Code">
                          {course.status === 'retired' ? (
                            course.code
                          ) : (
                            <a href={`/courses/${course.code}`}>{course.code}</a>
                          )}
                        </th>
                        <td data-label="Title">
                          <span>
                            {course.title}
                            {course.featured && <span className="admin-chip">Featured</span>}
                          </span>
                        </td>
                        <td data-label="Level">{course.level}</td>
                        <td data-label="Category">{course.category.name}</td>
                        <td data-label="Status">
                          <span>
                            <span className={`catalogue-status is-${course.status}`}>
                              {STATUS_LABELS[course.status]}
                            </span>
                            {course.successor && <span className="catalogue-successor"> to {course.successor}</span>}
                          </span>
                        </td>
                        <td className="catalogue-table__action">
                          <button
                            type="button"
                            className="admin-btn admin-btn--ghost"
                            onClick={() => setOpen({ mode: 'edit', code: course.code })}
                            aria-label={`Edit ${course.code} ${course.title}`}
                          >
                            Edit
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          )}
        </>
      )}
    </>
  );
}

function CategoryForm({ category, onDone }: { category: CategoryRow; onDone: () => void }) {
  const client = useQueryClient();
  const [edit, setEdit] = useState<{ description: string; color: string; image: string }>({
    description: category.description,
    color: category.color,
    image: category.image ?? '',
  });
  const [version, setVersion] = useState(category.version);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<{ message: string; theirs: CategoryEdit; version: number } | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(event?: FormEvent, overVersion?: number) {
    event?.preventDefault();
    const checked = v.safeParse(SaveCategorySchema, {
      version: overVersion ?? version,
      edit: { ...edit, image: edit.image.trim() || null },
    });
    if (!checked.success) return setErrors(issuesToFieldErrors(checked.issues));
    setErrors({});
    setSaving(true);
    try {
      const saved = await api<{ entry: { version: number } }>(`/admin/catalogue/categories/${category.slug}`, {
        method: 'PUT',
        body: checked.output,
      });
      setVersion(saved.entry.version);
      toast.success(`${category.name} saved`);
      await Promise.all([
        client.invalidateQueries({ queryKey: CATALOGUE_KEY }),
        client.invalidateQueries({ queryKey: ['admin-catalogue-rebuild'] }),
      ]);
      onDone();
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409) {
        const body = (await api<CatalogueData>('/admin/catalogue')).categories.find((c) => c.slug === category.slug)!;
        setConflict({
          message: cause.message,
          theirs: { description: body.description, color: body.color, image: body.image },
          version: body.version,
        });
      } else if (cause instanceof ApiError && cause.errors.length > 0)
        setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
      else toast.error(cause instanceof Error ? cause.message : 'Could not save.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="catalogue-form" onSubmit={save} noValidate aria-labelledby="category-form-title">
      <h2 className="admin-subtitle" id="category-form-title">
        Edit {category.name}
      </h2>
      {conflict && (
        <div className="admin-banner is-error" role="alert">
          <p>{conflict.message}</p>
          <div className="admin-actions">
            <button
              type="button"
              className="admin-btn admin-btn--ghost"
              onClick={() => {
                setEdit({ ...conflict.theirs, image: conflict.theirs.image ?? '' });
                setVersion(conflict.version);
                setConflict(null);
              }}
            >
              Show their version
            </button>
            <button
              type="button"
              className="admin-btn admin-btn--primary"
              onClick={() => {
                setVersion(conflict.version);
                setConflict(null);
                void save(undefined, conflict.version);
              }}
            >
              Save my version over it
            </button>
          </div>
        </div>
      )}
      <fieldset className="admin-card">
        <legend>Category</legend>
        <Field label="Description" error={errors['edit.description']}>
          {(p) => (
            <textarea
              {...p}
              rows={3}
              value={edit.description}
              onChange={(e) => setEdit({ ...edit, description: e.target.value })}
            />
          )}
        </Field>
        <Field label="Colour" hint="#rrggbb; cards and the category's page use it" error={errors['edit.color']}>
          {(p) => (
            <span className="catalogue-colour">
              <input
                type="color"
                aria-label="Pick the colour"
                value={/^#[0-9a-f]{6}$/i.test(edit.color) ? edit.color : '#000000'}
                onChange={(e) => setEdit({ ...edit, color: e.target.value })}
              />
              <input
                {...p}
                value={edit.color}
                onChange={(e) => setEdit({ ...edit, color: e.target.value })}
                autoComplete="off"
              />
            </span>
          )}
        </Field>
        <Field
          label="Image"
          hint="An address on this site: /images/... or an uploaded image (/api/uploads/...). Empty: the category's own picture."
          error={errors['edit.image']}
        >
          {(p) => (
            <input
              {...p}
              value={edit.image}
              onChange={(e) => setEdit({ ...edit, image: e.target.value })}
              placeholder={`/images/categories/${category.slug}.svg`}
            />
          )}
        </Field>
        <img
          className="catalogue-preview"
          src={edit.image.trim() || category.picture}
          alt=""
          width={160}
          height={100}
        />
        {category.updatedBy && (
          <p className="admin-hint">
            Last saved {category.updatedAt ? time(category.updatedAt) : ''} by {category.updatedBy}
          </p>
        )}
      </fieldset>
      <div className="admin-actions">
        <button type="submit" className="admin-btn admin-btn--primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save changes'}
        </button>
        <button type="button" className="admin-btn admin-btn--ghost" onClick={onDone}>
          Back to the list
        </button>
      </div>
    </form>
  );
}

/** Manage Categories: description, colour and image of each industry sector. */
export function CategoriesPage() {
  const { data, isPending, isError, refetch } = useCatalogue();
  const [open, setOpen] = useState<string | null>(null);
  const category = data?.categories.find((c) => c.slug === open);
  return (
    <>
      <p className="admin-lead">View the industry sectors and how many courses each one lists.</p>
      {isPending ? (
        <p className="admin-loading" role="status">
          Loading categories...
        </p>
      ) : !data ? (
        <Failed retry={() => void refetch()} />
      ) : (
        <>
          {isError && <Stale retry={() => void refetch()} />}
          <Banners data={data} />
          {category ? (
            <CategoryForm
              key={`${category.slug}-${category.version}`}
              category={category}
              onDone={() => setOpen(null)}
            />
          ) : (
            <table className="admin-table catalogue-table">
              <caption>{data.categories.length} categories</caption>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">Description</th>
                  <th scope="col">Colour</th>
                  <th scope="col">Courses</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.categories.map((c) => (
                  <tr key={c.slug}>
                    <th scope="row" data-label="Category">
                      <a href={`/category/${c.slug}`}>{c.name}</a>
                    </th>
                    <td data-label="Description">{c.description}</td>
                    <td data-label="Colour">
                      <span>
                        <span className="catalogue-swatch" ref={(el) => el?.style.setProperty('--swatch', c.color)} />
                        {c.color}
                      </span>
                    </td>
                    <td data-label="Courses">{c.courseCount}</td>
                    <td className="catalogue-table__action">
                      <button
                        type="button"
                        className="admin-btn admin-btn--ghost"
                        onClick={() => setOpen(c.slug)}
                        aria-label={`Edit ${c.name}`}
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </>
  );
}
