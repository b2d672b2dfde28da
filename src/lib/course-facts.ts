/**
 * The published facts of a qualification (content/courses.json, written by scripts/import-qualifications.mjs)
 * and the rules a regulator cares about: only `current` qualifications are published, each with the date its
 * facts were last checked and what they were checked against. Used by the content schema (so a course that
 * breaks these rules fails the build) and by the course page.
 */
import { z } from 'astro/zod';

export const COURSE_CODE = /^[A-Z0-9]{5,12}$/;
const text = z.string().trim().min(1);

/** An ISO calendar date (YYYY-MM-DD) that exists. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Check dates are ISO dates (YYYY-MM-DD)')
  .refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
  }, 'Not a real calendar date');

export const courseFactsSchema = z
  .object({
    code: z.string().regex(COURSE_CODE, 'Course codes are 5-12 capital letters and digits'),
    title: text,
    level: z.enum(['Certificate II', 'Certificate III', 'Certificate IV', 'Diploma', 'Advanced Diploma', 'Graduate Certificate', 'Graduate Diploma']),
    category: text,
    featured: z.boolean(),
    status: z.literal('current', { message: 'Only current qualifications are published (status must be "current")' }),
    checkedOn: isoDate,
    source: text,
    /** false when the qualification cannot be completed by RPL alone (placement, supervised hours, licence). */
    rplAlone: z.boolean().default(true),
    rplNote: text.optional(),
    /** Superseded codes this course replaces: /courses/{old} answers a 301 to this course. */
    replaces: z.array(z.string().regex(COURSE_CODE)).optional(),
  })
  .refine((course) => course.rplAlone || Boolean(course.rplNote), {
    message: 'A course not available by RPL alone must explain why (rplNote)',
    path: ['rplNote'],
  });

export type CourseFacts = z.infer<typeof courseFactsSchema>;

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
