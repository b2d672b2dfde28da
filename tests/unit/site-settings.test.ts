import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { isShownSocialLink } from '../../src/lib/social';
import { SiteSettingsSchema } from '../../src/schemas/site-settings';
import { defaultSiteSettings, telHref, visibleSocialLinks } from '../../src/lib/site-settings';

describe('site settings defaults', () => {
  it('carry the specified business hours and address', () => {
    expect(defaultSiteSettings.contactInfo.businessHours).toBe('Mon - Sat: 8:00 am - 7:00 pm');
    expect(defaultSiteSettings.contactInfo.address).toBe('200 Gilchrist Dr, Campbelltown NSW 2560');
    expect(defaultSiteSettings.contactInfo.phoneSecondary).not.toBe('');
  });
});

describe('social link hiding rule', () => {
  it.each(['', '   ', '#', 'javascript:void(0)', 'JavaScript:Void(0)', null, undefined])('hides %j', (href) => {
    expect(isShownSocialLink(href)).toBe(false);
  });
  it('shows a real address', () => {
    expect(isShownSocialLink('https://www.facebook.com/example')).toBe(true);
  });
  it('drops hidden networks from the rendered list and keeps the order', () => {
    const settings = {
      ...defaultSiteSettings,
      socialMedia: { facebook: '#', instagram: 'https://instagram.com/x', youtube: '' },
    };
    expect(visibleSocialLinks(settings)).toEqual([
      { network: 'instagram', label: 'Instagram', href: 'https://instagram.com/x', shown: true },
    ]);
  });
});

describe('site settings schema', () => {
  const valid = structuredClone(defaultSiteSettings);
  it('accepts the defaults and trims text', () => {
    const parsed = v.parse(SiteSettingsSchema, {
      ...valid,
      contactInfo: { ...valid.contactInfo, email: '  a@b.com.au ' },
    });
    expect(parsed.contactInfo.email).toBe('a@b.com.au');
  });
  it('rejects a bad e-mail with a readable message', () => {
    const result = v.safeParse(SiteSettingsSchema, {
      ...valid,
      contactInfo: { ...valid.contactInfo, email: 'not-an-email' },
    });
    expect(result.success).toBe(false);
    expect(result.issues?.[0].message).toBe('Enter a valid e-mail address');
  });
  it('rejects script URLs in social links', () => {
    const result = v.safeParse(SiteSettingsSchema, {
      ...valid,
      socialMedia: { ...valid.socialMedia, youtube: 'javascript:alert(1)' },
    });
    expect(result.success).toBe(false);
  });
  it('rejects letters in phone numbers', () => {
    const result = v.safeParse(SiteSettingsSchema, {
      ...valid,
      contactInfo: { ...valid.contactInfo, phone: 'call me' },
    });
    expect(result.success).toBe(false);
  });
  it('builds dialable tel: links', () => {
    expect(telHref('(02) 5550 1234')).toBe('tel:0255501234');
    expect(telHref('+61 491 570 156')).toBe('tel:+61491570156');
  });
});
