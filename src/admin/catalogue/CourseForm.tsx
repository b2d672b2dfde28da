import { useRef, useState, type FormEvent } from 'react';
import { api } from '../api';
import { SelectField, TextField } from '../catalogue-fields';
import { AddCourseSchema, DETAIL_FIELDS, SaveCourseSchema } from '../../schemas/catalogue';
import { EditConflict } from '../edits/EditConflict';
import { useLeaveGuard } from '../edits/useLeaveGuard';
import { FormActions } from './CatalogueView';
import { CourseFactList, NewCourseFacts } from './CourseFacts';
import { EMPTY_EDIT, EMPTY_FACTS, draftLabel, fromDraft, toDraft, type Draft } from './course-draft';
import type { CatalogueData, CourseEntry } from './data';
import { useVersionedSave } from './useVersionedSave';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Edit one qualification (or add one, without `entry`). */
export function CourseForm({
  entry,
  data,
  onDone,
}: {
  entry?: CourseEntry;
  data: CatalogueData;
  onDone: (code?: string) => void;
}) {
  const adding = !entry;
  // What is saved now: the form has unsaved changes while it differs from this.
  const [saved, setSaved] = useState(() => ({ draft: toDraft(entry?.edit ?? EMPTY_EDIT), facts: EMPTY_FACTS }));
  const [draft, setDraft] = useState<Draft>(saved.draft);
  const [facts, setFacts] = useState(EMPTY_FACTS);
  const { version, errors, conflict, saving, submit, settle } = useVersionedSave<Draft>(
    entry?.version ?? 0,
    entry &&
      (async () => {
        const theirs = await api<CourseEntry>(`/admin/catalogue/courses/${entry.code}`);
        return { theirs: toDraft(theirs.edit), version: theirs.version };
      }),
  );
  const dirty = !same(draft, saved.draft) || !same(facts, saved.facts);
  const { confirmLeave, dialog } = useLeaveGuard(dirty);
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

  async function save(event?: FormEvent, values = draft, overVersion = version) {
    event?.preventDefault();
    const { code, ...registered } = facts;
    const edit = fromDraft(values);
    const done = await submit<{ entry: { code: string; version: number } }>({
      schema: adding ? AddCourseSchema : SaveCourseSchema,
      body: adding ? { code, facts: registered, edit } : { version: overVersion, edit },
      send: (body) =>
        api(adding ? '/admin/catalogue/courses' : `/admin/catalogue/courses/${entry.code}`, {
          method: adding ? 'POST' : 'PUT',
          body,
        }),
      message: (answer) => `${answer.entry.code} ${adding ? 'added' : 'saved'}`,
      done: (answer) => onDone(answer.entry.code),
    });
    if (!done) requestAnimationFrame(() => summary.current?.focus());
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
          <EditConflict
            conflict={conflict}
            mine={draft}
            label={draftLabel}
            saving={saving}
            onSave={(value, over) => {
              setDraft(value);
              settle(conflict);
              void save(undefined, value, over);
            }}
            onTake={(theirs) => {
              setDraft(theirs);
              setSaved((current) => ({ ...current, draft: theirs }));
              settle(conflict);
            }}
          />
        )}
      </div>

      <fieldset className="admin-card">
        <legend>Qualification facts</legend>
        {adding ? <NewCourseFacts data={data} fact={fact} codeError={errors.code} /> : <CourseFactList entry={entry} />}
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
        onBack={() => confirmLeave(() => onDone())}
      />
      {dialog}
    </form>
  );
}
