/**
 * Staff edits of the catalogue: kept in the catalogue tables of the database, checked by the schemas the build uses,
 * laid over the repository's content by the build and the functions, and never lost to a parallel save.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { lineUp } from './helpers/race';
import { createUser, getUser } from '../../src/server/users';
import { issueToken } from '../../src/server/tokens';
import { applyOverlay, createCatalogue, repositoryCatalogue, repositoryContent } from '../../src/catalogue/index';
import { loadCatalogue } from '../../src/server/catalogue';
import adminCatalogue from '../../netlify/functions/admin-catalogue.mts';
import coursesHandler from '../../netlify/functions/courses.mts';
import courseDetails from '../../netlify/functions/course-details.mts';
import courseNotFound from '../../netlify/functions/course-not-found.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  process.env.JWT_SECRET = 'catalogue-overlay-test-secret-long-enough-0123456789';
  delete process.env.BUILD_HOOK_URL;
  delete process.env.LOCAL_BUILD_HOOK_URL;
  stores = await startStores();
  for (const [username, role] of [
    ['cat-admin', 'admin'],
    ['cat-other', 'admin'],
    ['cat-editor', 'editor'],
  ] as const) {
    await createUser({ username, firstName: 'Cat', lastName: role, role, password: 'a long enough password' });
    tokens[username] = await issueToken((await getUser(username))!);
  }
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterAll(async () => {
  await stores.stop();
  vi.restoreAllMocks();
});
beforeEach(async () => {
  await stores.engine.exec('TRUNCATE catalogue_courses, catalogue_categories, register_checks, rebuild_requests');
});

/** Every saved entry, named as the admin's messages name them (`course/CODE`, `category/slug`, `check/CODE`). */
const storedKeys = async () =>
  (
    await stores.engine.query<{ key: string }>(
      `SELECT 'course/' || code AS key FROM catalogue_courses UNION ALL SELECT 'category/' || slug FROM catalogue_categories
       UNION ALL SELECT 'check/' || code FROM register_checks ORDER BY key`,
    )
  ).rows.map((row) => row.key);

async function call(
  method: string,
  path: string,
  body?: unknown,
  user = 'cat-admin',
  params: Record<string, string> = {},
) {
  const request = new Request(`http://localhost${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await adminCatalogue(request, { params } as unknown as Context);
  return { status: response.status, body: await response.json() };
}

const openCourse = async (code: string) =>
  (await call('GET', `/api/admin/catalogue/courses/${code}`, undefined, 'cat-admin', { code })).body;
const save = (code: string, version: number, edit: unknown, user = 'cat-admin') =>
  call('PUT', `/api/admin/catalogue/courses/${code}`, { version, edit }, user, { code });

describe('saving a course edit', () => {
  it('keeps who saved it and when, and the public API shows it at once', async () => {
    const course = await openCourse('CPC30220');
    expect(course).toMatchObject({
      code: 'CPC30220',
      version: 0,
      status: 'published',
      facts: { title: 'Certificate III in Carpentry' },
    });
    const about = 'Carpenters with years on residential and commercial sites, recognised for what they already do.';
    const saved = await save('CPC30220', 0, { ...course.edit, details: { ...course.edit.details, about } });
    expect(saved.status).toBe(200);
    expect(saved.body.entry).toMatchObject({
      version: 1,
      updatedBy: 'cat-admin',
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(saved.body.rebuild).toMatchObject({ state: 'not-configured' });

    const detail = await courseDetails(new Request('http://localhost/api/course-details/CPC30220'), {
      params: { code: 'CPC30220' },
    } as unknown as Context);
    expect((await detail.json()).courseCode).toBe('CPC30220');
    const list = await (
      await coursesHandler(new Request('http://localhost/api/courses?search=CPC30220'), {} as Context)
    ).json();
    expect(list.courses[0]).toMatchObject({ code: 'CPC30220', about });
    expect((await openCourse('CPC30220')).status).toBe('edited');
  });

  it('refuses invalid edits with a 400 naming the field, and stores nothing', async () => {
    const course = await openCourse('CPC30220');
    const tooShort = await save('CPC30220', 0, {
      ...course.edit,
      details: { ...course.edit.details, scopeOfWork: ['Only one'] },
    });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors[0]).toMatchObject({
      field: 'edit.details.scopeOfWork',
      message: 'Scope of work needs at least 3 items',
    });
    const badTerm = await save('CPC30220', 0, { ...course.edit, terms: ['Chippy!'] });
    expect(badTerm.status).toBe(400);
    const noSuccessor = await save('CPC30220', 0, { ...course.edit, retired: { successor: 'ZZZ99999' } });
    expect(noSuccessor).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('ZZZ99999 is not in the catalogue') },
    });
    expect((await openCourse('CPC30220')).version).toBe(0);
    expect(await storedKeys()).toEqual([]);
  });

  it('gives the second of two parallel saves based on the same version a 409 with the newer entry; nothing is lost', async () => {
    const course = await openCourse('BSB50120');
    const mine = {
      ...course.edit,
      details: { ...course.edit.details, about: 'Version written by the first member of staff to save it.' },
    };
    const theirs = {
      ...course.edit,
      details: { ...course.edit.details, about: 'Version written by the second member of staff, in parallel.' },
    };
    const results = await Promise.all([
      save('BSB50120', 0, mine, 'cat-admin'),
      save('BSB50120', 0, theirs, 'cat-other'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.current).toEqual(winner.body.entry);
    expect(loser.body.message).toContain(`changed by ${winner.body.entry.updatedBy}`);
    // The stored entry is the winner's, whole; saving again on the newer version lands.
    expect((await openCourse('BSB50120')).edit.details.about).toBe(winner.body.entry.edit.details.about);
    const retry = await save('BSB50120', 1, loser === results[0] ? mine : theirs);
    expect(retry.status).toBe(200);
    expect(retry.body.entry.version).toBe(2);
  });
});

describe('retiring and adding qualifications', () => {
  it('retires a course with a successor: it leaves the catalogue and its address redirects', async () => {
    const course = await openCourse('CPC30220');
    expect((await save('CPC30220', 0, { ...course.edit, retired: { successor: 'CPC30320' } })).status).toBe(200);
    const { catalogue, error } = await loadCatalogue();
    expect(error).toBeNull();
    expect(catalogue.courseByCode.has('CPC30220')).toBe(false);
    const moved = await courseNotFound(new Request('http://localhost/courses/cpc30220'));
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/courses/CPC30320');
    expect((await openCourse('CPC30220')).status).toBe('retired');
  });

  it('adds a new qualification by code with its checked facts, and refuses a code already published', async () => {
    const template = (await openCourse('CPC30220')).edit;
    const facts = {
      title: 'Certificate III in Test Carpentry',
      level: 'Certificate III',
      category: 'civil-construction',
      source: 'https://training.gov.au/Training/Details/CPC39999',
      checkedOn: '2026-11-20',
    };
    const added = await call('POST', '/api/admin/catalogue/courses', {
      code: ' cpc39999 ',
      facts,
      edit: { ...template, retired: null },
    });
    expect(added.status).toBe(201);
    expect(added.body.entry).toMatchObject({ code: 'CPC39999', version: 1, added: facts });
    const { catalogue } = await loadCatalogue();
    expect(catalogue.courseByCode.get('CPC39999')).toMatchObject({
      title: facts.title,
      status: 'current',
      checkedOn: '2026-11-20',
    });
    expect(catalogue.summaries.some((s) => s.code === 'CPC39999')).toBe(true);

    expect(
      (await call('POST', '/api/admin/catalogue/courses', { code: 'CPC30220', facts, edit: template })).status,
    ).toBe(409);
    const badCode = await call('POST', '/api/admin/catalogue/courses', { code: 'CPC-3', facts, edit: template });
    expect(badCode).toMatchObject({
      status: 400,
      body: { message: 'Course codes are 5 to 12 letters and digits, such as BSB50120' },
    });
    const badDate = await call('POST', '/api/admin/catalogue/courses', {
      code: 'CPC39998',
      facts: { ...facts, checkedOn: '2026-02-30' },
      edit: template,
    });
    expect(badDate.status).toBe(400);
    const unknownCategory = await call('POST', '/api/admin/catalogue/courses', {
      code: 'CPC39998',
      facts: { ...facts, category: 'aviation' },
      edit: template,
    });
    expect(unknownCategory).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('unknown category "aviation"') },
    });
  });
});

describe('finding 2: chains of retirements', () => {
  const retire = async (code: string, successor: string) => {
    const course = await openCourse(code);
    return save(code, course.version, { ...course.edit, retired: { successor } });
  };
  const redirect = async (code: string) => {
    const answer = await courseNotFound(new Request(`http://localhost/courses/${code.toLowerCase()}`));
    return answer.status === 301 ? answer.headers.get('location') : answer.status;
  };
  /** A staff edit elsewhere in the catalogue, which must survive whatever happens to the retirements. */
  async function editAbout(code: string) {
    const course = await openCourse(code);
    const about = `Staff wording for ${code}, kept whatever else is saved in the catalogue afterwards.`;
    expect(
      (await save(code, course.version, { ...course.edit, details: { ...course.edit.details, about } })).status,
    ).toBe(200);
    return about;
  }
  async function expectEditShown(code: string, about: string) {
    const { error } = await loadCatalogue();
    expect(error).toBeNull();
    const list = await (
      await coursesHandler(new Request(`http://localhost/api/courses?search=${code}`), {} as Context)
    ).json();
    expect(list.courses[0]).toMatchObject({ code, about });
  }

  it('finding 2: retiring A to B then B to C keeps every staff edit (B is listed before A)', async () => {
    // course/BSB50120 is listed before course/CPC30220, so the runtime meets B's retirement first.
    const about = await editAbout('CPC40120');
    expect((await retire('CPC30220', 'BSB50120')).status).toBe(200);
    expect((await retire('BSB50120', 'BSB40120')).status).toBe(200);
    await expectEditShown('CPC40120', about);
    expect(await redirect('CPC30220')).toBe('/courses/BSB40120');
    expect(await redirect('BSB50120')).toBe('/courses/BSB40120');
    const { catalogue } = await loadCatalogue();
    expect(catalogue.courseByCode.has('CPC30220')).toBe(false);
    expect(catalogue.courseByCode.has('BSB50120')).toBe(false);
  });

  it('finding 2: retiring B to C then A to B is accepted and sends A to C (A is listed before B)', async () => {
    // course/BSB50120 (A) is listed before course/CPC30220 (B).
    const about = await editAbout('CPC40120');
    expect((await retire('CPC30220', 'CPC30320')).status).toBe(200);
    const second = await retire('BSB50120', 'CPC30220');
    expect(second.status).toBe(200);
    await expectEditShown('CPC40120', about);
    expect(await redirect('BSB50120')).toBe('/courses/CPC30320');
    expect(await redirect('CPC30220')).toBe('/courses/CPC30320');
  });

  it('finding 2: a cycle of successors is refused with a 400 naming the codes, and nothing is stored', async () => {
    expect((await retire('CPC30220', 'BSB50120')).status).toBe(200);
    const keys = await storedKeys();
    const cycle = await retire('BSB50120', 'CPC30220');
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toMatch(/cycle/);
    expect(cycle.body.message).toContain('CPC30220');
    expect(cycle.body.message).toContain('BSB50120');
    expect(await storedKeys()).toEqual(keys);
    expect((await openCourse('BSB50120')).version).toBe(0);
    expect((await loadCatalogue()).error).toBeNull();
    expect(await redirect('CPC30220')).toBe('/courses/BSB50120');
  });

  it('two retirements saved at once that are fine alone but make a cycle together: one lands, the other is refused', async () => {
    const [a, b] = await Promise.all([openCourse('CPC30220'), openCourse('BSB50120')]);
    // Both saves are waiting for their transaction before either has checked the catalogue.
    const race = lineUp(stores.db, { count: 2 });
    const answers = await Promise.all([
      save('CPC30220', a.version, { ...a.edit, retired: { successor: 'BSB50120' } }),
      save('BSB50120', b.version, { ...b.edit, retired: { successor: 'CPC30220' } }, 'cat-other'),
    ]).finally(race.stop);
    expect(race.arrived()).toBe(2);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.message).toMatch(/cycle/);
    expect(await storedKeys()).toHaveLength(1);
    const { catalogue, error } = await loadCatalogue();
    expect(error).toBeNull();
    const retired = ['CPC30220', 'BSB50120'].filter((code) => !catalogue.courseByCode.has(code));
    expect(retired).toHaveLength(1);
  });

  it('finding 2: retiring a successor without naming one of its own is refused, so no retired address is left to 404', async () => {
    expect((await retire('BSB50120', 'CPC30220')).status).toBe(200);
    const course = await openCourse('CPC30220');
    const refused = await save('CPC30220', 0, { ...course.edit, retired: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('BSB50120');
    expect(refused.body.message).toContain('CPC30220');
    expect((await openCourse('CPC30220')).version).toBe(0);
    expect((await loadCatalogue()).error).toBeNull();
    expect(await redirect('BSB50120')).toBe('/courses/CPC30220');
  });

  it('finding 2: the merge does not depend on the order the entries are listed in', () => {
    const entry = (code: string, successor: string) => {
      const course = repositoryCatalogue().courseByCode.get(code)!;
      const { code: _code, ...details } = course;
      return {
        version: 1,
        updatedAt: '2026-11-23T00:00:00.000Z',
        updatedBy: 'x',
        code,
        edit: {
          featured: false,
          details: {
            about: details.about,
            overview: details.overview,
            aboutCertification: details.aboutCertification,
            scopeOfWork: details.scopeOfWork,
            experienceRequirements: details.experienceRequirements,
            eligibility: details.eligibility,
            entryRequirements: details.entryRequirements,
            regulatoryRequirements: details.regulatoryRequirements,
            jobOutcomes: details.jobOutcomes,
            careerOutcomes: details.careerOutcomes,
            studyPathway: details.studyPathway,
          },
          evidence: [],
          terms: [],
          retired: { successor },
        },
      };
    };
    const a = entry('CPC30220', 'BSB50120');
    const b = entry('BSB50120', 'BSB40120');
    for (const courses of [
      [a, b],
      [b, a],
    ]) {
      const catalogue = createCatalogue(applyOverlay(repositoryContent, { courses, categories: [] }));
      expect(catalogue.courseByCode.get('BSB40120')?.replaces).toEqual(
        expect.arrayContaining(['CPC30220', 'BSB50120']),
      );
    }
  });
});

describe('categories', () => {
  it('saves description, colour and image; refuses pictures from elsewhere', async () => {
    const edit = {
      description: 'Building, civil and trade qualifications for people who build.',
      color: '#AA3300',
      image: '/images/categories/civil-construction.svg',
    };
    const saved = await call(
      'PUT',
      '/api/admin/catalogue/categories/civil-construction',
      { version: 0, edit },
      'cat-admin',
      { slug: 'civil-construction' },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.entry.edit.color).toBe('#aa3300');
    const { catalogue } = await loadCatalogue();
    expect(catalogue.categoryBySlug.get('civil-construction')).toMatchObject({
      description: edit.description,
      color: '#aa3300',
    });
    expect(catalogue.categoryColorsCss).toContain('.cat-civil-construction{--cat-color:#aa3300}');
    const external = await call(
      'PUT',
      '/api/admin/catalogue/categories/civil-construction',
      { version: 1, edit: { ...edit, image: 'https://evil.example/x.png' } },
      'cat-admin',
      { slug: 'civil-construction' },
    );
    expect(external.status).toBe(400);
    expect(
      (
        await call('PUT', '/api/admin/catalogue/categories/aviation', { version: 0, edit }, 'cat-admin', {
          slug: 'aviation',
        })
      ).status,
    ).toBe(404);
  });
});

describe('a broken overlay', () => {
  it('never breaks the catalogue: the repository content is used and the admin is told why', async () => {
    // The table takes any object as an edit; the schema does not.
    await stores.engine.query(
      `INSERT INTO catalogue_courses (code, version, edit, updated_at, updated_by)
       VALUES ('CPC30220', 1, '{"featured":"yes"}', now(), 'someone')`,
    );
    const { catalogue, error } = await loadCatalogue();
    expect(catalogue).toBe(repositoryCatalogue());
    expect(error).toMatch(/^saved entry course\/CPC30220/);
    const list = await call('GET', '/api/admin/catalogue');
    expect(list.status).toBe(200);
    expect(list.body.overlayError).toMatch(/course\/CPC30220/);
  });

  it('is checked as a whole when merged: an overlay naming an unknown course fails with its code', () => {
    const stamp = { version: 1, updatedAt: '2026-11-23T00:00:00.000Z', updatedBy: 'x' };
    const edit = {
      featured: false,
      details: repositoryCatalogue().courseByCode.get('CPC30220')!,
      evidence: [],
      terms: [],
      retired: null,
    };
    const { code: _c, ...details } = { ...edit.details };
    expect(() =>
      createCatalogue(
        applyOverlay(repositoryContent, {
          courses: [{ ...stamp, code: 'ZZZ99999', edit: { ...edit, details } }],
          categories: [],
        }),
      ),
    ).toThrow('saved edit of ZZZ99999: the code is not in content/courses.json');
  });
});

describe('who may edit', () => {
  it('refuses the editor role with a 403 and no session with a 401', async () => {
    const course = (await openCourse('CPC30220')).edit;
    expect((await call('GET', '/api/admin/catalogue', undefined, 'cat-editor')).status).toBe(403);
    expect((await save('CPC30220', 0, course, 'cat-editor')).status).toBe(403);
    const anonymous = await adminCatalogue(new Request('http://localhost/api/admin/catalogue'), {
      params: {},
    } as unknown as Context);
    expect(anonymous.status).toBe(401);
    expect((await openCourse('CPC30220')).version).toBe(0);
  });
});
