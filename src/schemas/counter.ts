import * as v from 'valibot';

/**
 * A row of `monthly_snapshots` (src/server/counters.ts): the catalogue and blog totals as first seen in a month
 * (the baseline of the dashboard's growth figures).
 */
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const SnapshotSchema = v.object({
  courses: Count,
  categories: Count,
  publishedBlogs: Count,
  takenAt: v.string(),
});
export type Snapshot = v.InferOutput<typeof SnapshotSchema>;
