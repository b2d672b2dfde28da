import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import * as v from 'valibot';
import { Check } from 'lucide-react';
import type { ResultItem } from '../../catalogue/quote-result';
import { ELAPSED_FIELD, HONEYPOT_FIELD, QUOTE_STEP_FIELDS, QuoteSchema, quoteFieldInfo } from '../../schemas/inquiry';
import { issuesToFieldErrors } from '../../schemas/field-errors';
import { FormStatus, Honeypot, elapsedSincePageLoad, postJson } from '../fields';
import {
  STEP_COUNT,
  STEP_REQUIREMENT,
  STEP_TITLES,
  canContinue,
  clearProgress,
  emptyDraft,
  loadProgress,
  saveProgress,
  type QuoteCategory,
  type QuoteCourse,
  type QuoteDraft,
  type Step,
} from './steps';
import { quoteRtoParts, type Part } from '../../lib/partner-rto';
import { PartnerRtoSchema, type PartnerRto } from '../../schemas/site-settings';
import { applyPreselect, hasPreselect, readPreselectParams, resolvePreselect, type Preselect } from './preselect';
import { QuoteResult } from './QuoteResult';
import { PersonalStep } from './PersonalStep';
import { CategoriesStep } from './CategoriesStep';
import { CoursesStep } from './CoursesStep';
import { ContactStep } from './ContactStep';
import { ReviewStep } from './ReviewStep';
import type { StepProps } from './step-props';
import './QuoteWizard.css';

/** Shown when a quote cannot be sent (docs/texts.md). */
export const QUOTE_ERROR = 'There was an error submitting your form. Please try again.';

/** Valid values for the required fields of later steps (see stepErrors). */
const LATER_STAND_INS = { state: 'NSW', acceptedTerms: true } as const;

interface Props {
  categories: QuoteCategory[];
  courses: QuoteCourse[];
  /** Partner RTOs from site settings at build time; refreshed from the public settings on confirmation. */
  partnerRtos?: PartnerRto[];
  /** The business phone from the site settings, offered when nothing listed matches the experience. */
  phone?: string;
  /** The business hours from the site settings: the days and times a call-back may be asked for. */
  businessHours?: string;
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
 * The five-step free quote. One form whose content changes per step; Enter in a
 * field moves on like Next. Progress is kept in sessionStorage for a reload in the same tab and
 * cleared after a successful submission. Focus moves to each step's heading.
 */
export default function QuoteWizard({ categories, courses, partnerRtos = [], phone, businessHours }: Props) {
  const id = useId();
  const [step, setStep] = useState<Step>(1);
  const [draft, setDraft] = useState<QuoteDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ detail?: string; errors: { field: string; message: string }[] } | null>(
    null,
  );
  const [done, setDone] = useState<{
    name: string;
    reference: string;
    result: ResultItem[];
    notSure: boolean;
    applicantLink?: string;
  } | null>(null);
  // The phone and hours as staff saved them (the result's call button and call-back), refreshed after sending.
  const [contact, setContact] = useState({ phone, businessHours });
  const [preselected, setPreselected] = useState<Preselect | null>(null);
  // A course chosen on its own page fills steps 2 and 3: they show as done and step 1 leads to step 4.
  const [known, setKnown] = useState(false);
  const [rtos, setRtos] = useState<PartnerRto[]>(partnerRtos);
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
        if (typed && quoteFieldInfo(name).typed) Object.assign(restoredDraft, { [name]: typed });
      }
    }
    // `?course=` or `?search=` (a course page's quote link, a search): choose that course and its category.
    const params = readPreselectParams(window.location.search);
    const direct = resolvePreselect(params, courses, categories);
    const startDraft = direct ? applyPreselect(restoredDraft, direct) : restoredDraft;
    const fromCoursePage = direct?.via === 'course';
    const savedStep = saved?.step ?? 1;
    // With the course known, a visitor whose details are already in opens straight at step 4.
    setStep(fromCoursePage && savedStep < 4 && canContinue(1, startDraft) ? 4 : savedStep);
    setDraft(startDraft);
    setPreselected(direct);
    setKnown(fromCoursePage);
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: moves focus to the heading after each step change
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    headingRef.current?.focus();
  }, [step, done]);

  const fieldId = (name: string) => `${id}-${name}`;

  const update = (patch: Partial<QuoteDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    const changed = Object.keys(patch);
    if (changed.some((key) => errors[key]))
      setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !changed.includes(key))));
  };

  const goTo = (next: Step) => {
    moved.current = true;
    setErrors({});
    setFailure(null);
    setStep(next);
  };

  /** Steps 2 and 3 filled in by a course page's link count as done before they are reached. */
  const knownDone = (n: number) => known && (n === 2 || n === 3) && canContinue(n as Step, draft);

  const payload = () => {
    const trap = formRef.current?.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement | null;
    return { ...draft, [HONEYPOT_FIELD]: trap?.value ?? '', [ELAPSED_FIELD]: elapsedSincePageLoad() };
  };

  /** Problems with the current step's fields (the same schema the server uses). */
  const stepErrors = (which: Step) => {
    // The rules across fields (a category or "My industry isn't listed" with the work described) run only when
    // every field is valid, so the required fields of the steps still to come get valid stand-ins here.
    const standIns = Object.entries(LATER_STAND_INS).filter(([field]) => quoteFieldInfo(field as never).step! > which);
    const result = v.safeParse(
      QuoteSchema,
      { ...payload(), ...Object.fromEntries(standIns) },
      { abortPipeEarly: true },
    );
    if (result.success) return {};
    const fields: readonly string[] = QUOTE_STEP_FIELDS[which];
    return Object.fromEntries(
      Object.entries(issuesToFieldErrors(result.issues, 1)).filter(([field]) => fields.includes(field)),
    );
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
      // A course chosen without a category (the industry was not listed, then "Not sure" unticked) brings its own.
      if (step === 3 && !draft.selectedCategories.length && draft.selectedCourses.length) {
        const chosen = new Set(draft.selectedCourses);
        update({
          selectedCategories: [...new Set(courses.filter((c) => chosen.has(c.code)).map((c) => c.category))],
        });
      }
      goTo(step === 1 && knownDone(2) && knownDone(3) ? 4 : ((step + 1) as Step));
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
        const answer = data as { id?: unknown; reference?: unknown; result?: unknown; applicantLink?: unknown };
        setDone({
          name: draft.firstName.trim(),
          reference:
            typeof answer.reference === 'string' ? answer.reference : typeof answer.id === 'string' ? answer.id : '',
          result: Array.isArray(answer.result) ? (answer.result as ResultItem[]) : [],
          notSure: draft.notSure,
          // Only a link to this site's own applicant page is offered.
          ...(typeof answer.applicantLink === 'string' && /^https?:\/\/[^/]+\/apply#token=/.test(answer.applicantLink)
            ? { applicantLink: answer.applicantLink }
            : {}),
        });
        // The confirmation names the delivering RTO as staff saved it, even before the pages are rebuilt.
        fetch('/api/public/site-settings', { headers: { Accept: 'application/json' } })
          .then((response) => (response.ok ? response.json() : null))
          .then(
            (
              settings: { partnerRtos?: unknown; contactInfo?: { phone?: unknown; businessHours?: unknown } } | null,
            ) => {
              const rtos = v.safeParse(v.array(PartnerRtoSchema), settings?.partnerRtos);
              if (rtos.success) setRtos(rtos.output);
              const saved = settings?.contactInfo;
              if (typeof saved?.phone === 'string' && typeof saved.businessHours === 'string')
                setContact({ phone: saved.phone, businessHours: saved.businessHours });
            },
          )
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
        <QuoteResult
          headingRef={headingRef}
          name={done.name}
          reference={done.reference}
          items={done.result}
          notSure={done.notSure}
          phone={contact.phone}
          businessHours={contact.businessHours}
          applicantLink={done.applicantLink}
        >
          <p data-testid="quote-rto">
            {renderParts(
              quoteRtoParts(
                rtos,
                courses.filter((course) => draft.selectedCourses.includes(course.code)),
              ),
            )}
          </p>
        </QuoteResult>
      </div>
    );
  }

  const ready = canContinue(step, draft);

  const requirementId = fieldId('requirement');
  const stepProps: StepProps = { draft, update, errors, fieldId };

  return (
    <div className="quote">
      <nav aria-label="Quote progress">
        <ol className="quote-progress">
          {STEP_TITLES.map((title, index) => {
            const n = index + 1;
            const isDone = n < step || (n > step && knownDone(n));
            const state = isDone ? 'done' : n === step ? 'current' : 'todo';
            return (
              <li
                key={title}
                className={`quote-progress__step is-${state}${n <= step || isDone ? ' is-active' : ''}`}
                aria-current={n === step ? 'step' : undefined}
              >
                <span className="quote-progress__num" aria-hidden="true">
                  {isDone ? <Check size={18} /> : n}
                </span>
                <span className="quote-progress__label">
                  <span className="visually-hidden">Step {n}:</span> {title}
                  {isDone && (
                    <>
                      {' '}
                      <span className="visually-hidden">(completed)</span>
                    </>
                  )}
                </span>
              </li>
            );
          })}
        </ol>
      </nav>

      <form
        ref={formRef}
        className="quote__form card"
        noValidate
        onSubmit={onSubmit}
        aria-labelledby={fieldId('heading')}
      >
        <p className="quote__count">
          Step {step} of {STEP_COUNT}
        </p>
        <h2 id={fieldId('heading')} ref={headingRef} tabIndex={-1} className="quote__heading">
          {STEP_TITLES[step - 1]}
        </h2>

        {step === 1 && (
          <PersonalStep
            {...stepProps}
            preselected={preselected && (courses.find((course) => course.code === preselected.code) ?? null)}
            skipsToContact={knownDone(2) && knownDone(3)}
          />
        )}
        {step === 2 && <CategoriesStep {...stepProps} categories={categories} courses={courses} />}
        {step === 3 && <CoursesStep {...stepProps} categories={categories} courses={courses} />}
        {step === 4 && <ContactStep {...stepProps} />}
        {step === 5 && (
          <ReviewStep {...stepProps} idPrefix={id} categories={categories} courses={courses} goTo={goTo} />
        )}

        <Honeypot name={HONEYPOT_FIELD} />

        <div className="quote__nav">
          {step > 1 && (
            <button type="button" className="btn btn--outline" onClick={() => goTo((step - 1) as Step)} disabled={busy}>
              Previous
            </button>
          )}
          <button
            type="submit"
            className="btn btn--accent quote__next"
            disabled={!ready || busy}
            aria-describedby={ready ? undefined : requirementId}
          >
            {step < STEP_COUNT ? 'Next' : busy ? 'Submitting...' : 'Submit Request'}
          </button>
        </div>
        {!ready && (
          <p id={requirementId} className="quote__requirement">
            {STEP_REQUIREMENT[step]}
          </p>
        )}

        <FormStatus error={failure ? QUOTE_ERROR : undefined}>
          {failure?.detail && <p className="form-status__detail">{failure.detail}</p>}
          {failure && failure.errors.length > 0 && (
            <ul>
              {failure.errors.map((e) => (
                <li key={e.field + e.message}>{e.message}</li>
              ))}
            </ul>
          )}
        </FormStatus>
      </form>
    </div>
  );
}

function renderParts(parts: Part[]): ReactNode[] {
  return parts.map((part, index) => {
    if (typeof part === 'string') return part;
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: fixed text whose parts never move
      <a key={index} href={part.href} rel="external">
        {part.text}
      </a>
    );
  });
}
