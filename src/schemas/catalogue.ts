import * as v from 'valibot';
import { LEVELS } from '../lib/catalogue';

export const SlugSchema = v.pipe(
  v.string(),
  v.maxLength(80, 'Category slug is too long'),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Category must be a slug such as "civil-construction"'),
);

export const CourseCodeSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z0-9]{5,12}$/, 'Course codes are 5 to 12 letters and digits, such as BSB50120'),
);

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** Query of GET /api/courses and the search page (SPEC 2.10, 7). Unknown parameters are ignored. */
export const CourseQuerySchema = v.object({
  search: v.optional(v.pipe(v.unknown(), v.transform(blankToUndefined), v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Search text must be at most 100 characters'))))),
  category: v.optional(v.pipe(v.unknown(), v.transform(blankToUndefined), v.optional(SlugSchema))),
  level: v.optional(v.pipe(v.unknown(), v.transform(blankToUndefined), v.optional(v.picklist(LEVELS, `Level must be one of: ${LEVELS.join(', ')}`)))),
  featured: v.optional(v.picklist(['true', 'false'], 'featured must be true or false')),
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'limit must be a whole number from 1 to 1000'), v.transform(Number), v.minValue(1, 'limit must be a whole number from 1 to 1000'), v.maxValue(1000, 'limit must be a whole number from 1 to 1000')),
    '1000',
  ),
});
export type CourseQuery = v.InferOutput<typeof CourseQuerySchema>;
