/**
 * A partner RTO is named only for what it may issue: it lists qualifications and categories of the
 * catalogue (the settings API refuses anything else), an RTO that lists nothing delivers nothing, and the
 * launch panel lists published qualifications no RTO delivers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { readSettings } from '../../src/server/settings';
import { computeLaunchReadiness } from '../../src/server/launch-readiness';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { deliveringRto } from '../../src/lib/partner-rto';
import settingsHandler from '../../netlify/functions/site-settings.mts';

const RTO = { legalName: 'Example Training Pty Ltd', code: '12345', categories: [], courses: [] };

describe('saving partner RTOs in the settings', () => {
  let stores: Awaited<ReturnType<typeof startStores>>;
  let token = '';
  beforeAll(async () => {
    process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
    stores = await startStores();
    token = await signedInStaff({ username: 'rto-admin', firstName: 'Rto', lastName: 'Admin' });
  });
  afterAll(() => stores.stop());
  beforeEach(() => stores.engine.exec('TRUNCATE site_settings, site_settings_versions'));

  const save = async (partnerRtos: unknown[]) =>
    settingsHandler(
      new Request('http://localhost/api/admin/site-settings', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...defaultSiteSettings, partnerRtos, version: (await readSettings()).version }),
      }),
    );

  it.each([
    ['an unknown qualification code', { courses: ['CPC30220', 'ZZZ99999'] }, 'partnerRtos.0.courses.1', 'ZZZ99999'],
    ['an unknown category', { categories: ['rocket-science'] }, 'partnerRtos.0.categories.0', 'rocket-science'],
  ])(
    'finding 5: refuses %s for an RTO with a 400 naming the field, and keeps nothing',
    async (_case, lists, field, word) => {
      const response = await save([{ ...RTO, ...lists }]);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.errors[0].field).toBe(field);
      expect(body.errors[0].message).toContain(word);
      expect((await readSettings()).partnerRtos).toEqual([]);
    },
  );

  it('finding 5: keeps what an RTO delivers from the catalogue, with the register link of its code', async () => {
    const response = await save([
      {
        ...RTO,
        code: '88888',
        registerUrl: 'https://training.gov.au/Organisation/Details/99999',
        courses: ['CPC30220'],
        categories: ['business-administration'],
      },
    ]);
    expect(response.status).toBe(200);
    const [saved] = (await readSettings()).partnerRtos;
    expect(saved).toMatchObject({ code: '88888', courses: ['CPC30220'], categories: ['business-administration'] });
    expect(saved!.registerUrl).toBe('https://training.gov.au/Organisation/Details/88888');
  });

  it('finding 5: settings saved with an RTO that lists nothing still load; it delivers nothing and the launch panel says so', async () => {
    await stores.engine.query(
      `INSERT INTO site_settings (data, version, updated_at, updated_by) VALUES ($1, 1, now(), 'rto-admin')`,
      [
        JSON.stringify({
          ...defaultSiteSettings,
          partnerRtos: [{ ...RTO, registerUrl: 'https://training.gov.au/Organisation/Details/99999' }],
        }),
      ],
    );
    const settings = await readSettings();
    expect(settings.partnerRtos.map((rto) => rto.code)).toEqual(['12345']);
    expect(settings.partnerRtos[0]!.registerUrl).toBe('https://training.gov.au/Organisation/Details/12345');
    expect(deliveringRto(settings.partnerRtos, 'CPC30220', 'civil-construction')).toBeUndefined();

    const courses = [
      { code: 'CPC30220', category: 'civil-construction' },
      { code: 'BSB30120', category: 'business-administration' },
    ];
    const panel = computeLaunchReadiness(settings, { courses });
    const nothing = panel.items.find((item) => item.id === 'rto-delivers-nothing-12345');
    expect(nothing?.text).toContain('Example Training Pty Ltd (RTO 12345) lists no qualification or category');
    const undelivered = panel.items.find((item) => item.id === 'no-delivering-rto');
    expect(undelivered?.text).toContain('2 published qualifications have no partner RTO');
    expect(undelivered?.text).toContain('CPC30220, BSB30120');
    expect(panel.ready).toBe(false);

    settings.partnerRtos[0]!.courses = ['CPC30220'];
    const after = computeLaunchReadiness(settings, { courses }).items;
    expect(after.some((item) => item.id === 'rto-delivers-nothing-12345')).toBe(false);
    expect(after.find((item) => item.id === 'no-delivering-rto')?.text).toContain('1 published qualification has');
  });
});
