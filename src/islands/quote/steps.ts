/**
 * The free-quote wizard's rules without any UI, so they can be tested on their own:
 * what each step needs before Next is enabled, which courses step 3 offers, and the draft kept in
 * sessionStorage so a reload in the same tab does not lose the visitor's progress.
 */
import * as v from 'valibot';
import {
  ELAPSED_FIELD,
  HONEYPOT_FIELD,
  INDUSTRY_NOT_LISTED,
  LIMITS,
  QuoteSchema,
  quoteFieldInfo,
  type QuoteStep,
} from '../../schemas/inquiry';

/** The catalogue as the wizard gets it from the page (names and titles only). */
export interface QuoteCategory {
  slug: string;
  name: string;
}
export interface QuoteCourse {
  code: string;
  title: string;
  level: string;
  category: string;
}

/** Everything the form collects: the quote's fields without the two abuse checks added when sending. */
export const QuoteDraftSchema = v.omit(v.object(QuoteSchema.entries), [HONEYPOT_FIELD, ELAPSED_FIELD]);
type DraftField = keyof typeof QuoteDraftSchema.entries;
/** A half-filled form holds any text, an unticked box or an empty list where the finished quote needs more. */
type Loose<T> = T extends string
  ? string
  : T extends boolean
    ? boolean
    : T extends readonly (infer U)[]
      ? Loose<U>[]
      : T;
/** The wizard's values: the quote's own output types, widened to what a form still being filled in holds. */
export type QuoteDraft = { [K in DraftField]: Loose<v.InferOutput<(typeof QuoteDraftSchema.entries)[K]>> };

export const STEP_TITLES = ['Personal Info', 'Categories', 'Courses', 'Contact & Location', 'Review & Submit'] as const;
export const STEP_COUNT = STEP_TITLES.length;
export type Step = QuoteStep;

/** Every field at its schema default: blank text, no choices, nothing ticked. */
export const emptyDraft = (): QuoteDraft => v.getDefaults(QuoteDraftSchema) as QuoteDraft;

const filled = (value: string) => value.trim() !== '';

/** Next (and Submit) stay disabled until the step's rule holds. */
export function canContinue(step: Step, draft: QuoteDraft): boolean {
  switch (step) {
    case 1:
      return [draft.firstName, draft.lastName, draft.email, draft.phone].every(filled);
    case 2:
      // "My industry isn't listed" ticks "Not sure": the visitor goes on without a category.
      return draft.selectedCategories.length > 0 || draft.notSure;
    case 3:
      return draft.selectedCourses.length > 0 || draft.notSure;
    case 4:
      return draft.state !== '';
    case 5:
      return draft.acceptedTerms;
  }
}

/** What a visitor must do before the button works, said next to it. */
export const STEP_REQUIREMENT: Record<Step, string> = {
  1: 'Fill in your first name, last name, e-mail and phone to continue.',
  2: `Choose at least one category, or tick “${INDUSTRY_NOT_LISTED}”, to continue.`,
  3: 'Choose at least one course, or tick "Not sure", to continue.',
  4: 'Choose your state to continue.',
  5: 'Tick the box to agree to the terms and conditions before you submit.',
};

/** Step 3 shows the courses of the chosen categories, or all of them if none is chosen. */
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
const SAVED_VERSION = 1;

/** Text as the visitor typed it so far (it may not be valid yet), cut to a sane length. */
const TypedText = v.pipe(
  v.string(),
  v.transform((text) => text.slice(0, LIMITS.message)),
);
/** The text items of a list; whether they still exist in the catalogue is checked after reading. */
const TextList = v.pipe(
  v.array(v.unknown()),
  v.transform((items) => items.filter((item): item is string => typeof item === 'string')),
);

/**
 * How saved progress reads one field back: typed text as typed, lists as their text items, anything else
 * only when the field's own rules accept it. Whatever does not fit becomes the field's default.
 */
function savedField(field: DraftField) {
  const schema = QuoteDraftSchema.entries[field];
  const empty = v.getDefault(schema);
  const kept: v.GenericSchema = quoteFieldInfo(field).typed ? TypedText : Array.isArray(empty) ? TextList : schema;
  return v.fallback(v.optional(kept, empty), empty);
}

const savedDraftEntries = {} as Record<DraftField, v.GenericSchema>;
for (const field of Object.keys(QuoteDraftSchema.entries) as DraftField[]) savedDraftEntries[field] = savedField(field);

/** Saved progress as read back: unknown keys are dropped, each field is checked as above. */
export const SavedProgressSchema = v.object({
  version: v.literal(SAVED_VERSION),
  step: v.fallback(
    v.pipe(
      v.number(),
      v.minValue(1),
      v.maxValue(STEP_COUNT),
      v.transform((n) => Math.floor(n) as Step),
    ),
    1 as Step,
  ),
  draft: v.object(savedDraftEntries),
});

export interface SavedProgress {
  step: Step;
  draft: QuoteDraft;
}

/** The terms and consent ticks are not kept: agreeing is asked for again after a reload. */
export function saveProgress(storage: Storage, progress: SavedProgress) {
  try {
    const draft = { ...progress.draft, acceptedTerms: false, consentPartnerRto: false, consentMarketing: false };
    storage.setItem(STORAGE_KEY, JSON.stringify({ version: SAVED_VERSION, step: progress.step, draft }));
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
 * Reads saved progress back, trusting nothing: it must pass SavedProgressSchema, categories and
 * courses must still be offered, and the step is moved back to the first one whose earlier steps
 * are not all complete.
 */
export function loadProgress(
  storage: Storage,
  categories: QuoteCategory[],
  courses: QuoteCourse[],
): SavedProgress | null {
  let raw: unknown;
  try {
    raw = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    return null;
  }
  const saved = v.safeParse(SavedProgressSchema, raw);
  if (!saved.success) return null;
  const draft = { ...emptyDraft(), ...(saved.output.draft as Partial<QuoteDraft>) };
  // Terms and consents are asked for again (see saveProgress).
  Object.assign(draft, { acceptedTerms: false, consentPartnerRto: false, consentMarketing: false });
  const slugs = new Set(categories.map((c) => c.slug));
  draft.selectedCategories = [...new Set(draft.selectedCategories.filter((s) => slugs.has(s)))];
  const offered = new Set(coursesFor(courses, draft.selectedCategories).map((c) => c.code));
  draft.selectedCourses = [...new Set(draft.selectedCourses.filter((c) => offered.has(c)))];

  let step = saved.output.step;
  for (let earlier = 1; earlier < step; earlier++) {
    if (!canContinue(earlier as Step, draft)) {
      step = earlier as Step;
      break;
    }
  }
  return { step, draft };
}
