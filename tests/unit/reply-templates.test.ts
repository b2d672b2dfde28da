/**
 * The inbox's reply templates: the set the site starts with comes from the database (version 0), and a save
 * names the version it was loaded at, so two people saving at once never replace each other's list unseen.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { lineUp } from './helpers/race';
import templatesHandler from '../../netlify/functions/admin-reply-templates.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
const tokens = { first: '', second: '' };
beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  tokens.first = await signedInStaff({ username: 'first-writer', firstName: 'Fran', lastName: 'First' });
  tokens.second = await signedInStaff({ username: 'second-writer', firstName: 'Sid', lastName: 'Second' });
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterAll(() => stores.stop());

const call = (who: keyof typeof tokens, body?: unknown) =>
  templatesHandler(
    new Request('http://localhost/api/admin/reply-templates', {
      method: body === undefined ? 'GET' : 'PUT',
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
const template = (name: string) => ({
  id: name.toLowerCase().replace(/\W+/g, '-'),
  name,
  subject: `${name} – {reference}`,
  body: `Hi {firstName},\n\n${name}.\n\nRPL Pathways`,
});

describe('reply templates', () => {
  it('start as the set the site ships with, at version 0', async () => {
    const answer = await call('first');
    expect(answer.status).toBe(200);
    const list = await answer.json();
    expect(list.version).toBe(0);
    expect(list.templates.map((t: { name: string }) => t.name)).toEqual([
      'Quote sent',
      'Need more evidence',
      'Call-back booked',
    ]);
    expect(list).not.toHaveProperty('updatedBy');
  });

  it('two saves from one load sent at once: one lands, the other gets 409 with the list as it is now', async () => {
    // Once from the shipped set (version 0), once from a saved list (version 1).
    for (const round of [1, 2]) {
      const loaded = await (await call('first')).json();
      expect(loaded.version).toBe(round - 1);
      // Both requests read the templates before either writes.
      const race = lineUp(stores.db, { count: 2, statement: /\breply_templates\b/ });
      const answers = await Promise.all(
        (['first', 'second'] as const).map((who) =>
          call(who, { version: loaded.version, templates: [template(`Round ${round} by ${who}`)] }),
        ),
      ).finally(race.stop);
      expect(race.arrived()).toBe(2);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const saved = await answers.find((answer) => answer.status === 200)!.json();
      const refused = await answers.find((answer) => answer.status === 409)!.json();
      expect(saved.version).toBe(round);
      expect(refused.current).toEqual({ ...saved, updatedAt: expect.any(String) });
      expect(refused.message).toContain(`changed by ${saved.updatedBy}`);
      expect(await (await call('second')).json()).toMatchObject({ version: round, templates: saved.templates });
    }
  });
});
