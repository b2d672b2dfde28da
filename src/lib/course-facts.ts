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

/**
 * The register look-up a visitor is shown: only one a person recorded that found the qualification current.
 * Without one the page says "Not yet checked on the National Register" (the review's date is no register check).
 */
export function registerCheckShown(course: { registerCheck?: { checkedOn: string; status: string } }) {
  return course.registerCheck?.status === 'current' ? course.registerCheck : undefined;
}

export const WORK_LABEL = 'Needs current work in the role';

/**
 * The work-in-the-role requirement as visitors read it. Hours a staff member confirmed on the register are
 * stated as such; hours only our qualifications review found are given as that, pointing to the register.
 */
export function workRequirementText(course: {
  workRequirement?: { hours: number };
  registerCheck?: { workHours?: number; status: string };
}): { label: string; detail: string; hours: number } | undefined {
  const confirmed = course.registerCheck?.status === 'current' ? course.registerCheck.workHours : undefined;
  const hours = confirmed ?? course.workRequirement?.hours;
  if (!hours) return undefined;
  const detail = confirmed
    ? `The assessment needs ${hours} hours of work in the role, as the register entry states. RPL alone is not enough: you need to be working in the role (or able to do the hours) while you are assessed.`
    : `Our qualifications review found the assessment needs ${hours} hours of work in the role; the register entry is the authority, so please confirm the hours there. RPL alone is not enough: you need to be working in the role (or able to do the hours) while you are assessed.`;
  return { label: WORK_LABEL, detail, hours };
}

/** Whether a source is a web address rather than a description (staff notes; visitors are shown the register). */
export const isUrl = (source: string) => /^https:\/\/[^\s]+$/.test(source);
