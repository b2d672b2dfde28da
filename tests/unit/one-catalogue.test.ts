/**
 * Issue "one catalogue read path", finding 2: a qualification staff add in the admin is the same
 * qualification everywhere at once: the quote accepts it and its result lists it, the launch panel counts
 * it, the dashboard counts it and the inbox finds a quote naming it by its title. Every consumer reads the
 * catalogue through one path, and a warm function instance never answers from a catalogue older than
 * the latest save, wherever that save was made.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { quoteForm } from './helpers/inquiries';
import { signedInStaff } from './helpers/staff';
import { clearInquiries } from './helpers/inquiries';
import { repositoryCatalogue } from '../../src/catalogue/index';
import adminCatalogue from '../../netlify/functions/admin-catalogue.mts';
import adminInquiries from '../../netlify/functions/admin-inquiries.mts';
import coursesHandler from '../../netlify/functions/courses.mts';
import dashboardHandler from '../../netlify/functions/dashboard-stats.mts';
import launchHandler from '../../netlify/functions/launch-readiness.mts';
import quoteHandler from '../../netlify/functions/email-quote.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';
beforeAll(async () => {
  process.env.JWT_SECRET = 'one-catalogue-test-secret-long-enough-0123456789';
  delete process.env.BUILD_HOOK_URL;
  delete process.env.LOCAL_BUILD_HOOK_URL;
  stores = await startStores();
  token = await signedInStaff({ username: 'one-cat-admin', firstName: 'Olive', lastName: 'Admin' });
});
afterAll(() => stores.stop());
beforeEach(async () => {
  await stores.engine.exec('TRUNCATE catalogue_courses, catalogue_categories, register_checks');
  await clearInquiries();
  vi.spyOn(console, 'log').mockImplementation(() => {});
});

const staff = (path: string, init: RequestInit = {}) =>
  new Request(`http://localhost${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
const context = (params: Record<string, string> = {}) => ({ params }) as unknown as Context;

const facts = (title: string) => ({
  title,
  level: 'Certificate III',
  category: 'civil-construction',
  source: 'https://training.gov.au/Training/Details/CPC39999',
  checkedOn: '2026-11-20',
});
/** The editable values of a published course, as the admin's form starts a new one from. */
async function template() {
  const response = await adminCatalogue(staff('/api/admin/catalogue/courses/CPC30220'), context({ code: 'CPC30220' }));
  return { ...(await response.json()).edit, featured: true, retired: null };
}

async function quote(code: string) {
  const response = await quoteHandler(
    new Request('http://localhost/api/email/quote', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        quoteForm({
          elapsedMs: 60_000,
          website: '',
          selectedCategories: ['civil-construction'],
          selectedCourses: [code],
        }),
      ),
    }),
    {} as Context,
  );
  return { status: response.status, body: await response.json() };
}

/** A public catalogue answer, which leaves this instance's copy of the catalogue warm. */
const warm = () => coursesHandler(new Request('http://localhost/api/courses'), {} as Context);

describe('finding 2: one catalogue for every consumer', () => {
  it('finding 2: a course added in the admin is accepted by the quote, listed in its result, counted by the launch panel and the dashboard, and found in the inbox by its title', async () => {
    await warm();
    const added = await adminCatalogue(
      staff('/api/admin/catalogue/courses', {
        method: 'POST',
        body: JSON.stringify({
          code: 'CPC39999',
          facts: facts('Certificate III in Kiteboard Rigging'),
          edit: await template(),
        }),
      }),
      context(),
    );
    expect(added.status).toBe(201);

    const asked = await quote('CPC39999');
    expect(asked.status).toBe(200);
    expect(asked.body.result.map((item: { code: string }) => item.code)).toContain('CPC39999');
    expect(asked.body.result.find((item: { code: string }) => item.code === 'CPC39999')).toMatchObject({
      title: 'Certificate III in Kiteboard Rigging',
      selected: true,
    });

    const repository = repositoryCatalogue();
    const launch = await (await launchHandler(staff('/api/admin/launch-readiness'))).json();
    const unchecked = launch.items.find((item: { id: string }) => item.id === 'register-unchecked');
    const uncheckedBefore = repository.courses.filter((course) => !course.registerCheck).length;
    expect(unchecked.text).toMatch(new RegExp(`^${uncheckedBefore + 1} qualifications are not yet checked`));

    const stats = await (await dashboardHandler(staff('/api/admin/dashboard-stats'))).json();
    expect(stats.overview.totalCourses).toBe(repository.courses.length + 1);
    const civil = stats.recentActivity.categories.find((c: { slug: string }) => c.slug === 'civil-construction');
    expect(civil.courseCount).toBe(repository.countFor('civil-construction') + 1);

    const inbox = await (await adminInquiries(staff('/api/admin/inquiries?q=kiteboard%20rigging'), context())).json();
    expect(inbox.items.map((item: { id: string }) => item.id)).toEqual([asked.body.id]);
  });

  it('finding 2: a warm instance sees a course saved by another instance at once, not when its copy expires', async () => {
    await warm();
    expect((await quote('CPC39998')).status).toBe(400);
    // Saved by another function instance: this one is not told, it only sees the table change.
    await stores.engine.query(
      `INSERT INTO catalogue_courses (code, version, added, edit, updated_at, updated_by)
       VALUES ('CPC39998', 1, $1, $2, now(), 'one-cat-admin')`,
      [JSON.stringify(facts('Certificate III in Tower Crane Dogging')), JSON.stringify(await template())],
    );
    const asked = await quote('CPC39998');
    expect(asked.status).toBe(200);
    expect(asked.body.result.map((item: { code: string }) => item.code)).toContain('CPC39998');
  });
});
