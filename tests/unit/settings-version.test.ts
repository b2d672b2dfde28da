import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { dataStore } from '../../src/server/blobs';
import { readSettings } from '../../src/server/settings';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import settingsHandler from '../../netlify/functions/site-settings.mts';

let blobs: Awaited<ReturnType<typeof startStores>>;
const tokens = { first: '', second: '' };
beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  blobs = await startStores();
  tokens.first = await signedInStaff({ username: 'first-tab', firstName: 'Fay', lastName: 'First' });
  tokens.second = await signedInStaff({ username: 'second-tab', firstName: 'Sam', lastName: 'Second' });
});
afterAll(() => blobs.stop());
beforeEach(async () => {
  await dataStore('settings').deleteAll();
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
    expect(await dataStore('settings').get('site')).toBeNull();
  });

  it('finding 6: settings saved before versions existed count as version 0 and are not served the version publicly', async () => {
    await dataStore('settings').setJSON('site', {
      ...defaultSiteSettings,
      updatedAt: '2026-01-01T00:00:00Z',
      updatedBy: 'old',
    });
    expect((await load('first')).version).toBe(0);
    const publicAnswer = await (await settingsHandler(new Request('http://localhost/api/public/site-settings'))).json();
    expect(publicAnswer).not.toHaveProperty('version');
    expect((await save('first', { ...defaultSiteSettings, version: 1 })).status).toBe(409);
    expect((await save('first', { ...defaultSiteSettings, version: 0 })).status).toBe(200);
  });
});
