/**
 * The catalogue on the server: the repository's content with the staff edits kept in the `catalogue`
 * blob store laid over it (src/catalogue/). Each edited item is one entry (`course/{code}`,
 * `category/{slug}`) with a version that grows with every save, who saved it and when; a save names the
 * version it was based on and is refused when someone saved in between, so no edit is ever lost.
 */
import * as v from 'valibot';
import { dataStore, serialised, updateJSON } from './blobs.ts';
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

const store = () => dataStore('catalogue');
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

/** Whether this process can reach a blob store (functions, the build under Netlify or the local CLI, tests). */
const hasBlobs = () =>
  Boolean((globalThis as { netlifyBlobsContext?: unknown }).netlifyBlobsContext || process.env.NETLIFY_BLOBS_CONTEXT);

/**
 * Every saved edit, checked entry by entry. A missing store is no edits; an entry that does not match the
 * schema makes the whole overlay unusable (error names the entry), so a half-applied catalogue is never built.
 */
export async function readOverlay(): Promise<{ overlay: Overlay | null; error: string | null }> {
  if (!hasBlobs()) return { overlay: null, error: null };
  return readEntries((await store().list()).blobs.map((blob) => blob.key));
}

async function readEntries(keys: readonly string[]): Promise<{ overlay: Overlay | null; error: string | null }> {
  const catalogueStore = store();
  const overlay: Overlay = { courses: [], categories: [], checks: [] };
  const schemas = { courses: StoredCourseSchema, categories: StoredCategorySchema, checks: StoredRegisterCheckSchema };
  // In key order, whatever order the store lists them in; saves are checked in this same order.
  for (const key of [...keys].sort(byKey)) {
    const kind = key.startsWith('course/')
      ? 'courses'
      : key.startsWith('category/')
        ? 'categories'
        : key.startsWith('check/')
          ? 'checks'
          : null;
    if (!kind) continue;
    let raw: unknown;
    try {
      raw = await catalogueStore.get(key, { type: 'json' });
    } catch {
      return { overlay: null, error: `saved entry ${key} is not valid JSON` };
    }
    if (raw === null) continue;
    const invalid = (issue: v.BaseIssue<unknown>) => ({
      overlay: null,
      error: `saved entry ${key}${v.getDotPath(issue) ? ` at ${v.getDotPath(issue)}` : ''}: ${issue.message}`,
    });
    if (kind === 'courses') {
      const parsed = v.safeParse(schemas.courses, raw);
      if (!parsed.success) return invalid(parsed.issues[0]);
      overlay.courses.push(parsed.output);
    } else if (kind === 'checks') {
      const parsed = v.safeParse(schemas.checks, raw);
      if (!parsed.success) return invalid(parsed.issues[0]);
      overlay.checks.push(parsed.output);
    } else {
      const parsed = v.safeParse(schemas.categories, raw);
      if (!parsed.success) return invalid(parsed.issues[0]);
      overlay.categories.push(parsed.output);
    }
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
 * The catalogue with the saved edits: the one read path of every consumer (the build's pages, the public
 * API, the quote and its result, the applicant page, the e-mails, the inbox search, the dashboard and the
 * launch panel). With unusable edits (or an unreachable store), the repository's content, saying why.
 *
 * Each call lists the store (keys and etags, one request) and reuses this instance's copy only while that
 * listing is unchanged, so a save made anywhere (another function instance, another staff member) is seen
 * by the next call, never after some expiry.
 */
export async function loadCatalogue(): Promise<LoadedCatalogue> {
  if (!hasBlobs()) return { catalogue: repositoryCatalogue(), overlay: null, error: null };
  let listed: { key: string; etag: string }[];
  try {
    listed = (await store().list()).blobs;
  } catch (cause) {
    console.error('Catalogue: could not read the saved edits; using the repository content.', cause);
    return fallback('The saved catalogue edits could not be read.');
  }
  const signature = listed
    .map(({ key, etag }) => `${key} ${etag}`)
    .sort(byKey)
    .join('\n');
  if (cached?.signature !== signature) {
    const value = catalogueFrom(listed.map((blob) => blob.key));
    cached = { signature, value };
    value.catch(() => {
      if (cached?.value === value) cached = undefined;
    });
  }
  return cached.value;
}

async function catalogueFrom(keys: readonly string[]): Promise<LoadedCatalogue> {
  let read: Awaited<ReturnType<typeof readOverlay>>;
  try {
    read = await readEntries(keys);
  } catch (cause) {
    console.error('Catalogue: could not read the saved edits; using the repository content.', cause);
    return fallback('The saved catalogue edits could not be read.');
  }
  if (read.error) return fallback(read.error);
  const merged = catalogueWithOverlay(repositoryContent, read.overlay, repositoryCatalogue);
  return { ...merged, overlay: read.overlay };
}

/** The saved entry of a course, or null when nobody has saved it yet. */
export async function readCourseEntry(code: string): Promise<StoredCourse | null> {
  const raw = await store().get(courseKey(code), { type: 'json' });
  const parsed = v.safeParse(StoredCourseSchema, raw);
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

/**
 * A conditional save: lands only if the stored entry still has `baseVersion` (0: not saved before).
 * Two saves based on the same version: the first wins, the second gets the newer entry back.
 * Saves in this process run one at a time from check to write, so two saves of different entries
 * that are fine alone but not together (A to B and B to A) cannot both pass the check.
 */
function saveVersioned<T extends { version: number }>(
  key: string,
  baseVersion: number,
  build: (version: number) => T,
  validate: (entry: T) => Promise<string | null>,
): Promise<SaveResult<T>> {
  return serialised('catalogue-save', () => checkAndSave(key, baseVersion, build, validate));
}

async function checkAndSave<T extends { version: number }>(
  key: string,
  baseVersion: number,
  build: (version: number) => T,
  validate: (entry: T) => Promise<string | null>,
): Promise<SaveResult<T>> {
  const entry = build(baseVersion + 1);
  const problem = await validate(entry);
  if (problem) return { ok: false, reason: 'invalid', message: problem };
  let conflict: T | null = null;
  await updateJSON<T>(store(), key, (current) => {
    conflict = null;
    if ((current?.version ?? 0) !== baseVersion) {
      conflict = current;
      return undefined;
    }
    return entry;
  });
  if (conflict) return { ok: false, reason: 'conflict', current: conflict };
  return { ok: true, entry };
}

const stamp = (version: number, updatedBy: string) => ({ version, updatedAt: new Date().toISOString(), updatedBy });

export async function saveCourse(
  code: string,
  input: { version: number; edit: CourseEdit; added?: AddedFacts },
  updatedBy: string,
): Promise<SaveResult<StoredCourse>> {
  return saveVersioned<StoredCourse>(
    courseKey(code),
    input.version,
    (version) => ({
      ...stamp(version, updatedBy),
      code,
      ...(input.added ? { added: input.added } : {}),
      edit: input.edit,
    }),
    async (entry) => {
      const { overlay, error } = await readOverlay();
      if (error) return `The saved catalogue edits cannot be used (${error}); fix or remove that entry first.`;
      return checkWith(overlay, { courses: entry });
    },
  );
}

export async function saveCategory(
  slug: string,
  input: { version: number; edit: CategoryEdit },
  updatedBy: string,
): Promise<SaveResult<StoredCategory>> {
  return saveVersioned<StoredCategory>(
    categoryKey(slug),
    input.version,
    (version) => ({ ...stamp(version, updatedBy), slug, edit: input.edit }),
    async (entry) => {
      const { overlay, error } = await readOverlay();
      if (error) return `The saved catalogue edits cannot be used (${error}); fix or remove that entry first.`;
      return checkWith(overlay, { categories: entry });
    },
  );
}

/** The saved register look-up of a course, or null when nobody has recorded one. */
export async function readRegisterCheck(code: string): Promise<StoredRegisterCheck | null> {
  const parsed = v.safeParse(StoredRegisterCheckSchema, await store().get(checkKey(code), { type: 'json' }));
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
    checkKey(code),
    input.version,
    (version) => ({
      ...stamp(version, user.username),
      code,
      status: input.status,
      title: input.title,
      byName: user.name,
      ...(input.workHours ? { workHours: input.workHours } : {}),
    }),
    async (entry) => {
      const { overlay, error } = await readOverlay();
      if (error) return `The saved catalogue edits cannot be used (${error}); fix or remove that entry first.`;
      return checkWith(overlay, { checks: entry });
    },
  );
}
