/**
 * The end of the quote as a next step: one merged evidence checklist, and a call-back on a day and in a time
 * window the business hours offer, kept on the inquiry and listed on the dashboard as "Call-backs today".
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { storeContactInquiry } from './helpers/inquiries';
import { mergedChecklist } from '../../src/lib/evidence-checklist';
import { callbackDays, callbackWindows, parseBusinessHours } from '../../src/lib/callback';
import { clearInquiries } from './helpers/inquiries';
import { getInquiry } from '../../src/server/inquiries';
import { issueApplicantLink } from '../../src/server/applicant-links';
import { callbacksDue, requestCallback } from '../../src/server/callbacks';
import { createInquiry } from '../../src/server/inquiries';
import { storedQuote } from './helpers/inquiries';
import applicantHandler from '../../netlify/functions/applicant.mts';
import statsHandler from '../../netlify/functions/dashboard-stats.mts';

describe('one evidence checklist for several qualifications', () => {
  it('lists an item several of them need once, and groups by qualification only where they differ', () => {
    const groups = mergedChecklist([
      { code: 'A', title: 'Carpentry', evidence: ['Resume', 'Photos of framing', 'Payslips'] },
      { code: 'B', title: 'Painting', evidence: ['Resume', 'Photos of painted rooms', 'Payslips'] },
      { code: 'C', title: 'Building', evidence: ['Resume', 'Payslips', 'Photos of framing', 'Site diaries'] },
    ]);
    expect(groups).toEqual([
      { codes: ['A', 'B', 'C'], heading: 'For any of them', items: ['Resume', 'Payslips'] },
      { codes: ['A', 'C'], heading: 'Only for Carpentry and Building', items: ['Photos of framing'] },
      { codes: ['B'], heading: 'Only for Painting', items: ['Photos of painted rooms'] },
      { codes: ['C'], heading: 'Only for Building', items: ['Site diaries'] },
    ]);
    const all = groups.flatMap((group) => group.items);
    expect(new Set(all).size).toBe(all.length);
  });

  it('is one plain list for one qualification', () => {
    expect(mergedChecklist([{ code: 'A', title: 'Carpentry', evidence: ['Resume', 'Resume', 'Photos'] }])).toEqual([
      { codes: ['A'], heading: 'Carpentry', items: ['Resume', 'Photos'] },
    ]);
  });
});

describe('call-back days and times from the business hours', () => {
  it('reads the hours as staff write them', () => {
    expect(parseBusinessHours('Mon - Sat: 8:00 am - 7:00 pm')).toEqual([
      { days: [1, 2, 3, 4, 5, 6], open: 480, close: 1140 },
    ]);
    expect(parseBusinessHours('Mon-Fri 9am-5pm, Sat 9am-12pm')).toEqual([
      { days: [1, 2, 3, 4, 5], open: 540, close: 1020 },
      { days: [6], open: 540, close: 720 },
    ]);
    expect(parseBusinessHours('By appointment')).toBeNull();
  });

  it('offers two-hour windows within the hours', () => {
    expect(callbackWindows({ days: [1], open: 480, close: 1140 })).toEqual([
      '8:00 am – 10:00 am',
      '10:00 am – 12:00 pm',
      '12:00 pm – 2:00 pm',
      '2:00 pm – 4:00 pm',
      '4:00 pm – 6:00 pm',
      '6:00 pm – 7:00 pm',
    ]);
  });

  it('offers open days of the coming week, today only with windows still ahead, never Sunday for Mon - Sat', () => {
    // Thursday 26 November 2026, 1:10 pm in Sydney (AEDT, UTC+11).
    const now = new Date('2026-11-26T02:10:00Z');
    const days = callbackDays('Mon - Sat: 8:00 am - 7:00 pm', now);
    expect(days.map((d) => d.date)).toEqual([
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
    expect(days[0]!.label).toBe('Thu, 26 Nov');
    expect(days[0]!.windows[0]).toBe('2:00 pm – 4:00 pm');
    expect(days[1]!.windows[0]).toBe('8:00 am – 10:00 am');
  });
});

describe('booking a call-back', () => {
  let blobs: Awaited<ReturnType<typeof startStores>>;
  let staffToken = '';
  beforeAll(async () => {
    process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
    blobs = await startStores();
    staffToken = await signedInStaff({ username: 'call-admin', firstName: 'Cal', lastName: 'Admin' });
  });
  afterAll(() => blobs.stop());
  beforeEach(async () => {
    await clearInquiries();
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });

  const quote = () =>
    createInquiry({
      kind: 'quote',
      source: 'quote',
      contact: { firstName: 'Robin', lastName: 'Lee', email: 'robin@example.com', phone: '0412 345 678' },
      quote: storedQuote({ selectedCourses: [], courses: [] }),
    });
  const book = (token: string | null, body: unknown) =>
    applicantHandler(
      new Request('http://localhost/api/applicant/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }),
      { params: {} } as unknown as Context,
    );
  const tokenOf = (link: string) => link.split('#token=')[1]!;

  it('keeps a day and window the hours offer on the inquiry', async () => {
    const record = await quote();
    const [day] = callbackDays('Mon - Sat: 8:00 am - 7:00 pm').filter((d) => d.windows.length > 1);
    const response = await book(tokenOf((await issueApplicantLink(record.id))!), {
      day: day!.date,
      window: day!.windows[1],
    });
    expect(response.status).toBe(200);
    expect((await getInquiry(record.id))?.callback).toMatchObject({ day: day!.date, window: day!.windows[1] });
  });

  it.each([
    ['a Sunday', { day: 'sunday', window: '8:00 am – 10:00 am' }],
    ['a day long past', { day: '2020-01-01', window: '8:00 am – 10:00 am' }],
    ['a time outside the hours', { day: 'next', window: '11:00 pm – 1:00 am' }],
    ['a missing time', { day: 'next', window: '' }],
    ['extra fields', { day: 'next', window: '8:00 am – 10:00 am', note: 'x' }],
  ])('refuses %s with a 400, and keeps nothing', async (_case, body) => {
    const record = await quote();
    const offered = callbackDays('Mon - Sat: 8:00 am - 7:00 pm');
    const next = offered.at(-1)!.date;
    const sunday = ['2026-11-29', '2026-12-06', '2026-12-13'].find((d) => !offered.some((o) => o.date === d))!;
    const day = body.day === 'next' ? next : body.day === 'sunday' ? sunday : body.day;
    const response = await book(tokenOf((await issueApplicantLink(record.id))!), { ...body, day });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBeTruthy();
    expect((await getInquiry(record.id))?.callback).toBeUndefined();
  });

  it('needs the applicant link: no token or a guessed one gets 401', async () => {
    const [day] = callbackDays('Mon - Sat: 8:00 am - 7:00 pm');
    expect((await book(null, { day: day!.date, window: day!.windows[0] })).status).toBe(401);
    expect((await book('A'.repeat(43), { day: day!.date, window: day!.windows[0] })).status).toBe(401);
  });

  it("lists today's call-backs for staff on the dashboard, earliest first", async () => {
    // Thursday 26 November 2026, 7:00 am in Sydney.
    const now = new Date('2026-11-25T20:00:00Z');
    const late = await quote();
    const early = await storeContactInquiry({ firstName: 'Early', phone: '0400 111 222' });
    await requestCallback(late.id, { day: '2026-11-26', window: '4:00 pm – 6:00 pm' }, now);
    await requestCallback(early.id, { day: '2026-11-26', window: '8:00 am – 10:00 am' }, now);
    await requestCallback((await quote()).id, { day: '2026-11-27', window: '8:00 am – 10:00 am' }, now);
    const due = await callbacksDue(now);
    expect(due.map((call) => [call.window, call.name, call.phone])).toEqual([
      ['8:00 am – 10:00 am', 'Early Lee', '0400 111 222'],
      ['4:00 pm – 6:00 pm', 'Robin Lee', '0412 345 678'],
    ]);
    const stats = await statsHandler(
      new Request('http://localhost/api/admin/dashboard-stats', { headers: { authorization: `Bearer ${staffToken}` } }),
    );
    expect(stats.status).toBe(200);
    expect(Array.isArray((await stats.json()).callbacksToday)).toBe(true);
  });
});
