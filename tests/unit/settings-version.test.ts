import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { lineUp } from './helpers/race';
import { readSettings } from '../../src/server/settings';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import settingsHandler from '../../netlify/functions/site-settings.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
const tokens = { first: '', second: '' };
beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  tokens.first = await signedInStaff({ username: 'first-tab', firstName: 'Fay', lastName: 'First' });
  tokens.second = await signedInStaff({ username: 'second-tab', firstName: 'Sam', lastName: 'Second' });
});
afterAll(() => stores.stop());
beforeEach(async () => {
  await stores.engine.exec('TRUNCATE site_settings, site_settings_versions');
  vi.spyOn(console, 'log').mockImplementation(() => {});
});

const call = (who: keyof typeof tokens, init: RequestInit = {}) =>
  settingsHandler(
    new Request('http://localhost/api/admin/site-settings', {
      ...init,
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    }),
  );
const load = async (who: keyof typeof tokens) =>
  (await (await call(who)).json()) as typeof defaultSiteSettings & { version: number };
const save = (who: keyof typeof tokens, body: unknown) => call(who, { method: 'POST', body: JSON.stringify(body) });

describe('site settings versions', () => {
  it('finding 6: two tabs saving from the same load: the first lands, the second gets 409 with the newer settings and changes nothing', async () => {
    const first = await load('first');
    const second = await load('second');
    expect(first.version).toBe(0);

    const phone = { ...first, contactInfo: { ...first.contactInfo, phone: '02 5550 1111' } };
    const firstAnswer = await save('first', phone);
    expect(firstAnswer.status).toBe(200);
    expect((await firstAnswer.json()).settings).toMatchObject({ version: 1, updatedBy: 'first-tab' });

    const hours = { ...second, contactInfo: { ...second.contactInfo, businessHours: 'Mon - Fri: 7:00 am - 3:00 pm' } };
    const refused = await save('second', hours);
    expect(refused.status).toBe(409);
    const answer = await refused.json();
    expect(answer.message).toMatch(/^These settings were changed by first-tab after you opened them/);
    expect(answer.current).toMatchObject({ version: 1, contactInfo: { phone: '02 5550 1111' } });

    // Nothing of the stale save landed: the first tab's change is still there.
    const stored = await readSettings();
    expect(stored.contactInfo.phone).toBe('02 5550 1111');
    expect(stored.contactInfo.businessHours).toBe(defaultSiteSettings.contactInfo.businessHours);

    // Saving again on top of the newer version keeps both changes.
    const merged = {
      ...answer.current,
      contactInfo: { ...answer.current.contactInfo, businessHours: hours.contactInfo.businessHours },
    };
    expect((await save('second', merged)).status).toBe(200);
    expect((await readSettings()).contactInfo).toMatchObject({
      phone: '02 5550 1111',
      businessHours: 'Mon - Fri: 7:00 am - 3:00 pm',
    });
    expect((await load('first')).version).toBe(2);
  });

  it('finding 6: a save without a version, or with a bad one, is refused with 400 and changes nothing', async () => {
    const { version: _v, ...unversioned } = await load('first');
    for (const body of [unversioned, { ...unversioned, version: -1 }, { ...unversioned, version: 'latest' }]) {
      const answer = await save('first', body);
      expect(answer.status).toBe(400);
      expect((await answer.json()).errors[0].field).toBe('version');
    }
    expect((await stores.engine.query('SELECT 1 FROM site_settings')).rows).toEqual([]);
  });

  it('two saves from one load sent at once: one lands, the other gets 409 with the settings as they are now', async () => {
    // Once from no saved settings (version 0), once from saved ones (version 1).
    for (const round of [1, 2]) {
      const loaded = await load('first');
      expect(loaded.version).toBe(round - 1);
      const phones = { first: `02 5550 700${round}`, second: `02 5550 710${round}` } as const;
      // Both requests read the settings before either writes.
      const race = lineUp(stores.db, { count: 2, statement: /\bsite_settings\b/ });
      const answers = await Promise.all(
        (['first', 'second'] as const).map((who) =>
          save(who, { ...loaded, contactInfo: { ...loaded.contactInfo, phone: phones[who] } }),
        ),
      ).finally(race.stop);
      expect(race.arrived()).toBe(2);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const won = await answers.find((answer) => answer.status === 200)!.json();
      const lost = await answers.find((answer) => answer.status === 409)!.json();
      expect(lost.current).toMatchObject({ version: round, contactInfo: { phone: won.settings.contactInfo.phone } });
      expect((await readSettings()).contactInfo.phone).toBe(won.settings.contactInfo.phone);
      // Only the save that landed is kept as a version.
      const { rows } = await stores.engine.query<{ phone: string }>(
        `SELECT data->'contactInfo'->>'phone' AS phone FROM site_settings_versions WHERE version = $1`,
        [round],
      );
      expect(rows).toEqual([{ phone: won.settings.contactInfo.phone }]);
    }
  });

  it('every saved version is kept, and the public answer never carries the version', async () => {
    for (const phone of ['02 5550 8001', '02 5550 8002', '02 5550 8003']) {
      const loaded = await load('first');
      expect((await save('first', { ...loaded, contactInfo: { ...loaded.contactInfo, phone } })).status).toBe(200);
    }
    const { rows } = await stores.engine.query<{ version: number; phone: string; updated_by: string }>(
      `SELECT version, data->'contactInfo'->>'phone' AS phone, updated_by FROM site_settings_versions ORDER BY version`,
    );
    expect(rows).toEqual([
      { version: 1, phone: '02 5550 8001', updated_by: 'first-tab' },
      { version: 2, phone: '02 5550 8002', updated_by: 'first-tab' },
      { version: 3, phone: '02 5550 8003', updated_by: 'first-tab' },
    ]);
    const publicAnswer = await (await settingsHandler(new Request('http://localhost/api/public/site-settings'))).json();
    expect(publicAnswer).not.toHaveProperty('version');
    expect(publicAnswer.contactInfo.phone).toBe('02 5550 8003');
    expect((await save('first', { ...defaultSiteSettings, version: 2 })).status).toBe(409);
  });
});
