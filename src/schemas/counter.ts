import * as v from 'valibot';

/**
 * Entries of the `counters` store (src/server/counters.ts): `views/YYYY-MM` a month's blog views, and
 * `snapshot/YYYY-MM` the catalogue and blog totals as first seen that month (the baseline of growth).
 */
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const CounterSchema = v.object({ count: Count });
export type Counter = v.InferOutput<typeof CounterSchema>;

export const SnapshotSchema = v.object({
  courses: Count,
  categories: Count,
  publishedBlogs: Count,
  takenAt: v.string(),
});
export type Snapshot = v.InferOutput<typeof SnapshotSchema>;
