/**
 * Withdrawing marketing consent: from the signed link in every e-mail to a visitor (no sign-in; the page
 * changes nothing until its button posts), or by staff from the inbox. The address goes on a suppression
 * list that wins wherever the marketing consent is read: the inbox, the CSV and later inquiries.
 */
import { repositoryCatalogue } from '../../src/catalogue/index';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { contactForm } from './helpers/inquiries';
import { db, sql } from '../../src/platform/database';
import { clearInquiries } from './helpers/inquiries';
import { composeMail } from '../../src/server/mail-messages';
import { getInquiry, listAllInquiries } from '../../src/server/inquiries';
import { inquiriesToCsv } from '../../src/server/inquiry-csv';
import { withdrawalOf, withdrawalSignature } from '../../src/server/marketing-consent';
import withdrawalHandler, {
  BAD_LINK_MESSAGE,
  WITHDRAWN_MESSAGE,
} from '../../netlify/functions/marketing-withdrawal.mts';
import contactHandler from '../../netlify/functions/email-contact.mts';
import inboxHandler from '../../netlify/functions/admin-inquiries.mts';

const SECRET = 'marketing-test-secret-that-is-long-enough-0123456789';
const context = (params: Record<string, string> = {}) => ({ params, waitUntil: () => {} }) as unknown as Context;

/** Sends the contact form as a visitor would, marketing ticked unless told otherwise; answers the stored id. */
async function sendContact(email: string, consentMarketing = true): Promise<string> {
  const response = await contactHandler(
    new Request('http://localhost/api/email/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...contactForm({ email }), consentPartnerRto: false, consentMarketing, elapsedMs: 5000 }),
    }),
    context(),
  );
  expect(response.status).toBe(200);
  return (await response.json()).id;
}

const withdraw = (body: unknown, method = 'POST') =>
  withdrawalHandler(
    new Request('http://localhost/api/public/marketing-withdrawal', {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'GET' ? {} : { body: JSON.stringify(body) }),
    }),
  );

const suppressed = async () =>
  (await db().query<{ n: number }>(sql`SELECT count(*)::int AS n FROM marketing_withdrawals`))[0].n;

/** The link at the end of the acknowledgement e-mail, as the visitor receives it. */
async function linkInAck(id: string): Promise<URL> {
  const mail = composeMail((await getInquiry(id))!, 'ack', { catalogue: repositoryCatalogue() });
  const found = /https?:\/\/\S+\/marketing-withdrawal\?\S+/.exec(mail.text);
  expect(found, 'the acknowledgement carries a withdrawal link').not.toBeNull();
  expect(mail.html).toContain('withdraw your marketing consent</a>');
  return new URL(found![0]);
}

describe('withdrawing marketing consent', () => {
  let blobs: Awaited<ReturnType<typeof startStores>>;
  let token = '';
  beforeAll(async () => {
    process.env.JWT_SECRET = SECRET;
    delete process.env.MARKETING_LINK_SECRET;
    delete process.env.RESEND_API_KEY;
    blobs = await startStores();
    token = await signedInStaff({ username: 'consent-admin', firstName: 'Consent', lastName: 'Admin' });
  });
  afterAll(() => blobs.stop());
  beforeEach(async () => {
    await clearInquiries();
    await db().query(sql`DELETE FROM marketing_withdrawals`);
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });

  const inbox = async () => {
    const response = await inboxHandler(
      new Request('http://localhost/api/admin/inquiries?limit=100', { headers: { authorization: `Bearer ${token}` } }),
      context(),
    );
    expect(response.status).toBe(200);
    return (await response.json()).items as { id: string; marketingWithdrawn?: { at: string; via: string } }[];
  };

  it('finding 8: withdrawal from the e-mail link is stored, and a later inquiry from that address shows withdrawn', async () => {
    const first = await sendContact('Ann@Example.com');
    const link = await linkInAck(first);
    expect(link.pathname).toBe('/marketing-withdrawal');

    const response = await withdraw({ inquiry: link.searchParams.get('i'), signature: link.searchParams.get('s') });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, message: WITHDRAWN_MESSAGE });
    const withdrawal = await withdrawalOf('ann@example.com');
    expect(withdrawal?.via).toBe('email-link');

    // A later form from the same address, typed differently and with marketing ticked: stored without consent.
    const later = await sendContact('  ANN@example.COM ', true);
    expect((await getInquiry(later))?.consents?.marketing).toBe(false);

    const items = await inbox();
    expect(items.map((item) => [item.id, item.marketingWithdrawn?.at])).toEqual(
      expect.arrayContaining([
        [first, withdrawal!.at],
        [later, withdrawal!.at],
      ]),
    );
    const csv = inquiriesToCsv(await listAllInquiries());
    expect(csv.match(new RegExp(`"Withdrawn ${withdrawal!.at.slice(0, 10)}"`, 'g'))).toHaveLength(2);

    // Clicking twice keeps the first date.
    const again = await withdraw({ inquiry: first, signature: link.searchParams.get('s') });
    expect((await again.json()).at).toBe(withdrawal!.at);
  });

  it('finding 8: an address that did not withdraw keeps its own choice', async () => {
    const id = await sendContact('bob@example.com', true);
    expect((await getInquiry(id))?.consents?.marketing).toBe(true);
    expect((await inbox()).find((item) => item.id === id)?.marketingWithdrawn).toBeUndefined();
  });

  it.each([
    [
      'a signature with one character changed',
      (id: string, s: string) => ({ inquiry: id, signature: `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}` }),
      403,
    ],
    [
      'the signature of another inquiry',
      (_id: string, _s: string, other: string) => ({ inquiry: _id, signature: withdrawalSignature(other) }),
      403,
    ],
    [
      'a signature made with another secret',
      (id: string) => {
        process.env.JWT_SECRET = 'another-secret-that-is-also-long-enough-012345678';
        const forged = withdrawalSignature(id);
        process.env.JWT_SECRET = SECRET;
        return { inquiry: id, signature: forged };
      },
      403,
    ],
    ['a cut-short signature', (id: string, s: string) => ({ inquiry: id, signature: s.slice(0, 20) }), 400],
    ['no signature', (id: string) => ({ inquiry: id }), 400],
    ['an id that is not an inquiry id', (_id: string, s: string) => ({ inquiry: '../inquiry/x', signature: s }), 400],
  ])('finding 8: refuses %s and stores nothing', async (_case, forge, status) => {
    const id = await sendContact('carol@example.com');
    const other = await sendContact('dave@example.com');
    const response = await withdraw(forge(id, withdrawalSignature(id)!, other));
    expect(response.status).toBe(status);
    if (status === 403) expect((await response.json()).message).toBe(BAD_LINK_MESSAGE);
    expect(await suppressed()).toBe(0);
    expect(await withdrawalOf('carol@example.com')).toBeNull();
  });

  it('finding 8: a GET (a mail client fetching the link) changes nothing', async () => {
    const id = await sendContact('erin@example.com');
    const response = await withdraw(undefined, 'GET');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await suppressed()).toBe(0);
    expect((await getInquiry(id))?.consents?.marketing).toBe(true);
  });

  it('finding 8: staff record a withdrawal from the inbox; every inquiry from the address shows it with the date', async () => {
    const first = await sendContact('fay@example.com');
    const second = await sendContact('fay@example.com');
    const response = await inboxHandler(
      new Request(`http://localhost/api/admin/inquiries/${first}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ marketing: 'withdrawn' }),
      }),
      context({ id: first }),
    );
    expect(response.status).toBe(200);
    const record = await response.json();
    expect(record.marketingWithdrawn).toMatchObject({ via: 'staff', by: { username: 'consent-admin' } });
    const items = await inbox();
    expect(items.find((item) => item.id === second)?.marketingWithdrawn?.at).toBe(record.marketingWithdrawn.at);
    // The stored inquiries themselves are unchanged: the list is the one place the withdrawal lives.
    expect((await getInquiry(second))?.marketingWithdrawn).toBeUndefined();
  });
});
