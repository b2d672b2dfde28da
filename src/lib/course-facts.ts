/**
 * The published facts of a qualification and how the course page shows them. The rules (only `current`
 * qualifications, each with a real check date and a source) are in CourseFactsSchema (src/schemas/catalogue.ts),
 * which the catalogue checks every course against, so a course breaking them fails the build.
 */
export { CourseFactsSchema as courseFactsSchema } from '../schemas/catalogue';

/** The course's entry on the National Register (training.gov.au). */
export const registerUrl = (code: string) => `https://training.gov.au/Training/Details/${encodeURIComponent(code)}`;

/** 22 July 2025: Australian long date, read in UTC so the build machine's zone never shifts the day. */
export function formatCheckedOn(isoDay: string): string {
  return new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );
}

/** Whether a source is a web address (shown as a link) rather than a description. */
export const isUrl = (source: string) => /^https:\/\/[^\s]+$/.test(source);
