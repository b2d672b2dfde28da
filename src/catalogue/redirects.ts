/**
 * Which /courses/{code} addresses answer a permanent redirect (see createCourseRedirect in src/catalogue/):
 * superseded and retired codes go to their successor, a published code in the wrong case to its capitals.
 * These are the repository's; netlify/functions/course-not-found.mts uses the current catalogue, staff edits included.
 */
import { repositoryCatalogue } from './index';

export { createCourseRedirect } from './index';

/** Old code -> successor code, for every superseded qualification we replaced. */
export const SUPERSEDED_CODES = repositoryCatalogue().superseded;

/** The address a course path should permanently redirect to, or null. */
export const courseRedirect = repositoryCatalogue().courseRedirect;
