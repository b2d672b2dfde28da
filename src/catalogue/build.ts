/**
 * The catalogue in one place: reads the content (categories, course facts, written details, search terms,
 * evidence checklists), checks it against the shared schemas, joins it and produces every shape the site
 * uses: pages (courses and categories), cards, the search data, the public API and the redirects of
 * retired codes. Pure: no file or store access, so the build, the functions and the tests all run the same code.
 */
import * as v from 'valibot';
import {
  CategorySchema,
  CourseFactsSchema,
  DetailEntrySchema,
  EvidenceChecklistsSchema,
  type CourseDetails,
  type CourseFacts,
  type EvidenceChecklists,
} from '../schemas/catalogue';
import { parseSearchTerms, type SearchTerms } from '../schemas/search-terms';
import { categoryPicture, LEVELS, levelRank, type CourseSummary } from '../lib/catalogue';

/** Raw content as read from the files (or after staff edits were applied): checked by createCatalogue. */
export interface CatalogueContent {
  categories: unknown;
  courses: unknown;
  details: unknown[];
  searchTerms: unknown;
  evidence: unknown;
}

/** A catalogue that cannot be built; the message names the file (or stored edit) and the field. */
export class CatalogueError extends Error {
  override name = 'CatalogueError';
}

function parse<S extends v.GenericSchema>(schema: S, value: unknown, where: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  throw new CatalogueError(`${where}${path ? ` at ${path}` : ''}: ${issue.message}`);
}

/** A published course: its facts, written details, search terms and complete evidence checklist. */
export type Course = CourseFacts & CourseDetails & { terms: string[]; evidence: string[] };

/**
 * The checklist of one qualification: its own additions first (most specific), then its category's
 * list, then what every applicant needs. Every course gets at least the common list.
 */
export function evidenceFor(course: { code: string; category: string }, lists: EvidenceChecklists): string[] {
  const items = [...(lists.courses[course.code] ?? []), ...(lists.categories[course.category] ?? []), ...lists.common];
  return [...new Set(items)];
}

/**
 * Which /courses/{code} addresses answer a permanent redirect:
 * - a superseded or retired code goes to its successor (from `replaces`), whatever the case it is written in;
 * - a published code written in another case goes to its canonical capitals: /courses/cpc30220 -> /courses/CPC30220.
 * Anything else is null: the caller answers 'Course Not Found'.
 */
export function createCourseRedirect(facts: readonly { code: string; replaces?: readonly string[] }[]) {
  const published = new Set(facts.map((c) => c.code));
  const superseded = new Map(
    facts.flatMap((c) => (c.replaces ?? []).map((old) => [old.toUpperCase(), c.code] as const)),
  );
  const redirect = (path: string): string | null => {
    const match = /^\/courses\/([^/]+)\/?$/.exec(path);
    if (!match) return null;
    let raw: string;
    try {
      raw = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
    const code = raw.toUpperCase();
    const successor = superseded.get(code);
    if (successor) return `/courses/${successor}`;
    if (raw !== code && published.has(code)) return `/courses/${code}`;
    return null;
  };
  return { redirect, superseded: superseded as ReadonlyMap<string, string> };
}

/** Today in Sydney as YYYY-MM-DD (accreditation ends on a calendar day where the business is). */
export function sydneyToday(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(now);
}

/** Hours of work in the role a course needs: the register's figure once staff noted it, else the review's. */
export function workHoursOf(course: Pick<CourseFacts, 'workRequirement' | 'registerCheck'>) {
  if (!course.workRequirement && !course.registerCheck?.workHours) return undefined;
  const confirmed = course.registerCheck?.workHours;
  return { hours: confirmed ?? course.workRequirement!.hours, confirmed: confirmed !== undefined };
}

export function createCatalogue(content: CatalogueContent, options: { today?: string } = {}) {
  const today = options.today ?? sydneyToday();
  const categories = parse(v.array(CategorySchema), content.categories, 'content/categories.json');
  const allFacts = parse(v.array(CourseFactsSchema), content.courses, 'content/courses.json');
  // An accredited course is withdrawn the day after its accreditation ends: no page, card or API entry.
  const expired = new Set(allFacts.filter((f) => f.accreditedUntil && f.accreditedUntil < today).map((f) => f.code));
  const facts = allFacts.filter((f) => !expired.has(f.code));
  const searchTerms: SearchTerms = parseSearchTerms(content.searchTerms);
  const evidenceLists = parse(EvidenceChecklistsSchema, content.evidence, 'content/evidence-checklists.json');

  const categoryBySlug = new Map(categories.map((c) => [c.slug, c]));
  if (categoryBySlug.size !== categories.length)
    throw new CatalogueError('content/categories.json: a slug is listed twice');

  const details = new Map<string, CourseDetails>();
  for (const entry of content.details) {
    const { code, ...detail } = parse(
      DetailEntrySchema,
      entry,
      `content/course-details (${(entry as { code?: unknown })?.code ?? 'entry without a code'})`,
    );
    if (details.has(code)) throw new CatalogueError(`content/course-details: ${code} is described twice`);
    if (!expired.has(code)) details.set(code, detail);
  }
  const codes = new Set(facts.map((f) => f.code));
  if (codes.size !== facts.length) throw new CatalogueError('content/courses.json: a code is listed twice');
  const orphan = [...details.keys()].find((code) => !codes.has(code));
  if (orphan) throw new CatalogueError(`content/course-details: ${orphan} is not in content/courses.json`);

  const courses: Course[] = facts
    .map((fact) => {
      const detail = details.get(fact.code);
      if (!detail) throw new CatalogueError(`content/course-details: no details written for ${fact.code}`);
      if (!categoryBySlug.has(fact.category))
        throw new CatalogueError(`content/courses.json: ${fact.code} has unknown category "${fact.category}"`);
      return { ...detail, ...fact, terms: searchTerms[fact.code] ?? [], evidence: evidenceFor(fact, evidenceLists) };
    })
    .sort((a, b) => levelRank(a.level) - levelRank(b.level) || a.title.localeCompare(b.title));
  const courseByCode = new Map(courses.map((c) => [c.code, c]));

  const countFor = (slug: string) => courses.filter((c) => c.category === slug).length;

  /** The summary shape (pages and islands): no search terms, so page props stay small. */
  const summary = (course: Course): CourseSummary => ({
    code: course.code,
    title: course.title,
    level: course.level,
    category: course.category,
    categoryName: categoryBySlug.get(course.category)?.name ?? 'Other',
    about: course.about,
    featured: course.featured,
    rplAlone: course.rplAlone,
    ...(workHoursOf(course) ? { workHours: workHoursOf(course)!.hours } : {}),
  });
  /** The search shape: the summary plus the occupations and trade words workers use. */
  const summaries: CourseSummary[] = courses.map((course) => ({ ...summary(course), terms: course.terms }));

  const apiCategories = categories.map((c) => ({
    _id: c.slug,
    slug: c.slug,
    name: c.name,
    description: c.description,
    color: c.color,
    icon: c.icon,
    image: categoryPicture(c),
    courseCount: countFor(c.slug),
  }));
  const apiCategoryBySlug = new Map(apiCategories.map((c) => [c.slug, c]));

  /** A course in the list shape of the API (category as an object with _id and color). */
  const apiCourse = (course: Course) => {
    const category = apiCategoryBySlug.get(course.category)!;
    return {
      _id: course.code,
      code: course.code,
      title: course.title,
      level: course.level,
      featured: course.featured,
      rplAlone: course.rplAlone,
      ...(workHoursOf(course) ? { workHours: workHoursOf(course)!.hours } : {}),
      about: course.about,
      jobOutcomes: course.jobOutcomes,
      entryRequirements: course.entryRequirements,
      category: { _id: category._id, name: category.name, slug: category.slug, color: category.color },
    };
  };
  const apiCourses = courses.map(apiCourse);
  const apiCourseByCode = new Map(apiCourses.map((c) => [c.code, c]));

  /** A course's detail answer (GET /api/course-details/{code}). */
  function findCourseDetail(code: string) {
    const course = courseByCode.get(code);
    if (!course) return undefined;
    return {
      courseCode: course.code,
      courseTitle: course.title,
      level: course.level,
      category: apiCourseByCode.get(code)!.category,
      courseOverview: course.overview,
      aboutCertification: course.aboutCertification,
      scopeOfWork: course.scopeOfWork,
      experienceRequirements: course.experienceRequirements,
      eligibility: course.eligibility,
      regulatoryRequirements: course.regulatoryRequirements,
      careerOutcomes: course.careerOutcomes,
      studyPathway: course.studyPathway,
      assessmentMethods: course.assessmentMethods,
    };
  }

  const redirects = createCourseRedirect(courses);

  return {
    categories,
    categoryBySlug,
    courses,
    courseByCode,
    countFor,
    summary,
    cards: courses.map(summary),
    summaries,
    evidenceLists,
    api: {
      categories: apiCategories,
      findCategory: (slug: string) => apiCategoryBySlug.get(slug),
      courses: apiCourses,
      courseFromSummary: (summary: CourseSummary) => apiCourseByCode.get(summary.code)!,
      findCourseDetail,
      searchOptions: {
        categories: apiCategories.map(({ _id, name, slug }) => ({ _id, name, slug })),
        levels: LEVELS.filter((level) => courses.some((c) => c.level === level)),
      },
    },
    /** Codes with search terms but no course (superseded, removed or not yet added); listed by a unit test. */
    searchTermsWithoutCourse: Object.keys(searchTerms)
      .filter((code) => !courseByCode.has(code))
      .sort(),
    courseRedirect: redirects.redirect,
    superseded: redirects.superseded,
    /** Category colours as classes, so cards take their category's colour without style attributes (the CSP forbids those). */
    /** Accredited courses left out because their accreditation ended before today. */
    expired: [...expired].sort(),
    categoryColorsCss: categories.map((c) => `.cat-${c.slug}{--cat-color:${c.color}}`).join(''),
  };
}

export type Catalogue = ReturnType<typeof createCatalogue>;
