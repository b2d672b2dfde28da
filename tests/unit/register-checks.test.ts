/**
 * Catalogue truths (issue: dates that mean what they say, work hours, watch list, accredited courses):
 * a course shows a register check only when a person recorded one, staff record it through the admin API,
 * work-hour requirements reach every place a course is offered, watched codes are for staff only and an
 * accredited course leaves the site after its accreditation ends.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { startStores } from './helpers/stores';
import { createUser, getUser } from '../../src/server/users';
import { issueToken } from '../../src/server/tokens';
import { createCatalogue, repositoryCatalogue, repositoryContent } from '../../src/catalogue/index';
import { loadCatalogue } from '../../src/server/catalogue';
import { launchReadiness } from '../../src/server/launch-readiness';
import { registerCheckShown, workRequirementText } from '../../src/lib/course-facts';
import { resultItems } from '../../src/catalogue/quote-result';
import CourseCard from '../../src/components/CourseCard';
import adminCatalogue from '../../netlify/functions/admin-catalogue.mts';
import { newCourse } from './helpers/catalogue-requests';

const WORK_CODES = ['CHC30125', 'CHC50125', 'CHC33021', 'CHC43015', 'CHC43121', 'CHC43315'];
let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';

beforeAll(async () => {
  process.env.JWT_SECRET = 'register-checks-test-secret-long-enough-0123456789';
  delete process.env.BUILD_HOOK_URL;
  delete process.env.LOCAL_BUILD_HOOK_URL;
  stores = await startStores();
  await createUser({
    username: 'reg-admin',
    firstName: 'Robin',
    lastName: 'Checker',
    role: 'admin',
    password: 'a long enough password',
  });
  token = await issueToken((await getUser('reg-admin'))!);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterAll(async () => {
  await stores.stop();
  vi.restoreAllMocks();
});
beforeEach(async () => {
  await stores.engine.exec('TRUNCATE catalogue_courses, catalogue_categories, register_checks');
});

async function call(method: string, path: string, body?: unknown, params: Record<string, string> = {}) {
  const request = new Request(`http://localhost${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await adminCatalogue(request, { params } as unknown as Context);
  return { status: response.status, body: await response.json() };
}
const recordCheck = (code: string, body: unknown) =>
  call('PUT', `/api/admin/catalogue/courses/${code}/register-check`, body, { code });

describe('register checks', () => {
  it('finding 1: a course without a recorded check is "not yet checked", whatever date its facts carry', () => {
    const course = repositoryCatalogue().courseByCode.get('CPC30220')!;
    expect(course.checkedOn).toBe('2026-11-23');
    expect(registerCheckShown(course)).toBeUndefined();
    const checked = repositoryCatalogue().courses.filter((c) => registerCheckShown(c));
    // Only our own look-up of PSP40122 on training.gov.au is a register check.
    expect(checked.map((c) => c.code)).toEqual(['PSP40122']);
  });

  it('finding 1: recording a check through the API stores who and when, and the course shows that date', async () => {
    const before = Date.now();
    const saved = await recordCheck('CPC30220', {
      version: 0,
      status: 'current',
      title: 'Certificate III in Carpentry',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.entry).toMatchObject({ version: 1, updatedBy: 'reg-admin', byName: 'Robin Checker' });
    expect(Date.parse(saved.body.entry.updatedAt)).toBeGreaterThanOrEqual(before);

    const opened = await call('GET', '/api/admin/catalogue/courses/CPC30220', undefined, { code: 'CPC30220' });
    expect(opened.body.registerCheck).toMatchObject({ by: 'Robin Checker', status: 'current', version: 1 });
    const list = await call('GET', '/api/admin/catalogue');
    const row = list.body.courses.find((c: { code: string }) => c.code === 'CPC30220');
    expect(row.registerCheck).toMatchObject({ status: 'current' });

    const { catalogue } = await loadCatalogue();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());
    expect(registerCheckShown(catalogue.courseByCode.get('CPC30220')!)).toEqual({
      checkedOn: today,
      status: 'current',
      title: 'Certificate III in Carpentry',
      by: 'Robin Checker',
    });
  });

  it('finding 1: a check with an unknown status or an old version changes nothing', async () => {
    const bad = await recordCheck('CPC30220', { version: 0, status: 'probably fine', title: 'X' });
    expect(bad.status).toBe(400);
    // A title of NULs (nothing, once the database has dropped them) is refused, not a 500.
    expect((await recordCheck('CPC30220', { version: 0, status: 'current', title: '\u0000\u0000' })).status).toBe(400);
    expect(
      (await recordCheck('CPC30220', { version: 0, status: 'current', title: 'Certificate III in Carpentry' })).status,
    ).toBe(200);
    const stale = await recordCheck('CPC30220', { version: 0, status: 'current', title: 'Another' });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ version: 1, title: 'Certificate III in Carpentry' });
  });

  it('finding 1: a code the register shows as superseded leaves the site', async () => {
    expect(
      (await recordCheck('BSB20120', { version: 0, status: 'superseded', title: 'Certificate II in Workplace Skills' }))
        .status,
    ).toBe(200);
    const { catalogue, error } = await loadCatalogue();
    expect(error).toBeNull();
    expect(catalogue.courseByCode.has('BSB20120')).toBe(false);
  });

  it('finding 1: a qualification added through the admin is unchecked until someone checks it', async () => {
    const added = await call(
      'POST',
      '/api/admin/catalogue/courses',
      newCourse('CPC39991', 'Certificate III in Check Tests'),
    );
    expect(added.status).toBe(201);
    const readiness = await launchReadiness(new Date('2026-11-26T00:00:00Z'));
    const unchecked = readiness.items.find((item) => item.id === 'register-unchecked')!;
    expect(unchecked.text).toMatch(/^152 qualifications are not yet checked/);
    expect(
      await recordCheck('CPC39991', { version: 0, status: 'current', title: 'Certificate III in Check Tests' }),
    ).toMatchObject({ status: 200 });
    const after = await launchReadiness(new Date('2026-11-26T00:00:00Z'));
    expect(after.items.find((item) => item.id === 'register-unchecked')!.text).toMatch(/^151 qualifications/);
  });
});

describe('work in the role', () => {
  it('finding 2: the six CHC qualifications the review names carry their hours on cards, suggestions and quotes', () => {
    const catalogue = repositoryCatalogue();
    const labelled = catalogue.courses.filter((c) => c.workRequirement).map((c) => c.code);
    expect(labelled.sort()).toEqual([...WORK_CODES].sort());
    const hours = Object.fromEntries(catalogue.cards.filter((c) => c.workHours).map((c) => [c.code, c.workHours]));
    expect(hours).toEqual({ CHC30125: 160, CHC50125: 280, CHC33021: 120, CHC43015: 120, CHC43121: 120, CHC43315: 80 });
    const card = renderToStaticMarkup(
      createElement(CourseCard, { course: catalogue.summary(catalogue.courseByCode.get('CHC30125')!) }),
    );
    expect(card).toContain('Needs current work in the role (160 hours)');
    const items = resultItems(
      [{ course: catalogue.summaries.find((c) => c.code === 'CHC43315')!, selected: true }],
      () => undefined,
    );
    expect(items[0]).toMatchObject({ code: 'CHC43315', workHours: 80 });
    const page = workRequirementText(catalogue.courseByCode.get('CHC43315')!)!;
    expect(page.label).toBe('Needs current work in the role');
    expect(page.detail).toContain('Our qualifications review found the assessment needs 80 hours');
    expect(workRequirementText(catalogue.courseByCode.get('CPC30220')!)).toBeUndefined();
  });
});

describe('watch list and accredited courses', () => {
  it('finding 6: a watched code shows its marker and note to staff and never in public shapes', async () => {
    const list = await call('GET', '/api/admin/catalogue');
    const row = list.body.courses.find((c: { code: string }) => c.code === 'CHC43315');
    expect(row.watch).toMatch(/national review of mental health and AOD/);
    const catalogue = repositoryCatalogue();
    const publicShapes = JSON.stringify([
      catalogue.cards,
      catalogue.summaries,
      catalogue.api.courses,
      catalogue.api.findCourseDetail('CHC43315'),
    ]);
    expect(publicShapes).not.toContain('watch');
    expect(publicShapes).not.toContain('national review');
    expect(repositoryCatalogue().courses.filter((c) => c.watch)).toHaveLength(20);
  });

  it('finding 6: an accredited course is withdrawn after its accreditation end date and its address is not found', () => {
    const content = structuredClone(repositoryContent);
    const courses = content.courses as { code: string; accreditedUntil?: string }[];
    courses.find((c) => c.code === '22603VIC')!.accreditedUntil = '2027-06-30';
    const onLastDay = createCatalogue(content, { today: '2027-06-30' });
    expect(onLastDay.courseByCode.has('22603VIC')).toBe(true);
    const after = createCatalogue(content, { today: '2027-07-01' });
    expect(after.courseByCode.has('22603VIC')).toBe(false);
    expect(after.expired).toEqual(['22603VIC']);
    expect(after.courseRedirect('/courses/22603VIC')).toBeNull();
    expect(after.api.courses.some((c) => c.code === '22603VIC')).toBe(false);
    // The review gives no end date, so none is invented: the launch panel asks for it instead.
    expect(repositoryCatalogue().courseByCode.get('22603VIC')!.accreditedUntil).toBeUndefined();
  });
});
