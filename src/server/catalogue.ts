/**
 * The catalogue on the server: the repository's content with the staff edits laid over it (src/catalogue/).
 * The edits are rows of three tables: `catalogue_courses` (an edited course, or one staff added),
 * `catalogue_categories` and `register_checks` (a register look-up staff recorded). Each row has a version that
 * grows with every save, who saved it and when; a save names the version it was based on and is refused when
 * someone saved in between, so no edit is ever lost.
 */
import * as v from 'valibot';
import { db, hasDatabase, iso, json, sql, type Queryable, type Sql } from '../platform/database.ts';
import { cachePolicies } from './http.ts';
import {
  applyOverlay,
  catalogueWithOverlay,
  createCatalogue,
  repositoryCatalogue,
  repositoryContent,
  type Catalogue,
} from '../catalogue/index.ts';
import {
  StoredCategorySchema,
  StoredCourseSchema,
  StoredRegisterCheckSchema,
  type RegisterCheck,
  type StoredRegisterCheck,
  type AddedFacts,
  type CategoryEdit,
  type CourseEdit,
  type Overlay,
  type StoredCategory,
  type StoredCourse,
} from '../schemas/catalogue.ts';

/** How an entry is named in messages (and in the activity log): `course/{code}`, `category/{slug}`, `check/{code}`. */
export const courseKey = (code: string) => `course/${code}`;
export const categoryKey = (slug: string) => `category/${slug}`;
/** A register look-up recorded by staff ("I checked this on training.gov.au today"). */
export const checkKey = (code: string) => `check/${code}`;
/** CDN cache tag of every public catalogue answer, purged when the catalogue changes. */
export const CATALOGUE_CACHE_TAG = 'catalogue';
/** Public catalogue answers: cached at the CDN until a deploy or a catalogue save purges them. */
export const CATALOGUE_CACHED: Record<string, string> = {
  ...cachePolicies.publicCatalogue,
  'Netlify-Cache-Tag': CATALOGUE_CACHE_TAG,
};

interface Stamped {
  version: number;
  updated_at: Date;
  updated_by: string;
}
interface CourseRow extends Stamped {
  code: string;
  added: unknown;
  edit: unknown;
}
interface CategoryRow extends Stamped {
  slug: string;
  edit: unknown;
}
interface CheckRow extends Stamped {
  code: string;
  status: string;
  title: string;
  by_name: string | null;
  work_hours: number | null;
}

const stampOf = (row: Stamped) => ({ version: row.version, updatedAt: iso(row.updated_at), updatedBy: row.updated_by });
const courseEntry = (row: CourseRow) => ({
  ...stampOf(row),
  code: row.code,
  ...(row.added === null ? {} : { added: row.added }),
  edit: row.edit,
});
const categoryEntry = (row: CategoryRow) => ({ ...stampOf(row), slug: row.slug, edit: row.edit });
const checkEntry = (row: CheckRow) => ({
  ...stampOf(row),
  code: row.code,
  status: row.status,
  title: row.title,
  ...(row.by_name === null ? {} : { byName: row.by_name }),
  ...(row.work_hours === null ? {} : { workHours: row.work_hours }),
});

const COURSES = sql`SELECT code, version, added, edit, updated_at, updated_by FROM catalogue_courses`;
const CATEGORIES = sql`SELECT slug, version, edit, updated_at, updated_by FROM catalogue_categories`;
const CHECKS = sql`SELECT code, version, status, title, by_name, work_hours, updated_at, updated_by FROM register_checks`;

/**
 * Every saved edit, checked row by row. No rows is no edits; a row that does not match the schema makes the
 * whole overlay unusable (error names the entry), so a half-applied catalogue is never built. Without a
 * database (a build that cannot reach one), there are no edits.
 */
export async function readOverlay(
  from: Queryable | null = null,
): Promise<{ overlay: Overlay | null; error: string | null }> {
  if (!from && !hasDatabase()) return { overlay: null, error: null };
  const q = from ?? db();
  // In key order (byte order, whatever the database's collation), as the runtime has always applied them; saves
  // are checked in this same order.
  const courses = await q.query<CourseRow>(sql`${COURSES} ORDER BY code COLLATE "C"`);
  const categories = await q.query<CategoryRow>(sql`${CATEGORIES} ORDER BY slug COLLATE "C"`);
  const checks = await q.query<CheckRow>(sql`${CHECKS} ORDER BY code COLLATE "C"`);
  const overlay: Overlay = { courses: [], categories: [], checks: [] };
  const invalid = (key: string, issue: v.BaseIssue<unknown>) => ({
    overlay: null,
    error: `saved entry ${key}${v.getDotPath(issue) ? ` at ${v.getDotPath(issue)}` : ''}: ${issue.message}`,
  });
  for (const row of categories) {
    const parsed = v.safeParse(StoredCategorySchema, categoryEntry(row));
    if (!parsed.success) return invalid(categoryKey(row.slug), parsed.issues[0]);
    overlay.categories.push(parsed.output);
  }
  for (const row of checks) {
    const parsed = v.safeParse(StoredRegisterCheckSchema, checkEntry(row));
    if (!parsed.success) return invalid(checkKey(row.code), parsed.issues[0]);
    overlay.checks.push(parsed.output);
  }
  for (const row of courses) {
    const parsed = v.safeParse(StoredCourseSchema, courseEntry(row));
    if (!parsed.success) return invalid(courseKey(row.code), parsed.issues[0]);
    overlay.courses.push(parsed.output);
  }
  return { overlay, error: null };
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The entries in the order readOverlay gives them (by key), so a save is checked as the runtime applies it. */
function inStoreOrder(overlay: Overlay): Overlay {
  return {
    courses: [...overlay.courses].sort((a, b) => byKey(courseKey(a.code), courseKey(b.code))),
    categories: [...overlay.categories].sort((a, b) => byKey(categoryKey(a.slug), categoryKey(b.slug))),
    checks: [...overlay.checks].sort((a, b) => byKey(checkKey(a.code), checkKey(b.code))),
  };
}

export interface LoadedCatalogue {
  catalogue: Catalogue;
  overlay: Overlay | null;
  /** Why the saved edits were not used (the repository's content is used instead), else null. */
  error: string | null;
}

const fallback = (error: string): LoadedCatalogue => ({ catalogue: repositoryCatalogue(), overlay: null, error });

let cached: { signature: string; value: Promise<LoadedCatalogue> } | undefined;

/**
 * Which rows the edit tables hold and which write made each (its transaction id, `xmin`, changes with every
 * write of the row): one small query that changes whenever any edit is saved, added or removed.
 */
const SIGNATURE = sql`
  SELECT coalesce(string_agg(entry, ' ' ORDER BY entry COLLATE "C"), '') AS signature FROM (
    SELECT 'course/' || code || ':' || xmin::text AS entry FROM catalogue_courses
    UNION ALL SELECT 'category/' || slug || ':' || xmin::text FROM catalogue_categories
    UNION ALL SELECT 'check/' || code || ':' || xmin::text FROM register_checks
  ) AS entries`;

/**
 * The catalogue with the saved edits: the one read path of every consumer (the build's pages, the public
 * API, the quote and its result, the applicant page, the e-mails, the inbox search, the dashboard and the
 * launch panel). With unusable edits (or an unreachable database), the repository's content, saying why.
 * A build that cannot reach a database uses the repository's content as it is.
 *
 * Each call asks for the edits' signature (one small query) and reuses this instance's copy only while it is
 * unchanged, so a save made anywhere (another function instance, another staff member) is seen by the next
 * call, never after some expiry.
 */
export async function loadCatalogue(): Promise<LoadedCatalogue> {
  if (!hasDatabase()) return { catalogue: repositoryCatalogue(), overlay: null, error: null };
  let signature: string;
  try {
    const [row] = await db().query<{ signature: string }>(SIGNATURE);
    signature = row?.signature ?? '';
  } catch (cause) {
    console.error('Catalogue: could not read the saved edits; using the repository content.', cause);
    return fallback('The saved catalogue edits could not be read.');
  }
  if (cached?.signature !== signature) {
    const value = catalogueFrom();
    cached = { signature, value };
    value.catch(() => {
      if (cached?.value === value) cached = undefined;
    });
  }
  return cached.value;
}

async function catalogueFrom(): Promise<LoadedCatalogue> {
  let read: Awaited<ReturnType<typeof readOverlay>>;
  try {
    read = await readOverlay(db());
  } catch (cause) {
    console.error('Catalogue: could not read the saved edits; using the repository content.', cause);
    return fallback('The saved catalogue edits could not be read.');
  }
  if (read.error) return fallback(read.error);
  const merged = catalogueWithOverlay(repositoryContent, read.overlay, repositoryCatalogue);
  return { ...merged, overlay: read.overlay };
}

/** The saved entry of a course, or null when nobody has saved it yet (or it does not parse). */
export async function readCourseEntry(code: string, from: Queryable = db()): Promise<StoredCourse | null> {
  const [row] = await from.query<CourseRow>(sql`${COURSES} WHERE code = ${code}`);
  const parsed = v.safeParse(StoredCourseSchema, row ? courseEntry(row) : null);
  return parsed.success ? parsed.output : null;
}

async function readCategoryEntry(slug: string, from: Queryable): Promise<StoredCategory | null> {
  const [row] = await from.query<CategoryRow>(sql`${CATEGORIES} WHERE slug = ${slug}`);
  const parsed = v.safeParse(StoredCategorySchema, row ? categoryEntry(row) : null);
  return parsed.success ? parsed.output : null;
}

export type SaveResult<T> =
  | { ok: true; entry: T }
  | { ok: false; reason: 'conflict'; current: T }
  | { ok: false; reason: 'invalid'; message: string };

/**
 * Checks the catalogue the edits would give before saving, so an edit that would break the build (a
 * successor that is not published, a new code that already exists) is refused now with a clear message.
 */
function checkWith(
  overlay: Overlay | null,
  replace: { courses?: StoredCourse; categories?: StoredCategory; checks?: StoredRegisterCheck },
): string | null {
  const base = overlay ?? { courses: [], categories: [], checks: [] };
  const next: Overlay = inStoreOrder({
    courses: replace.courses
      ? [...base.courses.filter((c) => c.code !== replace.courses!.code), replace.courses]
      : base.courses,
    categories: replace.categories
      ? [...base.categories.filter((c) => c.slug !== replace.categories!.slug), replace.categories]
      : base.categories,
    checks: replace.checks
      ? [...base.checks.filter((c) => c.code !== replace.checks!.code), replace.checks]
      : base.checks,
  });
  try {
    createCatalogue(applyOverlay(repositoryContent, next));
    return null;
  } catch (cause) {
    return cause instanceof Error ? cause.message : String(cause);
  }
}

/** The one advisory lock every catalogue save takes (an arbitrary fixed number: "cata" in ASCII). */
const SAVE_LOCK = 0x63617461;

const UNUSABLE = (error: string) =>
  `The saved catalogue edits cannot be used (${error}); fix or remove that entry first.`;

interface Target<T> {
  /** Writes `entry` only if the stored row still has `baseVersion` (no row: 0); answers whether it landed. */
  write(tx: Queryable, entry: T, baseVersion: number): Promise<boolean>;
  /** The stored entry (after a write was refused). */
  read(tx: Queryable): Promise<T | null>;
  /** The overlay's entry this one replaces, for the check of the whole catalogue. */
  replace(entry: T): Parameters<typeof checkWith>[1];
}

/**
 * A conditional save: lands only if the stored entry still has `baseVersion` (0: not saved before). Two saves
 * based on the same version: the first wins, the second gets the newer entry back. Every save, in every
 * instance, runs one at a time from check to write (a transaction holding one advisory lock, which it reads the
 * edits under), so two saves of different entries that are fine alone but not together (A to B and B to A)
 * cannot both pass the check.
 */
async function saveVersioned<T extends { version: number }>(
  baseVersion: number,
  build: (version: number) => T,
  target: Target<T>,
): Promise<SaveResult<T>> {
  const entry = build(baseVersion + 1);
  return db().transaction(async (tx): Promise<SaveResult<T>> => {
    await tx.query(sql`SELECT pg_advisory_xact_lock(${SAVE_LOCK}::bigint)`);
    const { overlay, error } = await readOverlay(tx);
    if (error) return { ok: false, reason: 'invalid', message: UNUSABLE(error) };
    const problem = checkWith(overlay, target.replace(entry));
    if (problem) return { ok: false, reason: 'invalid', message: problem };
    if (await target.write(tx, entry, baseVersion)) return { ok: true, entry };
    const current = await target.read(tx);
    if (!current) throw new Error('A catalogue save was refused, but no saved entry is there');
    return { ok: false, reason: 'conflict', current };
  });
}

const stamp = (version: number, updatedBy: string) => ({ version, updatedAt: new Date().toISOString(), updatedBy });

/** Whether a conditional write (INSERT ... ON CONFLICT DO NOTHING or UPDATE ... WHERE version) returned its row. */
const landed = async (tx: Queryable, statement: Sql) => (await tx.query(statement)).length === 1;

export async function saveCourse(
  code: string,
  input: { version: number; edit: CourseEdit; added?: AddedFacts },
  updatedBy: string,
): Promise<SaveResult<StoredCourse>> {
  return saveVersioned<StoredCourse>(
    input.version,
    (version) => ({
      ...stamp(version, updatedBy),
      code,
      ...(input.added ? { added: input.added } : {}),
      edit: input.edit,
    }),
    {
      write: (tx, entry, base) => {
        const added = entry.added ? json(entry.added) : null;
        return landed(
          tx,
          base === 0
            ? sql`INSERT INTO catalogue_courses (code, version, added, edit, updated_at, updated_by)
                  VALUES (${code}, 1, ${added}::jsonb, ${json(entry.edit)}::jsonb, ${entry.updatedAt}, ${entry.updatedBy})
                  ON CONFLICT (code) DO NOTHING RETURNING code`
            : sql`UPDATE catalogue_courses
                  SET version = ${entry.version}, added = ${added}::jsonb, edit = ${json(entry.edit)}::jsonb,
                      updated_at = ${entry.updatedAt}, updated_by = ${entry.updatedBy}
                  WHERE code = ${code} AND version = ${base} RETURNING code`,
        );
      },
      read: (tx) => readCourseEntry(code, tx),
      replace: (entry) => ({ courses: entry }),
    },
  );
}

export async function saveCategory(
  slug: string,
  input: { version: number; edit: CategoryEdit },
  updatedBy: string,
): Promise<SaveResult<StoredCategory>> {
  return saveVersioned<StoredCategory>(
    input.version,
    (version) => ({ ...stamp(version, updatedBy), slug, edit: input.edit }),
    {
      write: (tx, entry, base) =>
        landed(
          tx,
          base === 0
            ? sql`INSERT INTO catalogue_categories (slug, version, edit, updated_at, updated_by)
                  VALUES (${slug}, 1, ${json(entry.edit)}::jsonb, ${entry.updatedAt}, ${entry.updatedBy})
                  ON CONFLICT (slug) DO NOTHING RETURNING slug`
            : sql`UPDATE catalogue_categories
                  SET version = ${entry.version}, edit = ${json(entry.edit)}::jsonb,
                      updated_at = ${entry.updatedAt}, updated_by = ${entry.updatedBy}
                  WHERE slug = ${slug} AND version = ${base} RETURNING slug`,
        ),
      read: (tx) => readCategoryEntry(slug, tx),
      replace: (entry) => ({ categories: entry }),
    },
  );
}

/** The saved register look-up of a course, or null when nobody has recorded one. */
export async function readRegisterCheck(code: string, from: Queryable = db()): Promise<StoredRegisterCheck | null> {
  const [row] = await from.query<CheckRow>(sql`${CHECKS} WHERE code = ${code}`);
  const parsed = v.safeParse(StoredRegisterCheckSchema, row ? checkEntry(row) : null);
  return parsed.success ? parsed.output : null;
}

/**
 * Records "I checked this on training.gov.au today": what the register showed, with the server's time and the
 * signed-in staff member. Versioned like every other entry, so two staff recording at once never overwrite
 * each other unseen. A status other than current withdraws the course, so the whole catalogue is checked first.
 */
export async function saveRegisterCheck(
  code: string,
  input: { version: number; status: RegisterCheck['status']; title: string; workHours?: number },
  user: { username: string; name: string },
): Promise<SaveResult<StoredRegisterCheck>> {
  return saveVersioned<StoredRegisterCheck>(
    input.version,
    (version) => ({
      ...stamp(version, user.username),
      code,
      status: input.status,
      title: input.title,
      byName: user.name,
      ...(input.workHours ? { workHours: input.workHours } : {}),
    }),
    {
      write: (tx, entry, base) =>
        landed(
          tx,
          base === 0
            ? sql`INSERT INTO register_checks (code, version, status, title, by_name, work_hours, updated_at, updated_by)
                  VALUES (${code}, 1, ${entry.status}, ${entry.title}, ${entry.byName ?? null},
                          ${entry.workHours ?? null}, ${entry.updatedAt}, ${entry.updatedBy})
                  ON CONFLICT (code) DO NOTHING RETURNING code`
            : sql`UPDATE register_checks
                  SET version = ${entry.version}, status = ${entry.status}, title = ${entry.title},
                      by_name = ${entry.byName ?? null}, work_hours = ${entry.workHours ?? null},
                      updated_at = ${entry.updatedAt}, updated_by = ${entry.updatedBy}
                  WHERE code = ${code} AND version = ${base} RETURNING code`,
        ),
      read: (tx) => readRegisterCheck(code, tx),
      replace: (entry) => ({ checks: entry }),
    },
  );
}
