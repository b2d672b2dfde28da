/**
 * The free-quote wizard's rules without any UI (SPEC 2.12, 5), so they can be tested on their own:
 * what each step needs before Next is enabled, which courses step 3 offers, and the draft kept in
 * sessionStorage so a reload in the same tab does not lose the visitor's progress.
 */
import { CONTACT_TIMES, STATES } from '../../schemas/inquiry';

export interface QuoteCategory { slug: string; name: string }
export interface QuoteCourse { code: string; title: string; level: string; category: string }

export interface QuoteDraft {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** Part of the original payload; never editable in the form, always sent empty. */
  mobileNumber: string;
  preferredContact: string;
  state: string;
  selectedCategories: string[];
  selectedCourses: string[];
  /** Step 3: "Not sure — suggest qualifications from my experience" (satisfies the step without a course). */
  notSure: boolean;
  experience: string;
  goals: string;
  additionalInfo: string;
  acceptedTerms: boolean;
  /** The two optional consents, unticked until the visitor ticks them on the last step. */
  consentPartnerRto: boolean;
  consentMarketing: boolean;
}

export const STEP_TITLES = ['Personal Info', 'Categories', 'Courses', 'Contact & Location', 'Review & Submit'] as const;
export const STEP_COUNT = STEP_TITLES.length;
export type Step = 1 | 2 | 3 | 4 | 5;

export const emptyDraft = (): QuoteDraft => ({
  firstName: '', lastName: '', email: '', phone: '', mobileNumber: '', preferredContact: '', state: '',
  selectedCategories: [], selectedCourses: [], notSure: false, experience: '', goals: '', additionalInfo: '', acceptedTerms: false,
  consentPartnerRto: false, consentMarketing: false,
});

const filled = (value: string) => value.trim() !== '';

/** SPEC 5: Next (and Submit) stay disabled until the step's rule holds. */
export function canContinue(step: Step, draft: QuoteDraft): boolean {
  switch (step) {
    case 1: return [draft.firstName, draft.lastName, draft.email, draft.phone].every(filled);
    case 2: return draft.selectedCategories.length > 0;
    case 3: return draft.selectedCourses.length > 0 || draft.notSure;
    case 4: return draft.state !== '';
    case 5: return draft.acceptedTerms;
  }
}

/** What a visitor must do before the button works, said next to it. */
export const STEP_REQUIREMENT: Record<Step, string> = {
  1: 'Fill in your first name, last name, e-mail and phone to continue.',
  2: 'Choose at least one category to continue.',
  3: 'Choose at least one course, or tick "Not sure", to continue.',
  4: 'Choose your state to continue.',
  5: 'Tick the box to agree to the terms and conditions before you submit.',
};

/** SPEC 5: step 3 shows the courses of the chosen categories, or all of them if none is chosen. */
export function coursesFor(courses: QuoteCourse[], selectedCategories: string[]): QuoteCourse[] {
  if (!selectedCategories.length) return courses;
  const chosen = new Set(selectedCategories);
  return courses.filter((course) => chosen.has(course.category));
}

/** Toggling a category off also drops its courses, so the request never lists a course from an unchosen category. */
export function toggleCategory(draft: QuoteDraft, slug: string, courses: QuoteCourse[]): QuoteDraft {
  const selectedCategories = draft.selectedCategories.includes(slug)
    ? draft.selectedCategories.filter((s) => s !== slug)
    : [...draft.selectedCategories, slug];
  const offered = new Set(coursesFor(courses, selectedCategories).map((c) => c.code));
  return { ...draft, selectedCategories, selectedCourses: draft.selectedCourses.filter((code) => offered.has(code)) };
}

export function toggleCourse(draft: QuoteDraft, code: string): QuoteDraft {
  const selectedCourses = draft.selectedCourses.includes(code)
    ? draft.selectedCourses.filter((c) => c !== code)
    : [...draft.selectedCourses, code];
  return { ...draft, selectedCourses };
}

/* ---------- Progress kept for a reload in the same tab ---------- */

export const STORAGE_KEY = 'rpl-free-quote';
const TEXT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'experience', 'goals', 'additionalInfo'] as const;

export interface SavedProgress { step: Step; draft: QuoteDraft }

/** The terms and consent ticks are not kept: agreeing is asked for again after a reload. */
export function saveProgress(storage: Storage, progress: SavedProgress) {
  try {
    const draft = { ...progress.draft, acceptedTerms: false, consentPartnerRto: false, consentMarketing: false };
    storage.setItem(STORAGE_KEY, JSON.stringify({ version: 1, step: progress.step, draft }));
  } catch {
    /* storage full or disabled: progress simply is not kept */
  }
}

export function clearProgress(storage: Storage) {
  try {
    storage.removeItem(STORAGE_KEY);
  } catch {
    /* nothing to clear */
  }
}

/**
 * Reads saved progress back, trusting nothing: unknown keys are dropped, text is cut to length,
 * categories and courses must still exist, and the step is moved back to the first one whose
 * earlier steps are not all complete.
 */
export function loadProgress(storage: Storage, categories: QuoteCategory[], courses: QuoteCourse[]): SavedProgress | null {
  let raw: unknown;
  try {
    raw = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const saved = raw as { version?: unknown; step?: unknown; draft?: Record<string, unknown> };
  if (saved.version !== 1 || !saved.draft || typeof saved.draft !== 'object') return null;

  const draft = emptyDraft();
  for (const field of TEXT_FIELDS) {
    const value = saved.draft[field];
    if (typeof value === 'string') draft[field] = value.slice(0, 5000);
  }
  const preferred = saved.draft.preferredContact;
  if (typeof preferred === 'string' && (CONTACT_TIMES as readonly string[]).includes(preferred)) draft.preferredContact = preferred;
  const state = saved.draft.state;
  if (typeof state === 'string' && (STATES as readonly string[]).includes(state)) draft.state = state;
  const slugs = new Set(categories.map((c) => c.slug));
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : []);
  draft.selectedCategories = [...new Set(strings(saved.draft.selectedCategories).filter((s) => slugs.has(s)))];
  const offered = new Set(coursesFor(courses, draft.selectedCategories).map((c) => c.code));
  draft.selectedCourses = [...new Set(strings(saved.draft.selectedCourses).filter((c) => offered.has(c)))];
  draft.notSure = saved.draft.notSure === true;

  let step = (typeof saved.step === 'number' && saved.step >= 1 && saved.step <= STEP_COUNT ? Math.floor(saved.step) : 1) as Step;
  for (let earlier = 1; earlier < step; earlier++) {
    if (!canContinue(earlier as Step, draft)) {
      step = earlier as Step;
      break;
    }
  }
  return { step, draft };
}
