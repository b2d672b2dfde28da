// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  PartnerRtoSchema,
  SiteSettingsSchema,
  BusinessSchema,
  isValidAbn,
  formatAbn,
} from '../../src/schemas/site-settings';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import {
  deliveringRto,
  partsFor,
  providerJsonLd,
  quoteRtoParts,
  RTO_IN_QUOTE,
  RTO_NAMED_IN_QUOTE,
} from '../../src/lib/partner-rto';
import { claimPlainText, splitClaims } from '../../src/lib/claims';
import { applySettings } from '../../src/lib/settings-refresh';

const rto = (over: Partial<v.InferInput<typeof PartnerRtoSchema>> = {}) =>
  v.parse(PartnerRtoSchema, {
    legalName: 'Example Training Pty Ltd',
    code: '12345',
    registerUrl: '',
    categories: [],
    courses: [],
    ...over,
  });

describe('partner RTO schema', () => {
  it.each(['1234', '12345', '123456'])('accepts the RTO code %s', (code) => {
    expect(
      v.safeParse(PartnerRtoSchema, { legalName: 'X', code, registerUrl: '', categories: [], courses: [] }).success,
    ).toBe(true);
  });
  it.each(['123', '1234567', '12a45', 'RTO 12345', ''])('refuses the RTO code %j with a message', (code) => {
    const parsed = v.safeParse(PartnerRtoSchema, {
      legalName: 'X',
      code,
      registerUrl: '',
      categories: [],
      courses: [],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.issues?.[0]?.message).toBe('An RTO code has 4 to 6 digits, as on training.gov.au');
  });
  it('finding 5: the register link follows the code, whatever link was saved with an earlier code', () => {
    expect(rto().registerUrl).toBe('https://training.gov.au/Organisation/Details/12345');
    // Saved when the RTO was entered as 99999, then the code was corrected to 88888.
    const corrected = rto({
      code: '88888',
      registerUrl: 'https://training.gov.au/Organisation/Details/99999',
      courses: ['CPC30220'],
    });
    expect(corrected.registerUrl).toBe('https://training.gov.au/Organisation/Details/88888');
    expect(rto({ registerUrl: 'javascript:alert(1)' }).registerUrl).toBe(
      'https://training.gov.au/Organisation/Details/12345',
    );
    const stale = { ...corrected, registerUrl: 'https://training.gov.au/Organisation/Details/99999' };
    const course = { code: 'CPC30220', category: 'civil-construction' };
    expect(partsFor('course', { partnerRtos: [stale] }, course)).toContainEqual({
      text: 'Example Training Pty Ltd (RTO 88888)',
      href: 'https://training.gov.au/Organisation/Details/88888',
    });
    expect(providerJsonLd([stale], course.code, course.category).provider?.url).toBe(
      'https://training.gov.au/Organisation/Details/88888',
    );
  });
  it('requires a legal name', () => {
    expect(
      v.safeParse(PartnerRtoSchema, { legalName: '  ', code: '1234', registerUrl: '', categories: [], courses: [] })
        .success,
    ).toBe(false);
  });
});

describe('ABN', () => {
  it.each(['51 824 753 556', '51824753556', '53 004 085 616'])('accepts the valid ABN %s', (abn) => {
    expect(isValidAbn(abn)).toBe(true);
    expect(v.parse(BusinessSchema, { legalName: 'X Pty Ltd', abn }).abn).toBe(abn.replace(/\s/g, ''));
  });
  it.each(['51 824 753 557', '12345678901', '5182475355', 'abcdefghijk'])('refuses %s', (abn) => {
    expect(isValidAbn(abn)).toBe(false);
    expect(v.safeParse(BusinessSchema, { legalName: '', abn }).success).toBe(false);
  });
  it('may be left empty and is shown grouped', () => {
    expect(v.parse(BusinessSchema, { legalName: '', abn: '' })).toEqual({ legalName: '', abn: '' });
    expect(formatAbn('51824753556')).toBe('51 824 753 556');
  });
});

describe('settings defaults', () => {
  it('ship without a partner RTO or ABN, with the timeframe on and the outcome rate and rating off', () => {
    expect(defaultSiteSettings.partnerRtos).toEqual([]);
    expect(defaultSiteSettings.business.abn).toBe('');
    expect(defaultSiteSettings.claims.completionTime).toEqual({
      value: '4-8 weeks',
      source: '',
      publicSource: '',
      enabled: true,
    });
    expect(defaultSiteSettings.claims.successRate.enabled).toBe(false);
    expect(defaultSiteSettings.claims.satisfaction.enabled).toBe(false);
    expect(v.safeParse(SiteSettingsSchema, defaultSiteSettings).success).toBe(true);
  });
  it('refuses a claim figure that is not a number', () => {
    const bad = structuredClone(defaultSiteSettings);
    bad.claims.successRate.value = '98%';
    expect(v.safeParse(SiteSettingsSchema, bad).success).toBe(false);
  });
});

describe('delivering RTO', () => {
  const nothing = rto({ legalName: 'Lists Nothing RTO', code: '1111' });
  const cat = rto({ legalName: 'Category RTO', code: '2222', categories: ['civil-construction'] });
  const course = rto({ legalName: 'Course RTO', code: '3333', courses: ['CPC30220'] });
  it('prefers a course listing, then a category', () => {
    expect(deliveringRto([nothing, cat, course], 'CPC30220', 'civil-construction')?.code).toBe('3333');
    expect(deliveringRto([nothing, cat, course], 'CPC40120', 'civil-construction')?.code).toBe('2222');
    expect(deliveringRto([cat], 'BSB30120', 'business-administration')).toBeUndefined();
    expect(deliveringRto([], 'BSB30120', 'business-administration')).toBeUndefined();
  });
  it('finding 5: an RTO that lists no qualification or category is named for none', () => {
    const bsb = { code: 'BSB30120', category: 'business-administration' };
    expect(deliveringRto([nothing], bsb.code, bsb.category)).toBeUndefined();
    expect(deliveringRto([nothing, cat, course], bsb.code, bsb.category)).toBeUndefined();
    expect(providerJsonLd([nothing], bsb.code, bsb.category)).toEqual({});
    const parts = partsFor('course', { partnerRtos: [nothing] }, bsb);
    expect(parts.map((part) => (typeof part === 'string' ? part : part.text)).join('')).toBe(RTO_IN_QUOTE);
    expect(parts).toContainEqual({ text: 'ask us in a free quote', href: '/free-quote?course=BSB30120' });
    expect(JSON.stringify(parts)).not.toContain('Lists Nothing RTO');
  });
  it('finding 5: a qualification only one RTO lists is named with that RTO, and no other', () => {
    expect(deliveringRto([nothing, course], 'CPC30220', 'civil-construction')?.code).toBe('3333');
    expect(providerJsonLd([nothing, course], 'CPC30220', 'civil-construction').provider?.name).toBe('Course RTO');
    expect(deliveringRto([nothing, course], 'CPC40120', 'civil-construction')).toBeUndefined();
  });
  it('names the RTO and its code, or says none is listed and offers the quote', () => {
    expect(partsFor('course', { partnerRtos: [] }, { code: 'X', category: 'y' })).toEqual([
      'No partner RTO is listed for this qualification yet; ',
      { text: 'ask us in a free quote', href: '/free-quote?course=X' },
      '.',
    ]);
    expect(partsFor('rtos', { partnerRtos: [] })).toEqual([RTO_NAMED_IN_QUOTE]);
    expect(partsFor('course', { partnerRtos: [course] }, { code: 'CPC30220', category: 'civil-construction' })).toEqual(
      [
        'Assessed and issued by our partner RTO ',
        { text: 'Course RTO (RTO 3333)', href: 'https://training.gov.au/Organisation/Details/3333' },
        '.',
      ],
    );
    expect(
      quoteRtoParts(
        [cat],
        [
          { code: 'A', category: 'civil-construction' },
          { code: 'B', category: 'other' },
        ],
      ),
    ).toEqual([RTO_NAMED_IN_QUOTE]);
    expect(quoteRtoParts([cat], [{ code: 'A', category: 'civil-construction' }])).toContainEqual({
      text: 'Category RTO (RTO 2222)',
      href: cat.registerUrl,
    });
  });
  it('gives the course JSON-LD provider only when the RTO is known, never this service', () => {
    expect(providerJsonLd([], 'CPC30220', 'civil-construction')).toEqual({});
    expect(providerJsonLd([course], 'CPC30220', 'civil-construction')).toEqual({
      provider: {
        '@type': 'EducationalOrganization',
        name: 'Course RTO',
        url: 'https://training.gov.au/Organisation/Details/3333',
      },
    });
  });
  it('names the business with its ABN, or nothing', () => {
    expect(partsFor('business', { business: { legalName: '', abn: '' } })).toEqual([]);
    expect(partsFor('business', { business: { legalName: 'RPL Pathways Pty Ltd', abn: '51824753556' } })[0]).toContain(
      'RPL Pathways Pty Ltd (ABN 51 824 753 556)',
    );
  });
});

describe('completion-time claim in copy', () => {
  it('marks the sentence stating the timeframe', () => {
    const text = 'No cost and no obligation. Most clients finish within 4-8 weeks.';
    expect(splitClaims(text)).toEqual([
      { text: 'No cost and no obligation.' },
      { claim: 'completionTime', before: ' Most clients finish within ', after: '.' },
    ]);
    expect(claimPlainText(text, { value: '4-8 weeks', enabled: false })).toBe('No cost and no obligation.');
    expect(claimPlainText(text, { value: '6-10 weeks', enabled: true })).toBe(
      'No cost and no obligation. Most clients finish within 6-10 weeks.',
    );
  });
  it('keeps the estimate caveat with its sentence and leaves other copy alone', () => {
    expect(
      claimPlainText('Assessment typically takes 4-8 weeks. This is an estimate, not a guarantee. Fees are in AUD.', {
        value: '',
        enabled: false,
      }),
    ).toBe('Fees are in AUD.');
    expect(splitClaims('Nothing to see.')).toEqual([{ text: 'Nothing to see.' }]);
  });
});

describe('settings refresh of claims and RTOs', () => {
  it('hides a switched-off claim, updates figures and rebuilds the RTO sentence', () => {
    document.body.innerHTML = `
      <p><span data-claim="completionTime">Most clients finish within <span data-claim-value>4-8 weeks</span>.</span></p>
      <div data-claim="satisfaction"><span data-count-to="4.9" data-decimals="1" data-claim-value="count">4.9</span></div>
      <span data-parts="course" data-course-code="CPC30220" data-course-category="civil-construction">${RTO_IN_QUOTE}</span>`;
    const settings = structuredClone(defaultSiteSettings);
    settings.claims.completionTime.enabled = false;
    settings.claims.satisfaction.value = '4.7';
    settings.partnerRtos = [rto({ legalName: 'Build <Skills> RTO', code: '4321', categories: ['civil-construction'] })];
    applySettings(document, settings as never);
    expect(document.querySelector<HTMLElement>('[data-claim="completionTime"]')!.hidden).toBe(true);
    const figure = document.querySelector<HTMLElement>('[data-claim-value="count"]')!;
    expect(figure.textContent).toBe('4.7');
    expect(figure.dataset.countTo).toBe('4.7');
    const link = document.querySelector('[data-parts] a')!;
    expect(link.textContent).toBe('Build <Skills> RTO (RTO 4321)');
    expect(link.getAttribute('href')).toBe('https://training.gov.au/Organisation/Details/4321');
    settings.claims.completionTime.enabled = true;
    applySettings(document, settings as never);
    expect(document.querySelector<HTMLElement>('[data-claim="completionTime"]')!.hidden).toBe(false);
  });

  it('leaves a count-up that is waiting below the fold at 0, only giving it its new target', () => {
    document.body.innerHTML = `
      <div data-claim="successRate"><span data-count-to="98" data-decimals="0" data-claim-value="count">0</span></div>
      <div data-claim="satisfaction"><span data-count-to="4.9" data-decimals="1" data-claim-value="count">0</span></div>`;
    const settings = structuredClone(defaultSiteSettings);
    settings.claims.successRate.value = '98';
    settings.claims.satisfaction.value = '4.7';
    applySettings(document, settings as never);
    const [clients, satisfaction] = document.querySelectorAll<HTMLElement>('[data-claim-value="count"]');
    expect(clients.textContent).toBe('0');
    expect(satisfaction.textContent).toBe('0');
    expect(satisfaction.dataset.countTo).toBe('4.7');
  });
});
