import * as v from 'valibot';

/** The `limit` query parameter: a whole number from 1 to `max`, `fallback` when it is not given. */
export const limitParam = (max: number, fallback: number) => {
  const rule = `limit must be a whole number from 1 to ${max}`;
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(new RegExp(`^\\d{1,${String(max).length}}$`), rule),
      v.transform(Number),
      v.minValue(1, rule),
      v.maxValue(max, rule),
    ),
    String(fallback),
  );
};
