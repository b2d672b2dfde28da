/**
 * Indicative fees staff set (never invented): per qualification or per category, tied to the partner RTO that
 * charges them and dated; shown on course pages, the quote result and the acknowledgement e-mail, or replaced by
 * how the fee is decided.
 */
import { repositoryCatalogue } from '../../src/catalogue/index';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { quoteForm } from './helpers/inquiries';
import { clearInquiries } from './helpers/inquiries';
import { getInquiry } from '../../src/server/inquiries';
import { composeMail } from '../../src/server/mail-messages';
import { readSettings } from '../../src/server/settings';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { FEE_HOW_DECIDED, feeFor, feeSentence, formatAud } from '../../src/lib/prices';
import { partsFor } from '../../src/lib/partner-rto';
import type { Price } from '../../src/schemas/site-settings';
import settingsHandler from '../../netlify/functions/site-settings.mts';
import quoteHandler from '../../netlify/functions/email-quote.mts';

const RTO = { legalName: 'Example Training Pty Ltd', code: '12345', registerUrl: '', categories: [], courses: [] };
const fee = (overrides: Partial<Price> = {}): Price => ({
  scope: 'course',
  target: 'CPC30220',
  from: '1500',
  to: '',
  plan: '',
  rtoCode: '12345',
  setOn: '2026-11-20',
  ...overrides,
});

describe('the fee that applies', () => {
  const carpentry = { code: 'CPC30220', category: 'civil-construction' };
  it("is the qualification's own, else its category's, else none", () => {
    const own = fee({ from: '2000' });
    const category = fee({ scope: 'category', target: 'civil-construction', from: '1200' });
    expect(feeFor([category, own], [RTO], carpentry)?.price).toBe(own);
    expect(feeFor([category], [RTO], carpentry)?.price).toBe(category);
    expect(feeFor([fee({ target: 'CPC30620' })], [RTO], carpentry)).toBeUndefined();
    expect(feeFor(undefined, [RTO], carpentry)).toBeUndefined();
  });

  it('reads as a from price or a range, including GST, with the RTO, the plan and the date', () => {
    expect(feeSentence(feeFor([fee()], [RTO], carpentry))).toBe(
      'Indicative fee: from $1,500 (including GST), charged by Example Training Pty Ltd (RTO 12345). Fee set on 20 November 2026; the written quote confirms it.',
    );
    expect(
      feeSentence(
        feeFor([fee({ from: '1499.50', to: '2200', plan: 'Instalments of $250 a fortnight.' })], [RTO], carpentry),
      ),
    ).toBe(
      'Indicative fee: $1,499.50 to $2,200 (including GST), charged by Example Training Pty Ltd (RTO 12345). Payment plan: Instalments of $250 a fortnight. Fee set on 20 November 2026; the written quote confirms it.',
    );
    expect(formatAud('12000')).toBe('$12,000');
  });

  it('says how the fee is decided when none is set, never a figure', () => {
    expect(feeSentence(undefined)).toBe(FEE_HOW_DECIDED);
    expect(FEE_HOW_DECIDED).not.toMatch(/\$|\d/);
    expect(partsFor('price', { prices: [], partnerRtos: [RTO] }, carpentry)).toEqual([FEE_HOW_DECIDED]);
    expect(partsFor('price', { prices: [fee()], partnerRtos: [RTO] }, carpentry)[0]).toContain('from $1,500');
  });
});

describe('saving fees in the settings', () => {
  let stores: Awaited<ReturnType<typeof startStores>>;
  let token = '';
  beforeAll(async () => {
    process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
    stores = await startStores();
    token = await signedInStaff({ username: 'fee-admin', firstName: 'Fee', lastName: 'Admin' });
  });
  afterAll(() => stores.stop());
  beforeEach(async () => {
    await stores.engine.exec('TRUNCATE site_settings, site_settings_versions');
    await clearInquiries();
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });

  const save = async (prices: unknown[], partnerRtos: unknown[] = [RTO]) =>
    settingsHandler(
      new Request('http://localhost/api/admin/site-settings', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...defaultSiteSettings, partnerRtos, prices, version: (await readSettings()).version }),
      }),
    );
  const refusal = async (response: Response) => ({ status: response.status, body: await response.json() });

  it('keeps a valid fee and serves it publicly', async () => {
    const response = await save([fee({ from: ' $1,500 ' })]);
    expect(response.status).toBe(200);
    expect((await readSettings()).prices).toEqual([fee()]);
    const served = await (await settingsHandler(new Request('http://localhost/api/public/site-settings'))).json();
    expect(served.prices).toEqual([fee()]);
  });

  it.each([
    ['an unknown qualification', fee({ target: 'ZZZ99999' }), 'prices.0.target'],
    ['an unknown category', fee({ scope: 'category', target: 'rocket-science' }), 'prices.0.target'],
    ['an RTO that is not saved', fee({ rtoCode: '99999' }), 'prices.0.rtoCode'],
    ['an upper fee below the "from" fee', fee({ from: '2000', to: '1500' }), 'prices.0.to'],
    ['30 February', fee({ setOn: '2026-02-30' }), 'prices.0.setOn'],
    ['year 0', fee({ setOn: '0000-01-01' }), 'prices.0.setOn'],
    ['a negative amount', fee({ from: '-5' }), 'prices.0.from'],
    ['words for an amount', fee({ from: 'cheap' }), 'prices.0.from'],
  ])('refuses %s with a 400 naming the field, and keeps nothing', async (_case, price, field) => {
    const { status, body } = await refusal(await save([price]));
    expect(status).toBe(400);
    expect(body.errors[0].field).toBe(field);
    expect((await readSettings()).prices).toEqual([]);
  });

  it('refuses two fees for the same qualification', async () => {
    const { status, body } = await refusal(await save([fee(), fee({ from: '900' })]));
    expect(status).toBe(400);
    expect(body.errors[0]).toEqual({ field: 'prices.1.target', message: 'CPC30220 has more than one fee' });
  });

  it('shows the fee in the quote result and the acknowledgement e-mail, and how it is decided elsewhere', async () => {
    expect((await save([fee()])).status).toBe(200);
    const response = await quoteHandler(
      new Request('http://localhost/api/email/quote', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          quoteForm({
            elapsedMs: 60_000,
            website: '',
            selectedCategories: ['civil-construction'],
            selectedCourses: ['CPC30220', 'RII30820'],
          }),
        ),
      }),
      {} as Context,
    );
    const body = await response.json();
    expect(response.status).toBe(200);
    const byCode = new Map(body.result.map((item: { code: string; fee: string }) => [item.code, item.fee]));
    expect(byCode.get('CPC30220')).toContain('from $1,500 (including GST), charged by Example Training Pty Ltd');
    expect(byCode.get('RII30820')).toBe(FEE_HOW_DECIDED);
    const ack = composeMail((await getInquiry(body.id))!, 'ack', { catalogue: repositoryCatalogue() });
    expect(ack.text).toContain('from $1,500 (including GST)');
    expect(ack.html).toContain('from $1,500 (including GST)');
  });
});
