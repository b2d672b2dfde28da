/**
 * The form API refuses bad input with a clear 4xx and stores nothing: the contact and quote functions called
 * directly, against a real local blob server. These checks need no browser (they were request-only
 * Playwright tests); the forms themselves are tested end to end in tests/e2e/forms.spec.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { listAllInquiries } from '../../src/server/inquiries';
import contactHandler from '../../netlify/functions/email-contact.mts';
import quoteHandler from '../../netlify/functions/email-quote.mts';

let blobs: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  delete process.env.RESEND_API_KEY;
  blobs = await startStores();
});
afterAll(() => blobs.stop());
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

/** Mail the functions send after answering (context.waitUntil), awaited before the store is read. */
const background: Promise<unknown>[] = [];
const context = {
  ip: '203.0.113.40',
  waitUntil: (work: Promise<unknown>) => background.push(work),
} as unknown as Context;
const settled = async () => {
  while (background.length) await Promise.allSettled(background.splice(0));
};

const post = (
  handler: (request: Request, context: Context) => Promise<Response>,
  path: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => handler(new Request(`http://localhost${path}`, { method: 'POST', headers, body }), context);

let n = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${n++}@example.com`;

async function inquiriesFor(email: string) {
  await settled();
  return (await listAllInquiries()).filter((record) => record.contact.email === email);
}

describe('the form API refuses bad input with a clear 4xx and stores nothing', () => {
  const valid = (email: string) => ({
    firstName: 'Eve',
    lastName: 'Tester',
    email,
    phone: '0412 345 678',
    message: 'Hello',
    elapsedMs: 8000,
    website: '',
  });

  const cases: [string, (email: string) => string, number, RegExp][] = [
    ['missing fields', (email) => JSON.stringify({ email, elapsedMs: 8000 }), 400, /First name is required/],
    [
      'a bad e-mail',
      (email) => JSON.stringify({ ...valid(email), email: `x${email}`.replace('@', '') }),
      400,
      /Enter a valid e-mail address/,
    ],
    [
      'a 1 MB message',
      (email) => JSON.stringify({ ...valid(email), message: 'x'.repeat(1024 * 1024) }),
      413,
      /too large/,
    ],
    [
      'CR/LF in the e-mail (header injection)',
      (email) => JSON.stringify({ ...valid(email), email: `${email}\r\nBcc: victim@example.com` }),
      400,
      /line breaks/,
    ],
    [
      'CR/LF in a name (header injection)',
      (email) => JSON.stringify({ ...valid(email), firstName: 'Eve\r\nSubject: spam' }),
      400,
      /line breaks/,
    ],
    [
      'a filled honeypot',
      (email) => JSON.stringify({ ...valid(email), website: 'https://spam.example' }),
      400,
      /automated/,
    ],
    [
      'a submission faster than a person',
      (email) => JSON.stringify({ ...valid(email), elapsedMs: 300 }),
      400,
      /too quickly/,
    ],
    ['broken JSON', (email) => `{"email":"${email}"`, 400, /Invalid JSON body/],
  ];

  it.each(cases)('%s', async (_, body, status, message) => {
    const email = uniqueEmail('bad');
    const response = await post(contactHandler, '/api/email/contact', body(email));
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ success: false, message: expect.stringMatching(message) });
    expect(await inquiriesFor(email)).toEqual([]);
    expect(await inquiriesFor(`${email}\r\nBcc: victim@example.com`)).toEqual([]);
  });

  it('a quote with a course that does not exist', async () => {
    const email = uniqueEmail('bad-quote');
    const response = await post(
      quoteHandler,
      '/api/email/quote',
      JSON.stringify({
        firstName: 'Eve',
        lastName: 'Tester',
        email,
        phone: '0412 345 678',
        state: 'NSW',
        selectedCategories: ['civil-construction'],
        selectedCourses: ['ZZZ99999'],
        acceptedTerms: true,
        elapsedMs: 60_000,
        website: '',
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, message: 'Unknown course: ZZZ99999' });
    expect(await inquiriesFor(email)).toEqual([]);
  });

  it('a valid submission through the API is stored (control for the cases above)', async () => {
    const email = uniqueEmail('good');
    const response = await post(contactHandler, '/api/email/contact', JSON.stringify(valid(email)));
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer).toMatchObject({ success: true, id: expect.any(String) });
    expect((await inquiriesFor(email)).map((record) => record.id)).toEqual([answer.id]);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
