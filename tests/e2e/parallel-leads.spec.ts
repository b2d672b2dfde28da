/**
 * Leads sent at the same moment are all kept and all found: 40 contact forms and 40 quotes posted at once to the
 * running site, five rounds in a row, and after each round every one of them is in the inbox (its total and its
 * pages), in its search, in the dashboard's counts and in the CSV of the day. Before the records moved to the
 * database, some of a burst like this were stored but missing from the inbox and the exports.
 * It adds 400 inquiries, so it runs after the desktop and phone projects (@after-others), where no other test
 * counts the inbox.
 */
import { randomBytes } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { staffSession } from './helpers/accounts';

const EACH = 40;
const ROUNDS = 5;

const contact = (email: string) => ({
  firstName: 'Burst',
  lastName: 'Contact',
  email,
  phone: '0412 345 678',
  message: 'Sent in a burst with many others.',
  website: '',
  elapsedMs: 8000,
});
const quote = (email: string) => ({
  firstName: 'Burst',
  lastName: 'Quote',
  email,
  phone: '0412 345 678',
  mobileNumber: '',
  preferredContact: 'Any time',
  state: 'VIC',
  selectedCategories: ['civil-construction'],
  selectedCourses: ['RII30820'],
  experience: 'Eight years on excavators and rollers.',
  goals: '',
  additionalInfo: '',
  acceptedTerms: true,
  website: '',
  elapsedMs: 8000,
});

interface InboxPage {
  items: { id: string; contact: { email: string } }[];
  total: number;
  counts: Record<string, number>;
}

test('40 contact forms and 40 quotes sent at once are each in the inbox, its search and the CSV, five rounds in a row', {
  tag: ['@after-others'],
}, async ({ request }) => {
  test.setTimeout(300_000);
  const { auth } = await staffSession(request, 'burst');
  const today = new Date().toISOString().slice(0, 10);

  for (let round = 1; round <= ROUNDS; round++) {
    const stamp = `burst${randomBytes(4).toString('hex')}r${round}`;
    const emails = {
      contact: Array.from({ length: EACH }, (_, i) => `${stamp}-c${i}@example.com`),
      quote: Array.from({ length: EACH }, (_, i) => `${stamp}-q${i}@example.com`),
    };
    const before = (await (await request.get('/api/admin/inquiries?limit=1', { headers: auth })).json()) as InboxPage;

    const answers = await Promise.all([
      ...emails.contact.map((email) => request.post('/api/email/contact', { data: contact(email) })),
      ...emails.quote.map((email) => request.post('/api/email/quote', { data: quote(email) })),
    ]);
    const statuses = answers.map((answer) => answer.status());
    expect(
      statuses.filter((status) => status !== 200),
      `round ${round}: answers`,
    ).toEqual([]);
    const ids = new Set(await Promise.all(answers.map(async (answer) => ((await answer.json()) as { id: string }).id)));
    expect(ids.size, `round ${round}: distinct ids`).toBe(2 * EACH);

    // The inbox's search finds every one of them (the stamp is in each e-mail address), across its pages.
    const found = new Map<string, string>();
    for (let offset = 0; ; offset += 50) {
      const page = (await (
        await request.get(`/api/admin/inquiries?q=${stamp}&limit=50&offset=${offset}`, { headers: auth })
      ).json()) as InboxPage;
      expect(page.total, `round ${round}: search total`).toBe(2 * EACH);
      for (const item of page.items) found.set(item.id, item.contact.email);
      if (page.items.length < 50) break;
    }
    expect([...found.keys()].sort(), `round ${round}: found by search`).toEqual([...ids].sort());

    // The whole inbox and its counts grew by exactly the burst (nothing else adds inquiries in this project).
    const after = (await (await request.get('/api/admin/inquiries?limit=1', { headers: auth })).json()) as InboxPage;
    expect(after.total - before.total, `round ${round}: inbox total`).toBe(2 * EACH);
    expect(after.counts.new - before.counts.new, `round ${round}: new count`).toBe(2 * EACH);

    // The CSV of today lists each of them once.
    const csv = await (
      await request.get(`/api/admin/inquiries/export.csv?from=${today}&to=${today}`, { headers: auth })
    ).text();
    const missing = [...emails.contact, ...emails.quote].filter((email) => csv.split(email).length !== 2);
    expect(missing, `round ${round}: in the CSV once`).toEqual([]);
  }
});
