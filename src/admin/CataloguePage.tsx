import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import * as v from 'valibot';
import { api, ApiError, failureText } from './api';
import { Field, SelectField, TextField, type Choice } from './catalogue-fields';
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
import { Loading } from './Loading';
import { RegisterCheckPanel, RegisterMarks, type RegisterCheckView } from './catalogue/RegisterCheck';

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
  registerCheck: { checkedAt: string; status: string } | null;
  watch: string | null;
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
  registerCheck: RegisterCheckView | null;
  workRequirement: { hours: number; note: string } | null;
  watch: string | null;
  accreditedUntil: string | null;
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
    refetchInterval: (query) =>
      ['requested', 'queued', 'building'].includes(query.state.data?.state ?? '') ? 3000 : false,
  });
  if (data.state === 'none') return null;
  const texts: Record<Exclude<Rebuild['state'], 'none'>, string> = {
    requested: `Rebuild requested at ${time(data.requestedAt)}; the public pages change when it is live.`,
    building: `Rebuilding the site (requested at ${time(data.requestedAt)})...`,
    queued: `Rebuild queued at ${time(data.requestedAt)}: it starts as soon as the rebuild already running ends. Nothing to do.`,
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

/** A load that failed, with a way to try again. */
function RetryAlert({ text, retry }: { text: string; retry: () => void }) {
  return (
    <div role="alert" className="admin-banner is-error">
      <p>{text}</p>
      <button type="button" className="admin-btn admin-btn--ghost" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

const Failed = ({ retry }: { retry: () => void }) => (
  <RetryAlert text="The catalogue could not be loaded." retry={retry} />
);

/** A refresh failed but the last list is still shown. */
const Stale = ({ retry }: { retry: () => void }) => (
  <RetryAlert text="The list could not be refreshed; it may be out of date." retry={retry} />
);

/** What both pages show around their list or form: the lead, the loading and failure states and the banners. */
function CatalogueView({
  query: { data, isPending, isError, refetch },
  lead,
  loading,
  children,
}: {
  query: ReturnType<typeof useCatalogue>;
  lead: string;
  loading: string;
  children: (data: CatalogueData) => ReactNode;
}) {
  return (
    <>
      <p className="admin-lead">{lead}</p>
      {isPending ? (
        <Loading text={loading} />
      ) : !data ? (
        <Failed retry={() => void refetch()} />
      ) : (
        <>
          {isError && <Stale retry={() => void refetch()} />}
          <Banners data={data} />
          {children(data)}
        </>
      )}
    </>
  );
}

/** A list table: its column headings (and a last, unnamed one for the Edit buttons) and its rows. */
function ListTable({ caption, columns, children }: { caption?: string; columns: string[]; children: ReactNode }) {
  return (
    <table className="admin-table catalogue-table">
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

function EditCell({ label, onEdit }: { label: string; onEdit: () => void }) {
  return (
    <td className="catalogue-table__action">
      <button type="button" className="admin-btn admin-btn--ghost" onClick={onEdit} aria-label={label}>
        Edit
      </button>
    </td>
  );
}

const toLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

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

interface Conflict<T> {
  message: string;
  theirs: T;
  version: number;
}

/**
 * Saving an entry that carries a version: the check before sending, errors by field, the 409 when someone
 * saved it first (their version to show or to save over) and the refresh of the lists after a save.
 * Without `loadTheirs` (a new entry) a 409 is shown like any other refusal.
 */
function useVersionedSave<T>(firstVersion: number, loadTheirs?: () => Promise<{ theirs: T; version: number }>) {
  const client = useQueryClient();
  const [version, setVersion] = useState(firstVersion);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<Conflict<T> | null>(null);
  const [saving, setSaving] = useState(false);

  /** Checks and sends `body`; true once saved, the lists refreshed and `done` run; false with the problems shown. */
  async function submit<R extends { entry: { version: number } }>(request: {
    schema: v.GenericSchema;
    body: unknown;
    send: (checked: unknown) => Promise<R>;
    message: (answer: R) => string;
    done: (answer: R) => void;
  }): Promise<boolean> {
    const checked = v.safeParse(request.schema, request.body);
    if (!checked.success) {
      setErrors(issuesToFieldErrors(checked.issues));
      return false;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = await request.send(checked.output);
      setVersion(answer.entry.version);
      setConflict(null);
      toast.success(request.message(answer));
      await Promise.all([
        client.invalidateQueries({ queryKey: CATALOGUE_KEY }),
        client.invalidateQueries({ queryKey: ['admin-catalogue-rebuild'] }),
      ]);
      request.done(answer);
      return true;
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409 && loadTheirs) {
        setConflict({ message: cause.message, ...(await loadTheirs()) });
      } else if (cause instanceof ApiError && cause.errors.length > 0) {
        setErrors(Object.fromEntries(cause.errors.map((e) => [e.field, e.message])));
        toast.error(cause.message);
      } else toast.error(failureText(cause, 'Could not save. Please try again.'));
      return false;
    } finally {
      setSaving(false);
    }
  }

  /** Closes the conflict, going on from their version number; gives the conflict. */
  const settle = (open: Conflict<T>) => {
    setVersion(open.version);
    setConflict(null);
    return open;
  };

  return { version, errors, conflict, saving, submit, settle };
}

/** Someone else saved first: take their version into the form, or save this one over it. */
function ConflictBanner({
  message,
  onShowTheirs,
  onSaveMine,
}: {
  message: string;
  onShowTheirs: () => void;
  onSaveMine: () => void;
}) {
  return (
    <div className="admin-banner is-error" role="alert" data-testid="conflict">
      <p>{message}</p>
      <div className="admin-actions">
        <button type="button" className="admin-btn admin-btn--ghost" onClick={onShowTheirs}>
          Show their version
        </button>
        <button type="button" className="admin-btn admin-btn--primary" onClick={onSaveMine}>
          Save my version over it
        </button>
      </div>
    </div>
  );
}

function FormActions({
  className,
  saving,
  label,
  onBack,
}: {
  className: string;
  saving: boolean;
  label: string;
  onBack: () => void;
}) {
  return (
    <div className={className}>
      <button type="submit" className="admin-btn admin-btn--primary" disabled={saving}>
        {saving ? 'Saving...' : label}
      </button>
      <button type="button" className="admin-btn admin-btn--ghost" onClick={onBack}>
        Back to the list
      </button>
    </div>
  );
}

const LEVEL_CHOICES: Choice[] = LEVELS.map((level) => [level, level]);
const categoryChoices = (data: CatalogueData): Choice[] => data.categories.map((c) => [c.slug, c.name]);

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
  const adding = !entry;
  const [draft, setDraft] = useState<Draft>(() =>
    toDraft(
      entry?.edit ?? { featured: false, details: {} as CourseEdit['details'], evidence: [], terms: [], retired: null },
    ),
  );
  const [facts, setFacts] = useState(EMPTY_FACTS);
  const { version, errors, conflict, saving, submit, settle } = useVersionedSave<CourseEdit>(
    entry?.version ?? 0,
    entry &&
      (async () => {
        const theirs = await api<CourseEntry>(`/admin/catalogue/courses/${entry.code}`);
        return { theirs: theirs.edit, version: theirs.version };
      }),
  );
  const summary = useRef<HTMLDivElement>(null);
  const set = (key: keyof Draft, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));

  const errorFor = (key: string) => errors[`edit.details.${key}`] ?? errors[`edit.${key}`];
  /** Value, change and error of a text in the draft. */
  const drafted = (key: Exclude<keyof Draft, 'featured' | 'retired'>, error = errorFor(key)) => ({
    value: draft[key],
    onChange: (value: string) => set(key, value),
    error,
  });
  const fact = (key: keyof typeof EMPTY_FACTS, error = errors[`facts.${key}`]) => ({
    value: facts[key],
    onChange: (value: string) => setFacts({ ...facts, [key]: value }),
    error,
  });

  async function save(event?: FormEvent, overVersion?: number) {
    event?.preventDefault();
    const { code, ...registered } = facts;
    const edit = fromDraft(draft);
    const saved = await submit<{ entry: { code: string; version: number } }>({
      schema: adding ? AddCourseSchema : SaveCourseSchema,
      body: adding ? { code, facts: registered, edit } : { version: overVersion ?? version, edit },
      send: (body) =>
        api(adding ? '/admin/catalogue/courses' : `/admin/catalogue/courses/${entry.code}`, {
          method: adding ? 'POST' : 'PUT',
          body,
        }),
      message: (answer) => `${answer.entry.code} ${adding ? 'added' : 'saved'}`,
      done: (answer) => onDone(answer.entry.code),
    });
    if (!saved) requestAnimationFrame(() => summary.current?.focus());
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
          <ConflictBanner
            message={conflict.message}
            onShowTheirs={() => setDraft(toDraft(settle(conflict).theirs))}
            onSaveMine={() => void save(undefined, settle(conflict).version)}
          />
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
              <TextField
                label="National code"
                hint="5 to 12 letters and digits, such as BSB50120"
                autoComplete="off"
                {...fact('code', errors.code)}
              />
              <TextField label="Title on the register" {...fact('title')} />
              <SelectField label="Level" empty="Choose a level" choices={LEVEL_CHOICES} {...fact('level')} />
              <SelectField
                label="Category"
                empty="Choose a category"
                choices={categoryChoices(data)}
                {...fact('category')}
              />
              <TextField
                label="Checked against"
                hint="The register page's address, or what you searched"
                placeholder="https://training.gov.au/Training/Details/..."
                {...fact('source')}
              />
              <TextField label="Checked on" type="date" {...fact('checkedOn')} />
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
              <dt>Facts stated (staff note)</dt>
              <dd>
                {entry.facts.checkedOn}, from {entry.facts.source}
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
          <TextField
            key={key}
            label={field.label}
            hint={
              field.kind === 'lines'
                ? `One item a line${'min' in field ? `, at least ${field.min}` : ''}${'optional' in field ? ' (may be left empty)' : ''}.`
                : undefined
            }
            rows={field.kind === 'lines' ? 4 : key === 'about' ? 2 : 4}
            {...drafted(key as keyof typeof DETAIL_FIELDS)}
          />
        ))}
        <TextField
          label="Evidence checklist for this qualification"
          hint="One item a line, at most 8. The category's list and the items every applicant needs are added after these."
          rows={4}
          {...drafted('evidence')}
        />
        <TextField
          label="Occupations and search words"
          hint="One a line, most typical first (the first three count more in the search): lower case, such as carpenter or chippy."
          rows={4}
          {...drafted('terms')}
        />
      </fieldset>

      {!adding && (
        <fieldset className="admin-card">
          <legend>Retire</legend>
          <label className="catalogue-check">
            <input type="checkbox" checked={draft.retired} onChange={(e) => set('retired', e.target.checked)} /> Retire
            this qualification (its page leaves the site)
          </label>
          {draft.retired && (
            <SelectField
              label="Successor (optional)"
              hint="Its old address then sends visitors to the successor's page."
              empty="No successor"
              choices={published.map((c) => [c.code, `${c.code} ${c.title}`])}
              {...drafted('successor', errorFor('retired.successor') ?? errors['edit.retired'])}
            />
          )}
        </fieldset>
      )}

      <FormActions
        className="admin-actions catalogue-form__actions"
        saving={saving}
        label={adding ? 'Add qualification' : 'Save changes'}
        onBack={() => onDone()}
      />
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
  if (isPending) return <Loading text={`Loading ${code}...`} />;
  if (isError) return <Failed retry={() => void refetch()} />;
  return (
    <>
      <RegisterCheckPanel
        key={`check-${entry.code}-${entry.registerCheck?.version ?? 0}`}
        code={entry.code}
        title={entry.facts.title}
        check={entry.registerCheck}
        workRequirement={entry.workRequirement}
        watch={entry.watch}
        accreditedUntil={entry.accreditedUntil}
      />
      <CourseForm key={`${entry.code}-${entry.version}`} entry={entry} data={data} onDone={onDone} />
    </>
  );
}

/** Manage Courses: search and filter the qualifications, edit, retire and add them. */
export function CoursesPage() {
  const query = useCatalogue();
  const { data } = query;
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

  const filter = (key: keyof typeof filters) => ({
    value: filters[key],
    onChange: (value: string) => setFilters({ ...filters, [key]: value }),
  });

  const live = (data?.courses ?? []).filter((c) => c.status !== 'retired');
  const retired = (data?.courses.length ?? 0) - live.length;
  const close = (code?: string) => {
    setOpen(null);
    if (code) setFilters((f) => ({ ...f, text: code }));
    requestAnimationFrame(() => listHeading.current?.focus());
  };

  return (
    <CatalogueView
      query={query}
      lead="View the nationally recognised qualifications listed on the site."
      loading="Loading courses..."
    >
      {(data) =>
        open ? (
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
              <TextField label="Search" type="search" placeholder="Code or title" {...filter('text')} />
              <SelectField
                label="Category"
                empty="All categories"
                choices={categoryChoices(data)}
                {...filter('category')}
              />
              <SelectField label="Level" empty="All levels" choices={LEVEL_CHOICES} {...filter('level')} />
              <SelectField
                label="Status"
                empty="Any status"
                choices={Object.entries(STATUS_LABELS)}
                {...filter('status')}
              />
            </div>
            <p className="catalogue-count" role="status">
              {shown.length === data.courses.length ? '' : `Showing ${shown.length} of ${data.courses.length}: `}
              {live.length} published courses, {live.filter((c) => c.featured).length} featured
              {retired > 0 ? `, ${retired} retired` : ''}
            </p>
            {shown.length === 0 ? (
              <p className="catalogue-empty">No course matches these filters.</p>
            ) : (
              <ListTable columns={['Code', 'Title', 'Level', 'Category', 'Status']}>
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
                        <RegisterMarks check={course.registerCheck} watch={course.watch} />
                      </span>
                    </td>
                    <td data-label="Level">{course.level}</td>
                    <td data-label="Category">{course.category.name}</td>
                    <td data-label="Status">
                      <span>
                        <span className={`catalogue-status is-${course.status}`}>{STATUS_LABELS[course.status]}</span>
                        {course.successor && <span className="catalogue-successor"> to {course.successor}</span>}
                      </span>
                    </td>
                    <EditCell
                      label={`Edit ${course.code} ${course.title}`}
                      onEdit={() => setOpen({ mode: 'edit', code: course.code })}
                    />
                  </tr>
                ))}
              </ListTable>
            )}
          </section>
        )
      }
    </CatalogueView>
  );
}

function CategoryForm({ category, onDone }: { category: CategoryRow; onDone: () => void }) {
  const [edit, setEdit] = useState<{ description: string; color: string; image: string }>({
    description: category.description,
    color: category.color,
    image: category.image ?? '',
  });
  const { version, errors, conflict, saving, submit, settle } = useVersionedSave<CategoryEdit>(
    category.version,
    async () => {
      const body = (await api<CatalogueData>('/admin/catalogue')).categories.find((c) => c.slug === category.slug)!;
      return { theirs: { description: body.description, color: body.color, image: body.image }, version: body.version };
    },
  );
  const edited = (key: keyof typeof edit) => ({
    value: edit[key],
    onChange: (value: string) => setEdit({ ...edit, [key]: value }),
    error: errors[`edit.${key}`],
  });

  async function save(event?: FormEvent, overVersion?: number) {
    event?.preventDefault();
    await submit({
      schema: SaveCategorySchema,
      body: { version: overVersion ?? version, edit: { ...edit, image: edit.image.trim() || null } },
      send: (body) =>
        api<{ entry: { version: number } }>(`/admin/catalogue/categories/${category.slug}`, { method: 'PUT', body }),
      message: () => `${category.name} saved`,
      done: onDone,
    });
  }

  return (
    <form className="catalogue-form" onSubmit={save} noValidate aria-labelledby="category-form-title">
      <h2 className="admin-subtitle" id="category-form-title">
        Edit {category.name}
      </h2>
      {conflict && (
        <ConflictBanner
          message={conflict.message}
          onShowTheirs={() => {
            const { theirs } = settle(conflict);
            setEdit({ ...theirs, image: theirs.image ?? '' });
          }}
          onSaveMine={() => void save(undefined, settle(conflict).version)}
        />
      )}
      <fieldset className="admin-card">
        <legend>Category</legend>
        <TextField label="Description" rows={3} {...edited('description')} />
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
        <TextField
          label="Image"
          hint="An address on this site: /images/... or an uploaded image (/api/uploads/...). Empty: the category's own picture."
          placeholder={`/images/categories/${category.slug}.svg`}
          {...edited('image')}
        />
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
      <FormActions className="admin-actions" saving={saving} label="Save changes" onBack={onDone} />
    </form>
  );
}

/** Manage Categories: description, colour and image of each industry sector. */
export function CategoriesPage() {
  const query = useCatalogue();
  const [open, setOpen] = useState<string | null>(null);
  const category = query.data?.categories.find((c) => c.slug === open);
  return (
    <CatalogueView
      query={query}
      lead="View the industry sectors and how many courses each one lists."
      loading="Loading categories..."
    >
      {(data) =>
        category ? (
          <CategoryForm key={`${category.slug}-${category.version}`} category={category} onDone={() => setOpen(null)} />
        ) : (
          <ListTable
            caption={`${data.categories.length} categories`}
            columns={['Category', 'Description', 'Colour', 'Courses']}
          >
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
                <EditCell label={`Edit ${c.name}`} onEdit={() => setOpen(c.slug)} />
              </tr>
            ))}
          </ListTable>
        )
      }
    </CatalogueView>
  );
}
