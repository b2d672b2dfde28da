/**
 * Finding 5: roles were not enforced (an editor token could read every inquiry, export the CSV, change
 * site settings and delete posts). One table names what every route and method needs; each staff-only
 * entry is called with an admin and an editor token against the real handler. A route a function
 * answers that is missing from the table fails the coverage test, so a new endpoint cannot ship
 * without deciding who may use it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  changedStores,
  fakeContext,
  fillRoute,
  FUNCTIONS,
  handlerFor,
  snapshotBlobs,
  startInspectableBlobs,
  type LocalBlobs,
} from './helpers/hostile';
import { writeMark } from './helpers/staff';
import { createUser, getUser } from '../../src/server/users';
import { issueToken } from '../../src/server/tokens';
import { createBlog } from '../../src/server/blogs';
import { BlogInputSchema } from '../../src/schemas/blog';
import * as v from 'valibot';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { can, PERMISSIONS, ROLE_PERMISSIONS, type Permission } from '../../src/lib/roles';
import { ROLES } from '../../src/schemas/auth';
import { categoryEdit, courseEdit, newCourse } from './helpers/catalogue-requests';
import { storeContactInquiry } from './helpers/inquiries';

/**
 * 'public': anyone; 'applicant': the private link's token, never a staff session (tests/unit/applicant-attacks.test.ts);
 * 'session': any signed-in account; otherwise the permission the role needs.
 */
type Access = 'public' | 'applicant' | 'session' | Permission;
const ACCESS: Record<string, Record<string, Access>> = {
  '/api/auth/login': { POST: 'public' },
  '/api/auth/link': { POST: 'public' },
  '/api/auth/verify': { GET: 'session' },
  '/api/auth/logout': { POST: 'session' },
  '/api/auth/logout-everywhere': { POST: 'session' },
  '/api/auth/accept-invite': { POST: 'public' },
  '/api/auth/setup': { GET: 'public', POST: 'public' },
  '/api/admin/users': { GET: 'users', POST: 'users' },
  '/api/admin/users/:username': { PATCH: 'users', DELETE: 'users' },
  '/api/admin/me': { GET: 'session', PATCH: 'session' },
  '/api/admin/me/password': { POST: 'session' },
  '/api/admin/me/sessions': { GET: 'session' },
  '/api/admin/me/sessions/:id': { DELETE: 'session' },
  // An authenticator app is for administrators; anyone who has one may turn it off.
  '/api/admin/me/second-factor': { POST: 'users' },
  '/api/admin/me/second-factor/confirm': { POST: 'users' },
  '/api/admin/me/second-factor/off': { POST: 'session' },
  '/api/admin/dashboard-stats': { GET: 'dashboard' },
  '/api/admin/activity': { GET: 'activity' },
  '/api/admin/launch-readiness': { GET: 'settings' },
  '/api/public/site-settings': { GET: 'public' },
  '/api/admin/site-settings': { GET: 'settings', POST: 'settings' },
  '/api/admin/site-settings/rebuild': { GET: 'settings' },
  '/api/admin/inquiries': { GET: 'inquiries' },
  '/api/admin/inquiries/export.csv': { GET: 'inquiries' },
  '/api/admin/inquiry-exports': { POST: 'inquiries' },
  '/api/admin/inquiry-exports/:id': { GET: 'inquiries' },
  '/api/admin/inquiry-exports/:id/file': { GET: 'inquiries' },
  '/api/admin/inquiries/:id': { PATCH: 'inquiries' },
  '/api/admin/inquiries/:id/notes': { POST: 'inquiries' },
  '/api/admin/inquiries/:id/replies': { POST: 'inquiries' },
  '/api/admin/reply-templates': { GET: 'inquiries', PUT: 'templates' },
  '/api/blogs': { GET: 'public', POST: 'blogs' },
  '/api/blogs/:slug': { GET: 'public', PUT: 'blogs', DELETE: 'blogs' },
  '/api/blogs/admin/all': { GET: 'blogs' },
  '/api/blogs/admin/publish-due': { POST: 'blogs' },
  '/api/blogs/admin/:id/revisions': { GET: 'blogs', POST: 'blogs' },
  '/api/blogs/:slug/view': { POST: 'public' },
  '/api/upload/image': { POST: 'uploads' },
  '/api/uploads': { GET: 'uploads' },
  '/api/uploads/:key': { GET: 'public' },
  '/api/categories': { GET: 'public' },
  '/api/categories/:slug': { GET: 'public' },
  '/api/categories/:slug/courses': { GET: 'public' },
  '/api/courses': { GET: 'public' },
  '/api/courses/search-options': { GET: 'public' },
  '/api/course-details/:code': { GET: 'public' },
  '/api/email/contact': { POST: 'public' },
  '/api/email/quote': { POST: 'public' },
  '/api/applicant': { GET: 'applicant' },
  '/api/applicant/link': { POST: 'public' },
  '/api/applicant/evidence': { POST: 'applicant' },
  '/api/applicant/evidence/:uploadId': { DELETE: 'applicant' },
  '/api/applicant/evidence/:uploadId/chunks/:n': { PUT: 'applicant' },
  '/api/applicant/evidence/:uploadId/complete': { POST: 'applicant' },
  '/api/admin/applicants/:id': { GET: 'inquiries', PATCH: 'inquiries' },
  '/api/admin/applicants/:id/items/:itemId': { PUT: 'inquiries' },
  '/api/admin/applicants/:id/files/:fileId': { GET: 'inquiries' },
  '/api/admin/applicants/:id/revoke': { POST: 'inquiries' },
  '/api/admin/applicants/:id/erase': { POST: 'inquiries' },
  '/api/applicant/callback': { POST: 'applicant' },
  '/api/public/marketing-withdrawal': { POST: 'public' },
  '/categories/:slug': { GET: 'public' },
  '/category/:slug': { GET: 'public' },
  '/courses/category/:slug': { GET: 'public' },
  '/courses/:code': { GET: 'public' },
  '/api/admin/catalogue': { GET: 'catalogue' },
  '/api/admin/catalogue/rebuild': { GET: 'catalogue' },
  '/api/admin/catalogue/courses': { POST: 'catalogue' },
  '/api/admin/catalogue/courses/:code': { GET: 'catalogue', PUT: 'catalogue' },
  '/api/admin/catalogue/courses/:code/register-check': { PUT: 'catalogue' },
  '/api/admin/catalogue/categories/:slug': { GET: 'catalogue', PUT: 'catalogue' },
};

let blobs: LocalBlobs;
const fixtures = { inquiryId: '', blogId: '' };
/** Valid requests, so a refusal is the role's doing and an allowed call would really act. */
const REQUESTS: Record<string, { body?: unknown; params?: () => Record<string, string> }> = {
  'POST /api/admin/users': {
    body: { email: 'invited-by-role-test@example.com', firstName: 'Invited', lastName: 'Person', role: 'editor' },
  },
  'PATCH /api/admin/users/:username': { body: { role: 'admin' }, params: () => ({ username: 'role-victim' }) },
  'DELETE /api/admin/users/:username': { params: () => ({ username: 'role-doomed' }) },
  'PATCH /api/admin/me': { body: { firstName: 'Role', lastName: 'Renamed' } },
  'POST /api/admin/me/password': { body: { current: 'not the current password', next: 'another long password' } },
  'DELETE /api/admin/me/sessions/:id': { params: () => ({ id: crypto.randomUUID() }) },
  'POST /api/admin/me/second-factor': { body: { password: 'not the current password' } },
  'POST /api/admin/me/second-factor/confirm': { body: { code: '123456' } },
  'POST /api/admin/me/second-factor/off': { body: { password: 'not the current password' } },
  'POST /api/admin/site-settings': {
    body: {
      ...defaultSiteSettings,
      contactInfo: { ...defaultSiteSettings.contactInfo, email: 'changed-by-role-test@example.com' },
    },
  },
  'PATCH /api/admin/inquiries/:id': {
    body: { status: 'handled', assignee: 'role-admin', followUp: '2026-12-01' },
    params: () => ({ id: fixtures.inquiryId }),
  },
  'POST /api/admin/inquiries/:id/notes': {
    body: { text: 'Role test note' },
    params: () => ({ id: fixtures.inquiryId }),
  },
  'POST /api/admin/inquiries/:id/replies': {
    body: { subject: 'Role test reply', body: 'Hi {firstName}' },
    params: () => ({ id: fixtures.inquiryId }),
  },
  'PUT /api/admin/reply-templates': {
    body: { version: 0, templates: [{ id: 'role-test', name: 'Role test', subject: 'Hi', body: 'Hello {firstName}' }] },
  },
  'DELETE /api/applicant/evidence/:uploadId': { params: () => ({ uploadId: '0123456789abcdef0123456789abcdef' }) },
  'PUT /api/applicant/evidence/:uploadId/chunks/:n': {
    params: () => ({ uploadId: '0123456789abcdef0123456789abcdef', n: '0' }),
  },
  'POST /api/applicant/evidence/:uploadId/complete': {
    params: () => ({ uploadId: '0123456789abcdef0123456789abcdef' }),
  },
  'POST /api/applicant/evidence': { body: { name: 'a.pdf', size: 100, item: 'general' } },
  'GET /api/admin/applicants/:id': { params: () => ({ id: fixtures.inquiryId }) },
  'PATCH /api/admin/applicants/:id': { body: { stage: 'gathering' }, params: () => ({ id: fixtures.inquiryId }) },
  'PUT /api/admin/applicants/:id/items/:itemId': {
    body: { status: 'accepted', note: '' },
    params: () => ({ id: fixtures.inquiryId, itemId: 'general' }),
  },
  'GET /api/admin/applicants/:id/files/:fileId': {
    params: () => ({ id: fixtures.inquiryId, fileId: '0123456789abcdef0123456789abcdef' }),
  },
  'POST /api/admin/applicants/:id/revoke': { params: () => ({ id: fixtures.inquiryId }) },
  'POST /api/admin/applicants/:id/erase': { body: { confirm: 'wrong' }, params: () => ({ id: fixtures.inquiryId }) },
  'POST /api/blogs': { body: { title: 'Role test post', excerpt: 'E', content: '<p>C</p>' } },
  'PUT /api/blogs/:slug': {
    body: { title: 'Role test edit', excerpt: 'E', content: '<p>C</p>', version: 1 },
    params: () => ({ slug: fixtures.blogId }),
  },
  'DELETE /api/blogs/:slug': { params: () => ({ slug: fixtures.blogId }) },
  'GET /api/admin/catalogue/courses/:code': { params: () => ({ code: 'CPC30220' }) },
  'PUT /api/admin/catalogue/courses/:code': {
    body: { version: 0, edit: courseEdit('CPC30220') },
    params: () => ({ code: 'CPC30220' }),
  },
  'PUT /api/admin/catalogue/courses/:code/register-check': {
    body: { version: 0, status: 'current', title: 'Certificate III in Carpentry' },
    params: () => ({ code: 'CPC30220' }),
  },
  'POST /api/admin/catalogue/courses': { body: newCourse('CPC39990', 'Certificate III in Role Tests') },
  'GET /api/admin/catalogue/categories/:slug': { params: () => ({ slug: 'health-fitness' }) },
  'PUT /api/admin/catalogue/categories/:slug': { body: categoryEdit, params: () => ({ slug: 'health-fitness' }) },
  'GET /api/blogs/admin/:id/revisions': { params: () => ({ id: fixtures.blogId }) },
  'POST /api/blogs/admin/:id/revisions': { body: { revision: 1, version: 1 }, params: () => ({ id: fixtures.blogId }) },
};

/** A fresh token each time (a sign-in records its session, so issue it before taking a snapshot). */
const tokenOf = async (role: string) => issueToken((await getUser(`role-${role}`))!);

async function call(route: string, method: string, role: string | null, token?: string) {
  const extra = REQUESTS[`${method} ${route}`] ?? {};
  const params = extra.params?.() ?? {};
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  // A fresh token each time: the logout rows end the session of the token they are given.
  if (role) headers.authorization = `Bearer ${token ?? (await tokenOf(role))}`;
  const request = new Request(`http://localhost${fillRoute(route, params)}`, {
    method,
    headers,
    body: extra.body === undefined ? undefined : JSON.stringify(extra.body),
  });
  return (await handlerFor(route)!.handler(request, fakeContext(params))) as Response;
}

beforeAll(async () => {
  process.env.JWT_SECRET = 'roles-test-secret-that-is-long-enough-0123456789';
  delete process.env.RESEND_API_KEY;
  blobs = await startInspectableBlobs();
  for (const role of ROLES) {
    await createUser({
      username: `role-${role}`,
      firstName: 'Role',
      lastName: role,
      role,
      password: 'a long enough password',
    });
  }
  for (const username of ['role-victim', 'role-doomed'])
    await createUser({
      username,
      firstName: 'Role',
      lastName: 'Target',
      role: 'editor',
      password: 'a long enough password',
    });
  vi.spyOn(console, 'log').mockImplementation(() => {});
  fixtures.inquiryId = (await storeContactInquiry()).id;
  fixtures.blogId = (
    await createBlog(
      v.parse(BlogInputSchema, { title: 'Role fixture', excerpt: 'E', content: '<p>C</p>' }),
      'role-admin',
    )
  )._id;
});
afterAll(() => blobs?.stop());

/** The files (blob folder) and the database's write mark as they are now, to prove a request wrote nothing. */
async function snapshot() {
  return { files: await snapshotBlobs(blobs.directory), mark: await writeMark() };
}
/** The blob stores a request changed since the snapshot, and 'database' if it wrote any row. */
async function changesSince(before: Awaited<ReturnType<typeof snapshot>>) {
  const database = (await writeMark()) === before.mark ? [] : ['database'];
  return [...changedStores(before.files, await snapshotBlobs(blobs.directory)), ...database];
}
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('finding 5: roles are not enforced', () => {
  it('every route a function answers has an entry in the access table (and no entry is stale)', () => {
    const answered = FUNCTIONS.flatMap((fn) => fn.paths).sort();
    expect(Object.keys(ACCESS).sort()).toEqual(answered);
  });

  it('roles are defined in one place: admin may do everything, editor blog posts and uploads only', () => {
    expect([...ROLES].sort()).toEqual(Object.keys(ROLE_PERMISSIONS).sort());
    expect(PERMISSIONS.filter((p) => can('admin', p))).toEqual([...PERMISSIONS]);
    expect(PERMISSIONS.filter((p) => can('editor', p)).sort()).toEqual(['blogs', 'uploads']);
    // Staff accounts: administrators only (issue: accounts in the admin).
    expect(can('admin', 'users')).toBe(true);
    expect(can('editor', 'users')).toBe(false);
    expect(can('root', 'blogs')).toBe(false);
    expect(can('__proto__', 'blogs')).toBe(false);
  });

  const staffOnly = Object.entries(ACCESS).flatMap(([route, methods]) =>
    Object.entries(methods)
      .filter(([, access]) => access !== 'public' && access !== 'applicant')
      .map(([method, access]) => ({ route, method, access })),
  );
  const cases = staffOnly.flatMap((entry) => ROLES.map((role) => ({ ...entry, role })));

  const applicantOnly = Object.entries(ACCESS).flatMap(([route, methods]) =>
    Object.entries(methods)
      .filter(([, access]) => access === 'applicant')
      .flatMap(([method]) => ROLES.map((role) => ({ route, method, role }))),
  );
  it.each(applicantOnly)(
    'issue 25: $method $route takes no staff session ($role gets 401)',
    async ({ route, method, role }) => {
      const token = await tokenOf(role);
      const before = await snapshot();
      const response = await call(route, method, role, token);
      expect(response.status).toBe(401);
      expect(await changesSince(before)).toEqual([]);
    },
  );

  it.each(cases)('$method $route as $role ($access)', async ({ route, method, access, role }) => {
    expect((await call(route, method, null)).status, 'without a token').toBe(401);
    const allowed = access === 'session' || can(role, access as Permission);
    const token = await tokenOf(role);
    const before = await snapshot();
    const response = await call(route, method, role, token);
    if (allowed) {
      expect([401, 403], `${role} may ${method} ${route}`).not.toContain(response.status);
    } else {
      expect(response.status, `${role} must not ${method} ${route}`).toBe(403);
      expect((await response.json()).message).toMatch(new RegExp(`^Your role \\(${role}\\) does not allow this`));
      expect(await changesSince(before), 'a refused request writes nothing').toEqual([]);
    }
  });
});
