/**
 * The catalogue as the API serves it: the same content files the pages are built from
 * (validated at build time by src/content.config.ts), joined into the shapes of SPEC section 3.
 */
import categoriesJson from '../../content/categories.json';
import coursesJson from '../../content/courses.json';
import beauty from '../../content/course-details/beauty-hair-services.json';
import business from '../../content/course-details/business-administration.json';
import construction from '../../content/course-details/civil-construction.json';
import community from '../../content/course-details/community-services.json';
import earlyChildhood from '../../content/course-details/early-childhood-education.json';
import finance from '../../content/course-details/finance-administration.json';
import government from '../../content/course-details/government-security.json';
import health from '../../content/course-details/health-fitness.json';
import it from '../../content/course-details/information-technology.json';
import leadership from '../../content/course-details/leadership-management.json';
import security from '../../content/course-details/security-cleaning.json';
import searchTermsJson from '../../content/search-terms.json';
import { parseSearchTerms } from '../schemas/search-terms';
import { DEFAULT_CATEGORY_COLOR, LEVELS, levelRank, type CourseSummary } from '../lib/catalogue';

type Detail = (typeof business)[number];

const details = new Map<string, Detail>(
  [beauty, business, construction, community, earlyChildhood, finance, government, health, it, leadership, security]
    .flat()
    .map((d) => [d.code, d as Detail]),
);

export const categories = categoriesJson.map((c) => ({
  _id: c.slug,
  slug: c.slug,
  name: c.name,
  description: c.description,
  color: c.color ?? DEFAULT_CATEGORY_COLOR,
  icon: c.icon,
  image: `/images/categories/${c.slug}.svg`,
  courseCount: coursesJson.filter((course) => course.category === c.slug).length,
}));
export type ApiCategory = (typeof categories)[number];

const categoryBySlug = new Map(categories.map((c) => [c.slug, c]));
export const findCategory = (slug: string) => categoryBySlug.get(slug);

/** Course in the list shape of SPEC 3 (category as an object with _id and color). */
export const courses = coursesJson
  .map((course) => {
    const detail = details.get(course.code)!;
    const category = categoryBySlug.get(course.category)!;
    return {
      _id: course.code,
      code: course.code,
      title: course.title,
      level: course.level,
      featured: course.featured,
      rplAlone: (course as { rplAlone?: boolean }).rplAlone !== false,
      about: detail.about,
      jobOutcomes: detail.jobOutcomes,
      entryRequirements: detail.entryRequirements,
      category: { _id: category._id, name: category.name, slug: category.slug, color: category.color },
    };
  })
  .sort((a, b) => levelRank(a.level) - levelRank(b.level) || a.title.localeCompare(b.title));
export type ApiCourse = (typeof courses)[number];

const courseByCode = new Map(courses.map((c) => [c.code, c]));

/**
 * Occupations and trade words per code (content/search-terms.json), validated when this module loads,
 * so a malformed file fails the build. Entries for codes outside the catalogue are ignored.
 */
export const searchTerms = parseSearchTerms(searchTermsJson);
/** Codes with search terms but no course (superseded, removed or not yet added); listed by a unit test. */
export const searchTermsWithoutCourse = Object.keys(searchTerms).filter((code) => !courseByCode.has(code)).sort();

/** The flat shape the shared search works on (category as its slug). */
export const summaries: CourseSummary[] = courses.map((c) => ({
  code: c.code,
  title: c.title,
  level: c.level,
  category: c.category.slug,
  categoryName: c.category.name,
  about: c.about,
  featured: c.featured,
  rplAlone: c.rplAlone,
  terms: searchTerms[c.code] ?? [],
}));
export const courseFromSummary = (summary: CourseSummary) => courseByCode.get(summary.code)!;

/** SPEC 3 course detail. */
export function findCourseDetail(code: string) {
  const course = courseByCode.get(code);
  const detail = details.get(code);
  if (!course || !detail) return undefined;
  return {
    courseCode: course.code,
    courseTitle: course.title,
    level: course.level,
    category: course.category,
    courseOverview: detail.overview,
    aboutCertification: detail.aboutCertification,
    scopeOfWork: detail.scopeOfWork,
    experienceRequirements: detail.experienceRequirements,
    eligibility: detail.eligibility,
    regulatoryRequirements: detail.regulatoryRequirements,
    careerOutcomes: detail.careerOutcomes,
    studyPathway: detail.studyPathway,
    assessmentMethods: detail.assessmentMethods,
  };
}

export const searchOptions = {
  categories: categories.map(({ _id, name, slug }) => ({ _id, name, slug })),
  levels: LEVELS.filter((level) => courses.some((c) => c.level === level)),
};
