/**
 * Issue "hardening, round 2", finding 1: a lead is never lost to what a visitor types, nor to a bug in what
 * is computed from it. Every free-text field of both forms carries the words that reach Object.prototype
 * when they index a plain object, and the quote is stored before its indicative result is worked out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { contactForm, quoteForm } from './helpers/inquiries';
import { clearInquiries } from './helpers/inquiries';
import { getInquiry, listAllInquiries } from '../../src/server/inquiries';
import contactHandler from '../../netlify/functions/email-contact.mts';
import quoteHandler from '../../netlify/functions/email-quote.mts';

/** When set, working out the indicative result throws, as a bug in the matching would. */
const matching = vi.hoisted(() => ({ broken: false }));
vi.mock('../../src/server/quote-result', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/quote-result')>();
  return {
    ...real,
    matchCodes: (...args: Parameters<typeof real.matchCodes>) => {
      if (matching.broken) throw new TypeError('matching broke');
      return real.matchCodes(...args);
    },
  };
});

/** Words that name Object.prototype's members (and the prototype itself). */
const PROTOTYPE_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

let blobs: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  blobs = await startStores();
});
afterAll(() => blobs.stop());
beforeEach(async () => {
  await clearInquiries();
  matching.broken = false;
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

async function send(handler: (r: Request, c: Context) => Promise<Response>, path: string, body: unknown) {
  const response = await handler(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
    {} as Context,
  );
  return { status: response.status, body: await response.json() };
}

const bot = { elapsedMs: 60_000, website: '' };
const QUOTE_TEXT_FIELDS = ['experience', 'goals', 'additionalInfo'] as const;

describe('finding 1: a lead is never lost to one word', () => {
  it.each(PROTOTYPE_WORDS)(
    'a "Not sure" quote whose every free-text field says "%s" is stored and answered',
    async (word) => {
      const sentence = `I worked as a ${word} for ten years`;
      const form = quoteForm({
        ...bot,
        notSure: true,
        selectedCourses: [],
        ...Object.fromEntries(QUOTE_TEXT_FIELDS.map((field) => [field, sentence])),
      });
      const { status, body } = await send(quoteHandler, '/api/email/quote', form);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.success).toBe(true);
      expect(Array.isArray(body.result)).toBe(true);
      const stored = await getInquiry(body.id);
      for (const field of QUOTE_TEXT_FIELDS) expect(stored?.quote?.[field]).toBe(sentence);
    },
  );

  it.each(PROTOTYPE_WORDS)('a quote whose experience is only the word "%s" is stored', async (word) => {
    const form = quoteForm({ ...bot, notSure: true, selectedCourses: [], experience: word });
    const { status, body } = await send(quoteHandler, '/api/email/quote', form);
    expect(status, JSON.stringify(body)).toBe(200);
    expect((await getInquiry(body.id))?.quote?.experience).toBe(word);
  });

  it.each(PROTOTYPE_WORDS)('a contact message and names saying "%s" are stored', async (word) => {
    const form = contactForm({ ...bot, firstName: word, lastName: word, message: `Ask the ${word} about it` });
    const { status, body } = await send(contactHandler, '/api/email/contact', form);
    expect(status, JSON.stringify(body)).toBe(200);
    const stored = await getInquiry(body.id);
    expect(stored?.message).toBe(`Ask the ${word} about it`);
    expect(stored?.contact.firstName).toBe(word);
  });
});

describe('finding 1: the quote is stored before its indicative result is worked out', () => {
  it('a failure while matching still stores the quote and answers success, without suggestions', async () => {
    matching.broken = true;
    const form = quoteForm({ ...bot, notSure: true, experience: 'Ten years of carpentry' });
    const { status, body } = await send(quoteHandler, '/api/email/quote', form);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, id: expect.any(String) });
    // The chosen course is still shown; nothing was suggested from the text.
    expect(body.result.map((item: { code: string }) => item.code)).toEqual(['RII30820']);
    const all = await listAllInquiries();
    expect(all).toHaveLength(1);
    expect(all[0]?.quote?.experience).toBe('Ten years of carpentry');
  });

  it('when matching works, its codes are kept on the stored quote for the e-mail and the inbox', async () => {
    const form = quoteForm({ ...bot, notSure: true, selectedCourses: [], experience: 'Ten years of carpentry' });
    const { status, body } = await send(quoteHandler, '/api/email/quote', form);
    expect(status).toBe(200);
    const stored = await getInquiry(body.id);
    expect(stored?.quote?.matches?.length).toBeGreaterThan(0);
    expect(stored?.quote?.matches).toEqual(body.result.map((item: { code: string }) => item.code));
  });
});
