import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { error, json, methodNotAllowed, notFound, safeDecode } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { authorize } from '../../src/server/roles';
import { purgeTags } from '../../src/server/cdn';
import { rebuildAnswer, requestRebuild, rebuildStatus } from '../../src/server/rebuild';
import { adminCatalogue, adminCourse } from '../../src/server/catalogue-admin';
import {
  CATALOGUE_CACHE_TAG,
  readCourseEntry,
  saveCategory,
  saveCourse,
  saveRegisterCheck,
  type SaveResult,
} from '../../src/server/catalogue';
import {
  AddCourseSchema,
  CourseCodeSchema,
  RecordRegisterCheckSchema,
  SaveCategorySchema,
  SaveCourseSchema,
  SlugSchema,
  type StoredCategory,
  type StoredCourse,
  type StoredRegisterCheck,
} from '../../src/schemas/catalogue';
import { repositoryCatalogue } from '../../src/catalogue/index';
import { actorOf, diff, recordActivity } from '../../src/server/activity';

/** A course's details with its lists fit comfortably; anything bigger is not an edit. */
const MAX_BODY = 64 * 1024;

const CONFLICT = (by: string) =>
  `This was changed by ${by} after you opened it, so your changes were not saved. Compare the two versions and choose what to keep.`;

/**
 * Staff edit the catalogue (admin role only); every save is a row of the catalogue tables, purges the
 * public catalogue answers and asks for a rebuild of the pages.
 * GET  /api/admin/catalogue                      -> { courses, categories, overlayError, rebuild }
 * GET  /api/admin/catalogue/rebuild              -> the latest rebuild's state
 * GET  /api/admin/catalogue/courses/{code}       -> one course's facts, editable values and version
 * PUT  /api/admin/catalogue/courses/{code}       -> { version, edit }: 200, or 409 with the newer entry
 * PUT  /api/admin/catalogue/courses/{code}/register-check -> { version, status, title, workHours? }: "I checked
 *      this on training.gov.au today"; who and when are the signed-in staff member and the server's clock
 * POST /api/admin/catalogue/courses              -> { code, facts, edit }: a new qualification (201; 409 if the code exists)
 * GET  /api/admin/catalogue/categories/{slug}    -> one category as saved
 * PUT  /api/admin/catalogue/categories/{slug}    -> { version, edit }: 200, or 409 with the newer entry
 */
export default async (request: Request, context: Context) => {
  const auth = await authorize(request, 'catalogue');
  if (!auth.ok) return auth.response;
  const { username } = auth.user;
  const path = new URL(request.url).pathname.replace(/\/+$/, '');
  const deployId = context?.deploy?.id;

  /** What the log says of a save that landed: the entry's label, the action and its fields before and after. */
  type Logged<T> = { id: string; label: string; action: string; before: unknown; after: (entry: T) => unknown };
  const saved = async <T,>(result: SaveResult<T>, status = 200, logged?: Logged<T>) => {
    if (!result.ok) {
      if (result.reason === 'invalid') return error(400, result.message);
      const current = result.current as T & { updatedBy: string };
      return json({ message: CONFLICT(current.updatedBy), current }, { status: 409 });
    }
    if (logged)
      await recordActivity({
        actor: actorOf(auth.user),
        kind: 'catalogue',
        action: logged.action,
        target: { id: logged.id, label: logged.label },
        changes: diff(logged.before, logged.after(result.entry)),
      });
    await purgeTags([CATALOGUE_CACHE_TAG]);
    const rebuild = rebuildAnswer(await requestRebuild(username, deployId));
    return json({ success: true, entry: result.entry, rebuild }, { status });
  };

  if (path === '/api/admin/catalogue') {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    return json({ ...(await adminCatalogue()), rebuild: await rebuildStatus(deployId) });
  }
  if (path === '/api/admin/catalogue/rebuild') {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    return json(await rebuildStatus(deployId));
  }
  if (path === '/api/admin/catalogue/courses') {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const body = await parseJsonBody(AddCourseSchema, request, MAX_BODY);
    if (!body.ok) return body.response;
    const { code, facts, edit } = body.data;
    if (repositoryCatalogue().courseByCode.has(code) || repositoryCatalogue().superseded.has(code)) {
      return error(409, `${code} is already in the catalogue. Open it from the list to edit it.`);
    }
    const existing = await readCourseEntry(code);
    if (existing)
      return json(
        {
          message: `${code} was already added by ${existing.updatedBy}. Open it from the list to edit it.`,
          current: existing,
        },
        { status: 409 },
      );
    return saved(await saveCourse(code, { version: 0, edit, added: facts }, username), 201, {
      id: `course/${code}`,
      label: `${code} ${facts.title}`,
      action: 'course added',
      before: {},
      after: (entry: StoredCourse) => ({ facts: entry.added, edit: entry.edit }),
    });
  }

  const course = /^\/api\/admin\/catalogue\/courses\/([^/]+)$/.exec(path);
  if (course) {
    const code = v.safeParse(CourseCodeSchema, context?.params?.code ?? safeDecode(course[1]) ?? '');
    const found = code.success ? await adminCourse(code.output) : undefined;
    if (!code.success || !found) return notFound('Course not found.');
    if (request.method === 'GET') return json(found);
    if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
    const body = await parseJsonBody(SaveCourseSchema, request, MAX_BODY);
    if (!body.ok) return body.response;
    if (body.data.edit.retired?.successor === found.code)
      return error(400, 'A qualification cannot be its own successor.');
    const added = found.added ? (await readCourseEntry(found.code))?.added : undefined;
    return saved(await saveCourse(found.code, { ...body.data, ...(added ? { added } : {}) }, username), 200, {
      id: `course/${found.code}`,
      label: `${found.code} ${found.facts.title}`,
      action: body.data.edit.retired && !found.edit.retired ? 'course retired' : 'course updated',
      before: { edit: found.edit },
      after: (entry: StoredCourse) => ({ edit: entry.edit }),
    });
  }

  const check = /^\/api\/admin\/catalogue\/courses\/([^/]+)\/register-check$/.exec(path);
  if (check) {
    const code = v.safeParse(CourseCodeSchema, context?.params?.code ?? safeDecode(check[1]) ?? '');
    const found = code.success ? await adminCourse(code.output) : undefined;
    if (!code.success || !found) return notFound('Course not found.');
    if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
    if (found.status === 'retired') return error(400, `${found.code} is retired; it is not on the site to check.`);
    const body = await parseJsonBody(RecordRegisterCheckSchema, request, MAX_BODY);
    if (!body.ok) return body.response;
    const name = `${auth.user.firstName} ${auth.user.lastName}`.trim() || username;
    const { status, title, workHours } = found.registerCheck ?? {};
    return saved(await saveRegisterCheck(found.code, body.data, { username, name }), 200, {
      id: `course/${found.code}`,
      label: `${found.code} ${found.facts.title}`,
      action: 'register check recorded',
      before: { status, title, workHours },
      after: (entry: StoredRegisterCheck) => ({ status: entry.status, title: entry.title, workHours: entry.workHours }),
    });
  }

  const category = /^\/api\/admin\/catalogue\/categories\/([^/]+)$/.exec(path);
  if (category) {
    const slug = v.safeParse(SlugSchema, context?.params?.slug ?? safeDecode(category[1]) ?? '');
    if (!slug.success || !repositoryCatalogue().categoryBySlug.has(slug.output)) return notFound('Category not found.');
    if (request.method === 'GET') return json((await adminCatalogue()).categories.find((c) => c.slug === slug.output));
    if (request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
    const body = await parseJsonBody(SaveCategorySchema, request, MAX_BODY);
    if (!body.ok) return body.response;
    const before = (await adminCatalogue()).categories.find((c) => c.slug === slug.output);
    return saved(await saveCategory(slug.output, body.data, username), 200, {
      id: `category/${slug.output}`,
      label: before?.name ?? slug.output,
      action: 'category updated',
      before: { description: before?.description, color: before?.color, image: before?.image },
      after: (entry: StoredCategory) => entry.edit,
    });
  }
  return notFound();
};

export const config: Config = {
  path: [
    '/api/admin/catalogue',
    '/api/admin/catalogue/rebuild',
    '/api/admin/catalogue/courses',
    '/api/admin/catalogue/courses/:code',
    '/api/admin/catalogue/courses/:code/register-check',
    '/api/admin/catalogue/categories/:slug',
  ],
};
