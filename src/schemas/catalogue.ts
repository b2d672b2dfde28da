import * as v from 'valibot';
import { LEVELS } from './levels';
import { limitParam } from './query';
import { SearchTermListSchema } from './search-terms';

/**
 * Every shape of the catalogue, checked the same way wherever it comes from: the repository's content
 * files at build time, the staff edits kept in the catalogue tables of the database, and the admin's requests.
 */

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const COURSE_CODE_PATTERN = /^[A-Z0-9]{5,12}$/;

export const SlugSchema = v.pipe(
  v.string(),
  v.maxLength(80, 'Category slug is too long'),
  v.regex(SLUG_PATTERN, 'Category must be a slug such as "civil-construction"'),
);

/** A code as visitors and staff type it: any case, spaces around it allowed. */
export const CourseCodeSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(COURSE_CODE_PATTERN, 'Course codes are 5 to 12 letters and digits, such as BSB50120'),
);

/** A code as stored: already in capitals. */
const StoredCode = v.pipe(v.string(), v.regex(COURSE_CODE_PATTERN, 'Course codes are 5-12 capital letters and digits'));

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/**
 * The longest search text read: what a worker may type into the quote's experience field (LIMITS.longText
 * of ./inquiry, which imports this module; a unit test keeps them equal).
 */
export const SEARCH_TEXT_LIMIT = 2000;

/** Query of GET /api/courses and the search page. Unknown parameters are ignored. */
export const CourseQuerySchema = v.object({
  search: v.optional(
    v.pipe(
      v.unknown(),
      v.transform(blankToUndefined),
      // As long as the quote's experience field; a longer text is cut to it, never refused (see searchNote).
      v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.transform((text) => text.slice(0, SEARCH_TEXT_LIMIT).trim()),
        ),
      ),
    ),
  ),
  category: v.optional(v.pipe(v.unknown(), v.transform(blankToUndefined), v.optional(SlugSchema))),
  level: v.optional(
    v.pipe(
      v.unknown(),
      v.transform(blankToUndefined),
      v.optional(v.picklist(LEVELS, `Level must be one of: ${LEVELS.join(', ')}`)),
    ),
  ),
  featured: v.optional(v.picklist(['true', 'false'], 'featured must be true or false')),
  limit: limitParam(1000, 1000),
});

// ---- Content ---------------------------------------------------------------------------------------

const text = (max: number, name = 'This field') =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, `${name} cannot be empty`),
    v.maxLength(max, `${name} is at most ${max} characters`),
    // The database keeps no NUL character: one would be dropped, and a field of nothing but NULs left empty.
    v.regex(/^[^\u0000]*$/, `${name} cannot contain a NUL character`),
  );
const lines = (min: number, name: string, max = 30) =>
  v.pipe(
    v.array(text(400, `Each item of ${name}`)),
    v.minLength(min, `${name} needs at least ${min} item${min === 1 ? '' : 's'}`),
    v.maxLength(max, `${name} has at most ${max} items`),
  );

/** An ISO calendar date (YYYY-MM-DD) that exists, from the year 2000 on (the parser would take year 0). */
export const IsoDateSchema = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Check dates are ISO dates (YYYY-MM-DD)'),
  v.check((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value) && Number(value.slice(0, 4)) >= 2000;
  }, 'Not a real calendar date: use a day that exists (not 30 February), from the year 2000 on'),
);

export const LevelSchema = v.picklist(LEVELS, `Level must be one of: ${LEVELS.join(', ')}`);
export const CATEGORY_ICONS = [
  'briefcase',
  'monitor',
  'heart',
  'book',
  'tool',
  'coffee',
  'truck',
  'settings',
  'leaf',
  'camera',
  'dollar-sign',
] as const;
export const ColorSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^#[0-9a-f]{6}$/i, 'Colours are #rrggbb, such as #01675f'),
  v.toLowerCase(),
);
/** Pictures come from this site only (the pages' security policy loads no others): our images or staff uploads. */
export const ImagePathSchema = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(200, 'The image address is at most 200 characters'),
  v.regex(
    /^\/(?:images|api\/uploads)\/[A-Za-z0-9][A-Za-z0-9._/-]*$/,
    'The image must be an address on this site, such as /images/categories/health-fitness.svg or /api/uploads/...',
  ),
  v.check((path) => !path.includes('..'), 'The image address cannot contain ".."'),
);

export const CategorySchema = v.object({
  slug: SlugSchema,
  name: text(80, 'The name'),
  description: text(400, 'The description'),
  color: ColorSchema,
  icon: v.picklist(CATEGORY_ICONS, `The icon must be one of: ${CATEGORY_ICONS.join(', ')}`),
  image: v.optional(ImagePathSchema),
});

/** What staff saw on the National Register when they looked a qualification up. */
export const REGISTER_STATUSES = ['current', 'superseded', 'deleted'] as const;
export const RegisterStatusSchema = v.picklist(
  REGISTER_STATUSES,
  `The status on the register must be one of: ${REGISTER_STATUSES.join(', ')}`,
);

/** A look-up of the qualification on training.gov.au by a person: the day, what the register showed, and who. */
export const RegisterCheckSchema = v.object({
  checkedOn: IsoDateSchema,
  status: RegisterStatusSchema,
  title: text(200, 'The title on the register'),
  /** The staff member who looked it up (absent for look-ups recorded in content/qualification-checks.json). */
  by: v.optional(text(120, 'Who checked')),
  /** Hours of work in the role the register's assessment requirements state, when the staff member noted them. */
  workHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5000))),
});
export type RegisterCheck = v.InferOutput<typeof RegisterCheckSchema>;

/** Work in the role the assessment requires, as our qualifications review found it (hours still to confirm). */
export const WorkRequirementSchema = v.object({
  hours: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5000)),
  /** The review's words, for staff; never shown to visitors. */
  note: text(400, 'The work requirement note'),
});

/** Codes of state-accredited courses (22603VIC): they expire, unlike training-package qualifications. */
export const isAccreditedCourseCode = (code: string) => /^\d{5}[A-Z]{2,3}$/.test(code);

/**
 * The published facts of a qualification (content/courses.json, written by scripts/import-qualifications.mjs)
 * and the rules a regulator cares about: only `current` qualifications are published, each with the date its
 * facts were last checked and what they were checked against.
 */
export const CourseFactsSchema = v.pipe(
  v.object({
    code: StoredCode,
    title: text(200, 'The title'),
    level: LevelSchema,
    category: SlugSchema,
    featured: v.boolean(),
    status: v.literal('current', 'Only current qualifications are published (status must be "current")'),
    /** When these facts were last stated (our review or our own look-up); for staff, not a register check. */
    checkedOn: IsoDateSchema,
    /** What they were stated from: a staff note, never shown to visitors (provider pages are not the authority). */
    source: text(300, 'The source'),
    /** The latest look-up on the National Register by a person; absent: "Not yet checked on the National Register". */
    registerCheck: v.optional(RegisterCheckSchema),
    /** Current work in the role the assessment needs (placement or workplace hours). */
    workRequirement: v.optional(WorkRequirementSchema),
    /** Why the code is on a watch list (national review, likely replacement); staff only. */
    watch: v.optional(text(400, 'The watch note')),
    /** Last day of an accredited course's accreditation: after it the course is left out of the site. */
    accreditedUntil: v.optional(IsoDateSchema),
    /** false when the qualification cannot be completed by RPL alone (placement, supervised hours, licence). */
    rplAlone: v.optional(v.boolean(), true),
    rplNote: v.optional(text(400, 'The note')),
    /** Superseded codes this course replaces: /courses/{old} answers a 301 to this course. */
    replaces: v.optional(v.array(StoredCode)),
  }),
  v.forward(
    v.check(
      (course) => course.rplAlone || Boolean(course.rplNote),
      'A course not available by RPL alone must explain why (rplNote)',
    ),
    ['rplNote'],
  ),
);
export type CourseFacts = v.InferOutput<typeof CourseFactsSchema>;

/** The written details of a course page; the labels are what the admin form shows. */
export const DETAIL_FIELDS = {
  about: { label: 'About (card and page summary)', kind: 'text', max: 260 },
  overview: { label: 'Overview', kind: 'text', max: 2000 },
  aboutCertification: { label: 'About the certification', kind: 'text', max: 2000 },
  scopeOfWork: { label: 'Scope of work', kind: 'lines', min: 3 },
  experienceRequirements: { label: 'Experience we look for', kind: 'lines', min: 2 },
  eligibility: { label: 'Eligibility', kind: 'lines', min: 2 },
  entryRequirements: { label: 'Entry requirements', kind: 'text', max: 1000 },
  regulatoryRequirements: { label: 'Licensing and regulatory note', kind: 'text', max: 2000 },
  jobOutcomes: { label: 'Job outcomes', kind: 'lines', min: 1 },
  careerOutcomes: { label: 'Career outcomes', kind: 'lines', min: 2 },
  studyPathway: { label: 'Study pathway', kind: 'text', max: 2000 },
  assessmentMethods: { label: 'Assessment', kind: 'lines', min: 2, optional: true },
} as const satisfies Record<
  string,
  { label: string; kind: 'text' | 'lines'; max?: number; min?: number; optional?: boolean }
>;

export const CourseDetailsSchema = v.object({
  about: text(260, 'About'),
  overview: text(2000, 'Overview'),
  aboutCertification: text(2000, 'About the certification'),
  scopeOfWork: lines(3, 'Scope of work'),
  experienceRequirements: lines(2, 'Experience we look for'),
  eligibility: lines(2, 'Eligibility'),
  entryRequirements: text(1000, 'Entry requirements'),
  regulatoryRequirements: text(2000, 'Licensing and regulatory note'),
  jobOutcomes: lines(1, 'Job outcomes'),
  careerOutcomes: lines(2, 'Career outcomes'),
  studyPathway: text(2000, 'Study pathway'),
  assessmentMethods: v.optional(lines(2, 'Assessment')),
});
export type CourseDetails = v.InferOutput<typeof CourseDetailsSchema>;

/** A details file entry: the details of one code (a `featured` there is ignored; the facts decide). */
export const DetailEntrySchema = v.object({ code: StoredCode, ...CourseDetailsSchema.entries });

const EvidenceItem = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(10, 'Checklist items are short sentences'),
  v.maxLength(200, 'Checklist items are at most 200 characters'),
);
const EvidenceList = (min: number) =>
  v.pipe(
    v.array(EvidenceItem),
    v.minLength(min, `Each list has at least ${min} item(s)`),
    v.maxLength(8, 'Each list has at most 8 items'),
  );

/** content/evidence-checklists.json: a common list, one per category slug and additions per course code. */
export const EvidenceChecklistsSchema = v.strictObject({
  common: EvidenceList(2),
  categories: v.record(v.pipe(v.string(), v.regex(SLUG_PATTERN, 'Category keys are slugs')), EvidenceList(2)),
  courses: v.record(
    v.pipe(v.string(), v.regex(COURSE_CODE_PATTERN, 'Course keys are qualification codes')),
    EvidenceList(1),
  ),
});
export type EvidenceChecklists = v.InferOutput<typeof EvidenceChecklistsSchema>;

// ---- Staff edits (the overlay) ----------------------------------------------------------------------

/** What staff may change on a qualification; saved whole, so the stored entry is what the form showed. */
export const CourseEditSchema = v.object({
  featured: v.boolean('Featured must be true or false'),
  details: CourseDetailsSchema,
  /** The qualification's own evidence items (its category's list and the common list are added). */
  evidence: v.pipe(v.array(EvidenceItem), v.maxLength(8, 'At most 8 evidence items for one qualification')),
  /** Occupations and trade words workers use for it (the rules of content/search-terms.json; may be empty). */
  terms: SearchTermListSchema,
  /** Retired: left out of the site; with a successor, its address answers a 301 to the successor. */
  retired: v.nullable(v.object({ successor: v.optional(StoredCode) })),
});
export type CourseEdit = v.InferOutput<typeof CourseEditSchema>;

/** A qualification added by staff: the facts they checked, where, and when. */
export const AddedFactsSchema = v.object({
  title: text(200, 'The title'),
  level: LevelSchema,
  category: SlugSchema,
  source: text(300, 'The source'),
  checkedOn: IsoDateSchema,
});
export type AddedFacts = v.InferOutput<typeof AddedFactsSchema>;

export const CategoryEditSchema = v.object({
  description: text(400, 'The description'),
  color: ColorSchema,
  image: v.nullable(ImagePathSchema),
});
export type CategoryEdit = v.InferOutput<typeof CategoryEditSchema>;

const Stamp = {
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  updatedAt: v.pipe(v.string(), v.isoTimestamp()),
  updatedBy: v.pipe(v.string(), v.minLength(1)),
};

/** A stored course entry: an edit of a repository course, or (with `added`) a new qualification. */
export const StoredCourseSchema = v.object({
  ...Stamp,
  code: StoredCode,
  added: v.optional(AddedFactsSchema),
  edit: CourseEditSchema,
});
export type StoredCourse = v.InferOutput<typeof StoredCourseSchema>;

export const StoredCategorySchema = v.object({ ...Stamp, slug: SlugSchema, edit: CategoryEditSchema });
export type StoredCategory = v.InferOutput<typeof StoredCategorySchema>;

/** A register look-up recorded in the admin (a row of `register_checks`): when is `updatedAt` (server time), who is `updatedBy`. */
export const StoredRegisterCheckSchema = v.object({
  ...Stamp,
  code: StoredCode,
  status: RegisterStatusSchema,
  title: text(200, 'The title on the register'),
  /** The staff member's name as shown in the admin. */
  byName: v.optional(text(120, 'Who checked')),
  workHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5000))),
});
export type StoredRegisterCheck = v.InferOutput<typeof StoredRegisterCheckSchema>;

export const OverlaySchema = v.object({
  courses: v.array(StoredCourseSchema),
  categories: v.array(StoredCategorySchema),
  /** Register look-ups; absent in overlays read before they existed. */
  checks: v.optional(v.array(StoredRegisterCheckSchema), []),
});
export type Overlay = v.InferOutput<typeof OverlaySchema>;
/** An overlay as read or written before register look-ups existed (`checks` may be missing). */
export type OverlayInput = v.InferInput<typeof OverlaySchema>;

/** Version the edit was based on: 0 for an item nobody has edited yet. */
const BaseVersion = v.pipe(
  v.number('version must be a number'),
  v.integer('version must be a whole number'),
  v.minValue(0, 'version cannot be negative'),
);

export const SaveCourseSchema = v.object({ version: BaseVersion, edit: CourseEditSchema });
export const AddCourseSchema = v.object({ code: CourseCodeSchema, facts: AddedFactsSchema, edit: CourseEditSchema });
export const SaveCategorySchema = v.object({ version: BaseVersion, edit: CategoryEditSchema });
/** "I checked this on training.gov.au today": what the register showed; who and when are the server's. */
export const RecordRegisterCheckSchema = v.object({
  version: BaseVersion,
  status: RegisterStatusSchema,
  title: text(200, 'The title on the register'),
  workHours: v.optional(
    v.pipe(
      v.number('Work hours must be a number'),
      v.integer('Work hours must be a whole number'),
      v.minValue(1, 'Work hours must be at least 1'),
      v.maxValue(5000, 'Work hours are at most 5000'),
    ),
  ),
});
