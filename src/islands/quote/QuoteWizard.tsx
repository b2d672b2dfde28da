import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import * as v from 'valibot';
import { Check } from 'lucide-react';
import type { ResultItem } from '../../lib/quote-result';
import { CONTACT_TIMES, ELAPSED_FIELD, HONEYPOT_FIELD, LIMITS, QUOTE_STEP_FIELDS, QuoteSchema, STATES, fieldErrors } from '../../schemas/inquiry';
import { Field, FormStatus, Honeypot, elapsedSincePageLoad, postJson } from '../fields';
import { CollectionNotice, ConsentChoices } from '../PrivacyNotice';
import {
  STEP_COUNT, STEP_REQUIREMENT, STEP_TITLES, canContinue, clearProgress, coursesFor, emptyDraft, loadProgress, saveProgress,
  toggleCategory, toggleCourse, type QuoteCategory, type QuoteCourse, type QuoteDraft, type Step,
} from './steps';
import { quoteRtoParts, type Part } from '../../lib/partner-rto';
import type { PartnerRto } from '../../schemas/site-settings';
import { searchCourses } from '../../lib/course-search';
import { applyPreselect, hasPreselect, readPreselectParams, resolvePreselect, type Preselect } from './preselect';
import { QuoteResult } from './QuoteResult';
import { loadSearchCourses } from '../../lib/search-data';
import type { SearchableCourse } from '../../lib/course-search';
import './QuoteWizard.css';

/** SPEC 8. */
export const QUOTE_ERROR = 'There was an error submitting your form. Please try again.';

interface Props {
  categories: QuoteCategory[];
  courses: QuoteCourse[];
  /** Partner RTOs from site settings at build time; refreshed from the public settings on confirmation. */
  partnerRtos?: PartnerRto[];
}

/** sessionStorage, or null where the browser refuses it (progress is then simply not kept). */
function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The five-step free quote (SPEC 2.12, 3, 5). One form whose content changes per step; Enter in a
 * field moves on like Next. Progress is kept in sessionStorage for a reload in the same tab and
 * cleared after a successful submission. Focus moves to each step's heading.
 */
export default function QuoteWizard({ categories, courses, partnerRtos = [] }: Props) {
  const id = useId();
  const [step, setStep] = useState<Step>(1);
  const [draft, setDraft] = useState<QuoteDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ detail?: string; errors: { field: string; message: string }[] } | null>(null);
  const [done, setDone] = useState<{ name: string; id: string; result: ResultItem[]; notSure: boolean } | null>(null);
  const [preselected, setPreselected] = useState<Preselect | null>(null);
  const [rtos, setRtos] = useState<PartnerRto[]>(partnerRtos);
  // The course filter searches job names too: the islands' shared search data, fetched when the filter is first used.
  const [searchable, setSearchable] = useState<SearchableCourse[] | null>(null);
  const filterCourses = (value: string) => {
    setCourseFilter(value);
    if (!searchable) loadSearchCourses().then(setSearchable).catch(() => undefined);
  };
  const [courseFilter, setCourseFilter] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const moved = useRef(false);
  const restored = useRef(false);

  // Restore before the first paint after hydration (the server renders step 1 with nothing filled
  // in), and keep anything typed into step 1 before the island hydrated.
  useLayoutEffect(() => {
    const storage = tabStorage();
    const saved = storage && loadProgress(storage, categories, courses);
    const restoredDraft = saved?.draft ?? emptyDraft();
    if (!saved || saved.step === 1) {
      for (const name of QUOTE_STEP_FIELDS[1]) {
        const typed = (formRef.current?.elements.namedItem(name) as HTMLInputElement | null)?.value;
        if (typed) restoredDraft[name] = typed;
      }
    }
    // `?course=` or `?search=` (a course page's quote link, a search): choose that course and its category.
    const params = readPreselectParams(window.location.search);
    const direct = resolvePreselect(params, courses, categories);
    setStep(saved?.step ?? 1);
    setDraft(direct ? applyPreselect(restoredDraft, direct) : restoredDraft);
    setPreselected(direct);
    restored.current = true;
    if (hasPreselect(params)) {
      // Taken once: a reload or a later visit in this tab keeps the visitor's own choices.
      const url = new URL(window.location.href);
      for (const name of ['course', 'search']) url.searchParams.delete(name);
      window.history.replaceState(window.history.state, '', url);
    }
    if (!direct && params.search) {
      // The search code loads only when a search was passed.
      void import('../../lib/course-search').then(({ searchCourses }) => {
        const found = resolvePreselect(params, courses, categories, searchCourses);
        if (!found) return;
        setDraft((current) => applyPreselect(current, found));
        setPreselected(found);
      });
    }
  }, [categories, courses]);

  useEffect(() => {
    const storage = tabStorage();
    if (restored.current && storage && !done) saveProgress(storage, { step, draft });
  }, [step, draft, done]);

  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    headingRef.current?.focus();
  }, [step, done]);

  const categoryName = useMemo(() => new Map(categories.map((c) => [c.slug, c.name])), [categories]);
  const courseByCode = useMemo(() => new Map(courses.map((c) => [c.code, c])), [courses]);
  const fieldId = (name: string) => `${id}-${name}`;

  const update = (patch: Partial<QuoteDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    const changed = Object.keys(patch);
    if (changed.some((key) => errors[key])) setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !changed.includes(key))));
  };

  const goTo = (next: Step) => {
    moved.current = true;
    setErrors({});
    setFailure(null);
    setCourseFilter('');
    setStep(next);
  };

  const payload = () => {
    const trap = formRef.current?.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement | null;
    return { ...draft, [HONEYPOT_FIELD]: trap?.value ?? '', [ELAPSED_FIELD]: elapsedSincePageLoad() };
  };

  /** Problems with the current step's fields (the same schema the server uses). */
  const stepErrors = (which: Step) => {
    const result = v.safeParse(QuoteSchema, payload(), { abortPipeEarly: true });
    if (result.success) return {};
    const fields: readonly string[] = QUOTE_STEP_FIELDS[which];
    return Object.fromEntries(Object.entries(fieldErrors(result.issues)).filter(([field]) => fields.includes(field)));
  };

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !canContinue(step, draft)) return;
    const found = stepErrors(step);
    if (Object.keys(found).length) {
      setErrors(found);
      const first = Object.keys(found)[0];
      (formRef.current?.elements.namedItem(first) as HTMLElement | null)?.focus();
      return;
    }
    if (step < STEP_COUNT) {
      goTo((step + 1) as Step);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const { ok, data } = await postJson('/api/email/quote', payload());
      if (ok && data.success === true) {
        const storage = tabStorage();
        if (storage) clearProgress(storage);
        moved.current = true;
        const answer = data as { id?: unknown; result?: unknown };
        setDone({
          name: draft.firstName.trim(),
          id: typeof answer.id === 'string' ? answer.id : '',
          result: Array.isArray(answer.result) ? (answer.result as ResultItem[]) : [],
          notSure: draft.notSure,
        });
        // The confirmation names the delivering RTO as staff saved it, even before the pages are rebuilt.
        fetch('/api/public/site-settings', { headers: { Accept: 'application/json' } })
          .then((response) => (response.ok ? response.json() : null))
          .then((settings: { partnerRtos?: unknown } | null) => { if (Array.isArray(settings?.partnerRtos)) setRtos(settings.partnerRtos as PartnerRto[]); })
          .catch(() => undefined);
      } else {
        setFailure({ errors: data.errors ?? [], detail: data.errors?.length ? undefined : data.message });
      }
    } catch {
      setFailure({ errors: [] });
    } finally {
      setBusy(false);
    }
  };

  if (done !== null) {
    return (
      <div className="quote">
        <QuoteResult headingRef={headingRef} name={done.name} reference={done.id} items={done.result} notSure={done.notSure}>
          <p data-testid="quote-rto">{renderParts(quoteRtoParts(rtos, courses.filter((course) => draft.selectedCourses.includes(course.code))))}</p>
        </QuoteResult>
      </div>
    );
  }

  const ready = canContinue(step, draft);
  const requirementId = fieldId('requirement');

  return (
    <div className="quote">
      <nav aria-label="Quote progress">
        <ol className="quote-progress">
          {STEP_TITLES.map((title, index) => {
            const n = index + 1;
            const state = n < step ? 'done' : n === step ? 'current' : 'todo';
            return (
              <li key={title} className={`quote-progress__step is-${state}${n <= step ? ' is-active' : ''}`} aria-current={n === step ? 'step' : undefined}>
                <span className="quote-progress__num" aria-hidden="true">{n < step ? <Check size={18} /> : n}</span>
                <span className="quote-progress__label">
                  <span className="visually-hidden">Step {n}:</span> {title}
                  {n < step && <> <span className="visually-hidden">(completed)</span></>}
                </span>
              </li>
            );
          })}
        </ol>
      </nav>

      <form ref={formRef} className="quote__form card" noValidate onSubmit={onSubmit} aria-labelledby={fieldId('heading')}>
        <p className="quote__count">Step {step} of {STEP_COUNT}</p>
        <h2 id={fieldId('heading')} ref={headingRef} tabIndex={-1} className="quote__heading">{STEP_TITLES[step - 1]}</h2>

        {step === 1 && (
          <>
            {preselected && courseByCode.has(preselected.code) && (
              <p className="quote__preselected" role="status">
                <Check size={18} aria-hidden="true" />
                <span>
                  You're asking about <strong>{courseByCode.get(preselected.code)!.title}</strong> ({preselected.code}). It is already chosen in
                  step 3; you can change it there.
                </span>
              </p>
            )}
            <p className="form-note">Tell us who you are and how to reach you. Fields marked * are required.</p>
            <div className="form-grid">
              <Field id={fieldId('firstName')} name="firstName" label="First name" required autoComplete="given-name" maxLength={LIMITS.name} value={draft.firstName} onChange={(firstName) => update({ firstName })} error={errors.firstName} />
              <Field id={fieldId('lastName')} name="lastName" label="Last name" required autoComplete="family-name" maxLength={LIMITS.name} value={draft.lastName} onChange={(lastName) => update({ lastName })} error={errors.lastName} />
              <Field id={fieldId('email')} name="email" label="E-mail" type="email" required autoComplete="email" maxLength={LIMITS.email} value={draft.email} onChange={(email) => update({ email })} error={errors.email} />
              <Field id={fieldId('phone')} name="phone" label="Phone" type="tel" required autoComplete="tel" maxLength={LIMITS.phone} value={draft.phone} onChange={(phone) => update({ phone })} error={errors.phone} />
            </div>
            <CollectionNotice purpose="quote" />
          </>
        )}

        {step === 2 && (
          <fieldset className="choice-set">
            <legend className="choice-set__legend">Choose the industries you have worked in (one or more).</legend>
            <ul className="choice-grid" role="list">
              {categories.map((category) => (
                <li key={category.slug}>
                  <label className="choice">
                    <input
                      type="checkbox"
                      name="selectedCategories"
                      value={category.slug}
                      checked={draft.selectedCategories.includes(category.slug)}
                      onChange={() => update(toggleCategory(draft, category.slug, courses))}
                    />
                    <span>{category.name}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}

        {step === 3 && (
          <CourseStep
            searchable={searchable}
            idPrefix={id}
            courses={coursesFor(courses, draft.selectedCategories)}
            groups={draft.selectedCategories.length ? draft.selectedCategories : categories.map((c) => c.slug)}
            categoryName={categoryName}
            selected={draft.selectedCourses}
            filter={courseFilter}
            onFilter={filterCourses}
            onToggle={(code) => update(toggleCourse(draft, code))}
            notSure={draft.notSure}
            onNotSure={(notSure) => update({ notSure })}
          >
            <div className="form-grid quote__about">
              <Field id={fieldId('experience')} name="experience" label="Your experience (optional)" hint={draft.notSure ? 'Roles, years and main duties. We suggest qualifications from what you write here.' : 'Roles, years and main duties.'} multiline rows={4} maxLength={LIMITS.longText} value={draft.experience} onChange={(experience) => update({ experience })} error={errors.experience} />
              <Field id={fieldId('goals')} name="goals" label="Your goals (optional)" hint="What the qualification would help you do." multiline rows={4} maxLength={LIMITS.longText} value={draft.goals} onChange={(goals) => update({ goals })} error={errors.goals} />
            </div>
          </CourseStep>
        )}

        {step === 4 && (
          <div className="form-grid">
            <SelectField id={fieldId('preferredContact')} name="preferredContact" label="Best time to contact you (optional)" value={draft.preferredContact} onChange={(preferredContact) => update({ preferredContact })} placeholder="No preference" options={CONTACT_TIMES} error={errors.preferredContact} />
            <SelectField id={fieldId('state')} name="state" label="State or territory" required value={draft.state} onChange={(state) => update({ state })} placeholder="Choose your state" options={STATES} error={errors.state} />
            <Field id={fieldId('additionalInfo')} name="additionalInfo" label="Anything else we should know? (optional)" multiline rows={4} maxLength={LIMITS.longText} value={draft.additionalInfo} onChange={(additionalInfo) => update({ additionalInfo })} error={errors.additionalInfo} />
          </div>
        )}

        {step === 5 && (
          <div className="review">
            <ReviewSection title="Personal Info" onEdit={() => goTo(1)}>
              <dl>
                <Row label="Name" value={`${draft.firstName} ${draft.lastName}`} />
                <Row label="E-mail" value={draft.email} />
                <Row label="Phone" value={draft.phone} />
              </dl>
            </ReviewSection>
            <ReviewSection title="Categories" onEdit={() => goTo(2)}>
              <ul>{draft.selectedCategories.map((slug) => <li key={slug}>{categoryName.get(slug) ?? slug}</li>)}</ul>
            </ReviewSection>
            <ReviewSection title="Courses" onEdit={() => goTo(3)}>
              {draft.notSure && <p className="review__note">Not sure: suggest qualifications from my experience.</p>}
              <ul>
                {draft.selectedCourses.map((code) => {
                  const course = courseByCode.get(code);
                  return <li key={code}><strong>{code}</strong> {course?.title}</li>;
                })}
              </ul>
              {(draft.experience || draft.goals) && (
                <dl>
                  {draft.experience && <Row label="Experience" value={draft.experience} />}
                  {draft.goals && <Row label="Goals" value={draft.goals} />}
                </dl>
              )}
            </ReviewSection>
            <ReviewSection title="Contact & Location" onEdit={() => goTo(4)}>
              <dl>
                <Row label="Best time to contact" value={draft.preferredContact || 'No preference'} />
                <Row label="State" value={draft.state} />
                {draft.additionalInfo && <Row label="Anything else" value={draft.additionalInfo} />}
              </dl>
            </ReviewSection>
            <div className="terms">
              <input
                id={fieldId('acceptedTerms')}
                type="checkbox"
                name="acceptedTerms"
                checked={draft.acceptedTerms}
                onChange={(event) => update({ acceptedTerms: event.target.checked })}
                aria-invalid={errors.acceptedTerms ? true : undefined}
                aria-describedby={errors.acceptedTerms ? fieldId('acceptedTerms-error') : undefined}
              />
              <label htmlFor={fieldId('acceptedTerms')}>
                I agree to be bound by the{' '}
                <a href="/terms-conditions" target="_blank" rel="noopener">terms and conditions <span className="visually-hidden">(opens in a new tab)</span></a>
              </label>
              {errors.acceptedTerms && <p id={fieldId('acceptedTerms-error')} className="field__error">{errors.acceptedTerms}</p>}
            </div>
            <ConsentChoices
              idPrefix={id}
              purpose="quote"
              values={{ consentPartnerRto: draft.consentPartnerRto, consentMarketing: draft.consentMarketing }}
              onChange={(field, checked) => update({ [field]: checked })}
            />
          </div>
        )}

        <Honeypot name={HONEYPOT_FIELD} />

        <div className="quote__nav">
          {step > 1 && (
            <button type="button" className="btn btn--outline" onClick={() => goTo((step - 1) as Step)} disabled={busy}>Previous</button>
          )}
          <button type="submit" className="btn btn--accent quote__next" disabled={!ready || busy} aria-describedby={ready ? undefined : requirementId}>
            {step < STEP_COUNT ? 'Next' : busy ? 'Submitting...' : 'Submit Request'}
          </button>
        </div>
        {!ready && <p id={requirementId} className="quote__requirement">{STEP_REQUIREMENT[step]}</p>}

        <FormStatus error={failure ? QUOTE_ERROR : undefined}>
          {failure?.detail && <p className="form-status__detail">{failure.detail}</p>}
          {failure && failure.errors.length > 0 && <ul>{failure.errors.map((e) => <li key={e.field + e.message}>{e.message}</li>)}</ul>}
        </FormStatus>
      </form>
    </div>
  );
}

function CourseStep(props: {
  /** Every course with its job names, once loaded (the filter then finds "carpenter" too). */
  searchable: SearchableCourse[] | null;
  idPrefix: string;
  courses: QuoteCourse[];
  groups: string[];
  categoryName: Map<string, string>;
  selected: string[];
  filter: string;
  onFilter: (value: string) => void;
  onToggle: (code: string) => void;
  notSure: boolean;
  onNotSure: (value: boolean) => void;
  children: ReactNode;
}) {
  const { idPrefix, courses, searchable, groups, categoryName, selected, filter, onFilter, onToggle, notSure, onNotSure, children } = props;
  const hits = new Set(searchCourses(searchable ?? courses, { search: filter }).map((course) => course.code));
  const matches = (course: QuoteCourse) => hits.has(course.code) || selected.includes(course.code);
  const shown = courses.filter(matches);
  return (
    <>
      <label className="choice choice--unsure">
        <input type="checkbox" name="notSure" checked={notSure} onChange={(event) => onNotSure(event.target.checked)} />
        <span>
          <span className="choice__title">Not sure — suggest qualifications from my experience</span>
          <span className="choice__meta">Tick this instead of choosing, or as well. Tell us about your work below and we match it to the qualifications that fit.</span>
        </span>
      </label>
      <div className="course-filter">
        <label htmlFor={`${idPrefix}-course-filter`} className="field__label">Filter the list</label>
        <input
          id={`${idPrefix}-course-filter`}
          type="search"
          className="field__control"
          placeholder="Job, title, code or level"
          value={filter}
          onChange={(event) => onFilter(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
          aria-describedby={`${idPrefix}-course-count`}
        />
        <p id={`${idPrefix}-course-count`} className="field__hint" aria-live="polite">
          {selected.length} selected · {shown.length} of {courses.length} shown
        </p>
      </div>
      <fieldset className="choice-set">
        <legend className="choice-set__legend">Choose the qualifications you are interested in (one or more).</legend>
        {groups.map((slug) => {
          const list = shown.filter((course) => course.category === slug);
          if (!list.length) return null;
          return (
            <div key={slug} className="course-group">
              <h3 className="course-group__title">{categoryName.get(slug) ?? slug}</h3>
              <ul className="course-list" role="list">
                {list.map((course) => (
                  <li key={course.code}>
                    <label className="choice choice--course">
                      <input type="checkbox" name="selectedCourses" value={course.code} checked={selected.includes(course.code)} onChange={() => onToggle(course.code)} />
                      <span>
                        <span className="choice__title">{course.title}</span>
                        <span className="choice__meta">{course.code} · {course.level}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
        {!shown.length && <p className="field__hint">No course matches “{filter}”.</p>}
      </fieldset>
      {children}
    </>
  );
}

function SelectField(props: {
  id: string; name: string; label: string; value: string; onChange: (value: string) => void;
  placeholder: string; options: readonly string[]; required?: boolean; error?: string;
}) {
  const { id, name, label, value, onChange, placeholder, options, required, error } = props;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
        {required && <span className="field__required" aria-hidden="true"> *</span>}
      </label>
      <select
        id={id}
        name={name}
        className="field__control"
        value={value}
        required={required}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => <option key={option} value={option}>{option}</option>)}
      </select>
      {error && <p id={`${id}-error`} className="field__error">{error}</p>}
    </div>
  );
}

function ReviewSection({ title, onEdit, children }: { title: string; onEdit: () => void; children: ReactNode }) {
  return (
    <section className="review__section">
      <div className="review__head">
        <h3>{title}</h3>
        <button type="button" className="review__edit" onClick={onEdit}>
          Edit <span className="visually-hidden">{title}</span>
        </button>
      </div>
      {children}
    </section>
  );
}

const Row = ({ label, value }: { label: string; value: string }) => (
  <div className="review__row">
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
);

function renderParts(parts: Part[]): ReactNode[] {
  return parts.map((part, index) => (typeof part === 'string' ? part : <a key={index} href={part.href} rel="external">{part.text}</a>));
}
