import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { computeLaunchReadiness, isOlderThanSixMonths } from '../../src/server/launch-readiness';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { PartnerRtoSchema } from '../../src/schemas/site-settings';

const now = new Date('2026-11-23T10:00:00Z');
const ids = (settings: typeof defaultSiteSettings, courses: { code: string; checkedOn?: unknown }[] = []) =>
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
  };
  settings.socialMedia = { facebook: 'https://facebook.com/real', instagram: '', youtube: '' };
  settings.business = { legalName: 'Real Pty Ltd', abn: '51824753556' };
  settings.partnerRtos = [
    v.parse(PartnerRtoSchema, {
      legalName: 'RTO Pty Ltd',
      code: '12345',
      categories: ['civil-construction', 'leadership-management', 'community-services'],
      courses: ['OLD1', 'NEW1', 'NONE'],
    }),
  ];
  for (const claim of Object.values(settings.claims)) claim.source = 'Client records 2025';
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
        'claim-no-source-qualifications',
        'claim-no-source-sectors',
        'claim-no-source-successRate',
        'claim-no-source-satisfaction',
        'claim-no-source-completionTime',
        'claim-no-source-process',
      ]),
    );
    // Each item links to the settings section where it is fixed.
    expect(items.find((item) => item.id === 'default-contactInfo.phone')?.href).toBe('/admin/settings#contact');
    expect(items.find((item) => item.id === 'no-partner-rto')?.href).toBe('/admin/settings#partner-rtos');
    expect(items.find((item) => item.id === 'no-abn')?.href).toBe('/admin/settings#business');
    expect(items.find((item) => item.id === 'claim-no-source-successRate')?.href).toBe(
      '/admin/settings#setting-claims-successRate-source',
    );
  });

  it('is ready once real details, an RTO, an ABN and sources are in', () => {
    expect(computeLaunchReadiness(launchable(), { now, courses: [] })).toEqual({ ready: true, items: [] });
  });

  it('does not list a claim that is switched off, even without a source', () => {
    const settings = launchable();
    settings.claims.successRate = { value: '98', source: '', enabled: false };
    expect(ids(settings)).toEqual([]);
    settings.claims.successRate.enabled = true;
    expect(ids(settings)).toEqual(['claim-no-source-successRate']);
  });

  it('lists qualifications last checked more than 6 months ago (and ignores a catalogue without check dates)', () => {
    const courses = [
      { code: 'OLD1', checkedOn: '2026-05-01' },
      { code: 'NEW1', checkedOn: '2026-06-01' },
      { code: 'NONE' },
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
    ];
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
