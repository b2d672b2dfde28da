import * as v from 'valibot';
import { db, iso, sql } from '../platform/database.ts';
import { monthKey } from './months.ts';
import { SnapshotSchema, type Snapshot } from '../schemas/counter.ts';

export type { Snapshot } from '../schemas/counter.ts';

/**
 * Monthly counters: `monthly_views` holds the blog views of each month (YYYY-MM, Sydney time), and
 * `monthly_snapshots` the catalogue and blog totals as first seen that month (the baseline of growth).
 */

/**
 * Adds one view to the month of `at` and answers the month's count. One statement: many view beacons at once
 * each add their one, none is lost or counted twice.
 */
export async function addView(at: Date = new Date()): Promise<number> {
  const [row] = await db().query<{ count: number }>(
    sql`INSERT INTO monthly_views (month, count) VALUES (${monthKey(at)}, 1)
        ON CONFLICT (month) DO UPDATE SET count = monthly_views.count + 1
        RETURNING count`,
  );
  return row?.count ?? 0;
}

export async function viewsIn(month: string): Promise<number> {
  const [row] = await db().query<{ count: number }>(sql`SELECT count FROM monthly_views WHERE month = ${month}`);
  return row?.count ?? 0;
}

export async function readSnapshot(month: string): Promise<Snapshot | null> {
  const [row] = await db().query<{ courses: number; categories: number; published_blogs: number; taken_at: Date }>(
    sql`SELECT courses, categories, published_blogs, taken_at FROM monthly_snapshots WHERE month = ${month}`,
  );
  if (!row) return null;
  return v.parse(SnapshotSchema, {
    courses: row.courses,
    categories: row.categories,
    publishedBlogs: row.published_blogs,
    takenAt: iso(row.taken_at),
  });
}

/** Records the month's baseline once; later calls in the same month keep the first one. */
export async function recordSnapshot(month: string, totals: Omit<Snapshot, 'takenAt'>): Promise<void> {
  const snapshot = v.parse(SnapshotSchema, { ...totals, takenAt: new Date().toISOString() });
  await db().query(
    sql`INSERT INTO monthly_snapshots (month, courses, categories, published_blogs, taken_at)
        VALUES (${month}, ${snapshot.courses}, ${snapshot.categories}, ${snapshot.publishedBlogs}, ${snapshot.takenAt})
        ON CONFLICT (month) DO NOTHING`,
  );
}
