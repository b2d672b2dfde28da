/** Valid bodies for the catalogue editing API, as the admin forms send them. */
import { repositoryCatalogue } from '../../../src/catalogue/index';
import { newCourseFacts } from '../../fixtures/catalogue';

/** The editable details of a course, in the order the form shows them. */
const DETAIL_FIELDS = [
  'about',
  'overview',
  'aboutCertification',
  'scopeOfWork',
  'experienceRequirements',
  'eligibility',
  'entryRequirements',
  'regulatoryRequirements',
  'jobOutcomes',
  'careerOutcomes',
  'studyPathway',
] as const;

/** A save of a repository course exactly as it stands (PUT /api/admin/catalogue/courses/:code). */
export function courseEdit(code: string) {
  const course = repositoryCatalogue().courseByCode.get(code)!;
  const details = Object.fromEntries(DETAIL_FIELDS.map((field) => [field, course[field]]));
  return { featured: course.featured, details, evidence: [], terms: course.terms, retired: null };
}

/** A new qualification (POST /api/admin/catalogue/courses), its details copied from CPC30220. */
export function newCourse(code: string, title: string) {
  return {
    code,
    facts: newCourseFacts(code, title),
    edit: courseEdit('CPC30220'),
  };
}

/** A save of the health-fitness category (PUT /api/admin/catalogue/categories/:slug). */
export const categoryEdit = {
  version: 0,
  edit: {
    description: 'Fitness, allied health support and health services qualifications.',
    color: '#01675f',
    image: null,
  },
};
