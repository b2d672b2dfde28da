/**
 * Mail that fails loudly: deployed without a Resend key, a sender or a staff address, nothing is sent to an
 * address nobody chose, the lead is stored all the same, the launch panel blocks, the admin says so on every page,
 * and the function's log says so once. On this machine the outbox keeps the mail as before.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { signedInStaff, tokenFor } from './helpers/staff';
import { contactForm } from './helpers/inquiries';
import { outboxMessages } from './helpers/outbox';
import { getInquiry } from '../../src/server/inquiries';
import { MAIL_NOT_SET_UP, mailProblems } from '../../src/server/mail-config';
import contactHandler from '../../netlify/functions/email-contact.mts';
import readiness from '../../netlify/functions/launch-readiness.mts';
import session from '../../netlify/functions/auth-session.mts';

type NetlifyGlobal = { Netlify?: { context?: { deploy?: { context?: string } } | null } };
const netlify = globalThis as NetlifyGlobal;
const asProduction = () => {
  netlify.Netlify = { ...netlify.Netlify, context: { deploy: { context: 'production' } } };
};

let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';
beforeAll(async () => {
  process.env.JWT_SECRET = 'mail-set-up-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  await signedInStaff({ username: 'mail-admin', firstName: 'Mae', lastName: 'Lane' });
});
afterAll(() => stores.stop());
afterEach(() => {
  netlify.Netlify = { ...netlify.Netlify, context: null };
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const sendContact = (email: string) =>
  contactHandler(
    new Request('http://localhost/api/email/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...contactForm({ email }),
        consentPartnerRto: false,
        consentMarketing: false,
        elapsedMs: 6000,
      }),
    }),
    { params: {}, waitUntil: () => {} } as unknown as Context,
  );
const withToken = (path: string) =>
  new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } });
/** A staff token is signed for one deploy context: the deployed site's admin signs in there. */
const signInAsProduction = async () => {
  asProduction();
  token = await tokenFor('mail-admin');
};

describe('e-mail not set up on a deployed site', () => {
  it('needs nothing on this machine: the outbox keeps the mail', () => {
    expect(mailProblems()).toEqual([]);
  });

  it('stores the lead, sends nothing to a guessed address, and says once in the log why', async () => {
    asProduction();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(mailProblems()).toHaveLength(3);
    const before = (await outboxMessages()).length;
    const answers = [await sendContact('first@example.com'), await sendContact('second@example.com')];
    for (const answer of answers) expect(answer.status).toBe(200);
    const { id } = await answers[0].json();
    const stored = await getInquiry(id);
    expect(stored?.contact.email).toBe('first@example.com');
    expect(stored?.mail.staff).toMatchObject({ state: 'pending', lastError: expect.stringMatching(/not set up/) });
    expect((await outboxMessages()).length).toBe(before);
    const lines = logged.mock.calls
      .map((call) => call.join(' '))
      .filter((line) => line.startsWith('[mail] E-mail is not set up'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/RESEND_API_KEY is not set/);
  });

  it('blocks the launch panel and shows the admin a banner, until the three are set', async () => {
    await signInAsProduction();
    const panel = await (await readiness(withToken('/api/admin/launch-readiness'))).json();
    expect(panel.ready).toBe(false);
    expect(panel.items.filter((item: { id: string }) => item.id.startsWith('mail-not-set-up'))).toHaveLength(3);
    expect((await (await session(withToken('/api/auth/verify'))).json()).notices).toEqual([MAIL_NOT_SET_UP]);

    vi.stubEnv('RESEND_API_KEY', 're_test_key');
    vi.stubEnv('MAIL_FROM', 'RPL Pathways <no-reply@rpl.example>');
    vi.stubEnv('MAIL_TO', 'office@rpl.example');
    expect(mailProblems()).toEqual([]);
    const after = await (await readiness(withToken('/api/admin/launch-readiness'))).json();
    expect(after.items.filter((item: { id: string }) => item.id.startsWith('mail-not-set-up'))).toEqual([]);
    expect((await (await session(withToken('/api/auth/verify'))).json()).notices).toEqual([]);
  });
});
