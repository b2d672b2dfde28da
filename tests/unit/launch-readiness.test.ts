import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { computeLaunchReadiness, isOlderThanSixMonths } from '../../src/server/launch-readiness';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { PartnerRtoSchema } from '../../src/schemas/site-settings';

const now = new Date('2026-11-23T10:00:00Z');
type Facts = NonNullable<Parameters<typeof computeLaunchReadiness>[1]>['courses'];
const checked = (checkedOn = '2026-11-01', title = 'A title') => ({ checkedOn, status: 'current', title });
const ids = (settings: typeof defaultSiteSettings, courses: Facts = []) =>
  computeLaunchReadiness(settings, { now, courses })
    .items.filter((item) => !item.advice)
    .map((item) => item.id);

function launchable() {
  const settings = structuredClone(defaultSiteSettings);
  settings.contactInfo = {
    email: 'hello@real.com.au',
    phone: '02 9999 1111',
    phoneSecondary: '',
    address: '1 Real St, Sydney NSW 2000',
    businessHours: 'Mon - Fri',
    replyTo: '',
  };
  settings.socialMedia = { facebook: 'https://facebook.com/real', instagram: '', youtube: '' };
  settings.business = { legalName: 'Real Pty Ltd', abn: '51824753556' };
  settings.partnerRtos = [
    v.parse(PartnerRtoSchema, {
      legalName: 'RTO Pty Ltd',
      code: '12345',
      categories: ['civil-construction', 'leadership-management', 'community-services'],
      // Every code the tests below use, so no test meets a qualification without a delivering RTO by accident.
      courses: ['OLD1', 'NEW1', 'NONE', 'CPC30220', 'CHC30125', 'CHC43315', '22603VIC', 'NEW00001'],
    }),
  ];
  for (const claim of Object.values(settings.claims)) {
    claim.source = 'Client records 2025';
    claim.publicSource = 'Based on 120 client files closed in 2025';
  }
  return settings;
}

describe('launch readiness', () => {
  it('lists every built-in default and unverified fact of the shipped settings', () => {
    const items = computeLaunchReadiness(defaultSiteSettings, { now, courses: [] }).items;
    const found = items.map((item) => item.id);
    expect(found).toEqual(
      expect.arrayContaining([
        'default-contactInfo.email',
        'default-contactInfo.phone',
        'default-contactInfo.phoneSecondary',
        'no-partner-rto',
        'no-abn',
        'no-legal-name',
        'claim-no-source-completionTime',
        'claim-no-source-process',
      ]),
    );
    // Each item links to the settings section where it is fixed.
    expect(items.find((item) => item.id === 'default-contactInfo.phone')?.href).toBe('/admin/settings#contact');
    expect(items.find((item) => item.id === 'no-partner-rto')?.href).toBe('/admin/settings#partner-rtos');
    expect(items.find((item) => item.id === 'no-abn')?.href).toBe('/admin/settings#business');
    expect(items.find((item) => item.id === 'claim-no-source-completionTime')?.href).toBe(
      '/admin/settings#setting-claims-completionTime-source',
    );
  });

  it('finding 4: outcome rates and ratings ship switched off; a claim on without a source visitors can see is flagged', () => {
    expect(defaultSiteSettings.claims.successRate.enabled).toBe(false);
    expect(defaultSiteSettings.claims.satisfaction.enabled).toBe(false);
    const shipped = ids(defaultSiteSettings);
    expect(shipped).toContain('claim-no-public-source-completionTime');
    expect(shipped).not.toContain('claim-no-public-source-successRate');
    const settings = launchable();
    settings.claims.satisfaction.enabled = true;
    settings.claims.satisfaction.publicSource = '  ';
    expect(ids(settings)).toEqual(['claim-no-public-source-satisfaction']);
    settings.claims.satisfaction.publicSource = 'Based on 212 reviews on Google';
    expect(ids(settings)).toEqual([]);
  });

  it('finding 1: counts every qualification not yet checked on the National Register as a blocker', () => {
    const courses = [
      { code: 'CPC30220', title: 'Certificate III in Carpentry' },
      { code: 'BSB50420', title: 'Diploma', registerCheck: checked('2026-11-01', 'Diploma') },
      { code: 'NEW00001', title: 'Added by staff' },
    ];
    const result = computeLaunchReadiness(launchable(), { now, courses });
    expect(result.ready).toBe(false);
    const item = result.items.find((i) => i.id === 'register-unchecked')!;
    expect(item.advice).toBeUndefined();
    expect(item.text).toMatch(/^2 qualifications are not yet checked on the National Register/);
    expect(item.text).toContain('CPC30220');
    expect(item.text).not.toContain('BSB50420');
  });

  it('finding 1: a register title other than the page title blocks launch', () => {
    const courses = [
      {
        code: 'CPC30220',
        title: 'Certificate III in Carpentry',
        registerCheck: checked('2026-11-01', 'Cert III Carpentry'),
      },
    ];
    expect(ids(launchable(), courses)).toEqual(['register-title-differs']);
  });

  it('finding 2: work hours from the review block launch until the register check confirms them', () => {
    const work = { hours: 160, note: '160 hours of work; verify on the register.' };
    const courses = [
      { code: 'CHC30125', title: 'T', workRequirement: work, registerCheck: checked('2026-11-01', 'T') },
    ];
    const result = computeLaunchReadiness(launchable(), { now, courses });
    expect(result.items.filter((i) => !i.advice).map((i) => i.id)).toEqual(['work-hours-unconfirmed']);
    expect(result.items[0]!.text).toContain('CHC30125 (160 h)');
    courses[0]!.registerCheck = { ...checked('2026-11-01', 'T'), workHours: 160 } as never;
    expect(ids(launchable(), courses)).toEqual([]);
  });

  it('finding 6: watched codes are advice with the review note; an accredited course needs its end date', () => {
    const courses = [
      {
        code: 'CHC43315',
        title: 'Certificate IV in Mental Health',
        registerCheck: checked('2026-11-01', 'Certificate IV in Mental Health'),
        watch: 'Under a national review.',
      },
      {
        code: '22603VIC',
        title: 'Certificate IV in Cyber Security',
        registerCheck: checked('2026-11-01', 'Certificate IV in Cyber Security'),
      },
    ];
    const result = computeLaunchReadiness(launchable(), { now, courses });
    expect(result.items.filter((i) => i.id !== 'no-fee')).toEqual([
      expect.objectContaining({
        id: 'accreditation-end-unknown-22603VIC',
        text: expect.stringContaining('accreditation end date unknown'),
      }),
      expect.objectContaining({
        id: 'watch-CHC43315',
        advice: true,
        text: expect.stringContaining('Under a national review.'),
      }),
    ]);
    expect(result.items[0]!.advice).toBeUndefined();
    (courses[1] as { accreditedUntil?: string }).accreditedUntil = '2028-06-30';
    expect(ids(launchable(), courses)).toEqual([]);
  });

  it('is ready once real details, an RTO, an ABN and sources are in', () => {
    expect(computeLaunchReadiness(launchable(), { now, courses: [] })).toEqual({ ready: true, items: [] });
  });

  it('does not list a claim that is switched off, even without a source', () => {
    const settings = launchable();
    settings.claims.successRate = { value: '98', source: '', publicSource: 'Based on 120 files', enabled: false };
    expect(ids(settings)).toEqual([]);
    settings.claims.successRate.enabled = true;
    expect(ids(settings)).toEqual(['claim-no-source-successRate']);
  });

  it('lists qualifications last checked on the register more than 6 months ago', () => {
    const courses = [
      { code: 'OLD1', title: 'A title', registerCheck: checked('2026-05-01') },
      { code: 'NEW1', title: 'A title', registerCheck: checked('2026-06-01') },
    ];
    const result = computeLaunchReadiness(launchable(), { now, courses });
    expect(result.items.filter((item) => !item.advice)).toEqual([
      expect.objectContaining({ id: 'stale-check', href: '/admin/courses', text: expect.stringContaining('OLD1') }),
    ]);
    expect(result.items[0]!.text).not.toContain('NEW1');
    expect(isOlderThanSixMonths('2026-05-22', now)).toBe(true);
    expect(isOlderThanSixMonths('2026-05-24', now)).toBe(false);
  });

  it('lists qualifications without an indicative fee as advice that does not block launch', () => {
    const courses = [
      { code: 'CPC30220', category: 'civil-construction' },
      { code: 'CPC30620', category: 'civil-construction' },
      { code: 'BSB50420', category: 'leadership-management' },
      { code: 'CHC33021', category: 'community-services' },
    ].map((course) => ({ ...course, title: 'A title', registerCheck: checked() }));
    const settings = launchable();
    const fee = (scope: 'course' | 'category', target: string) => ({
      scope,
      target,
      from: '1500',
      to: '',
      plan: '',
      rtoCode: '12345',
      setOn: '2026-11-20',
    });
    settings.prices = [fee('category', 'civil-construction'), fee('course', 'BSB50420')];
    const result = computeLaunchReadiness(settings, { now, courses });
    expect(result.ready).toBe(true);
    expect(result.items).toEqual([
      expect.objectContaining({
        id: 'no-fee',
        advice: true,
        href: '/admin/settings#fees',
        text: expect.stringContaining('CHC33021'),
      }),
    ]);
    expect(result.items[0]!.text).toMatch(/^1 qualification has no indicative fee/);
    settings.prices.push(fee('course', 'CHC33021'));
    expect(computeLaunchReadiness(settings, { now, courses }).items).toEqual([]);
  });
});
