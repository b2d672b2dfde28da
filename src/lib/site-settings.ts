import * as v from 'valibot';
import defaults from '../../content/site-settings.json';
import { SiteSettingsSchema, type SiteSettings, type SocialNetwork } from '../schemas/site-settings.ts';
import { isShownSocialLink, telHref } from './social.ts';

export { telHref };

/** Built-in defaults (content/), validated once so a bad edit of the content file fails the build. */
export const defaultSiteSettings: SiteSettings = v.parse(SiteSettingsSchema, defaults);

/** The settings as the public answer and the pages use them (without who saved them). */
export function publicSettings(settings: SiteSettings): SiteSettings {
  const { contactInfo, socialMedia, business, partnerRtos, claims, prices } = settings;
  return {
    // Staff-only, left empty: where replies from the inbox are answered, and each claim's note of where its
    // figure comes from (visitors get the source written for them, `publicSource`).
    contactInfo: { ...contactInfo, replyTo: '' },
    socialMedia,
    business,
    partnerRtos,
    claims: {
      successRate: { ...claims.successRate, source: '' },
      satisfaction: { ...claims.satisfaction, source: '' },
      completionTime: { ...claims.completionTime, source: '' },
      process: { ...claims.process, source: '' },
    },
    prices,
  };
}

export const socialLabels: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  youtube: 'YouTube',
};

/** Every network with its address and whether it is shown (an empty link is hidden). */
export function socialLinks(settings: SiteSettings) {
  return (Object.keys(socialLabels) as SocialNetwork[]).map((network) => ({
    network,
    label: socialLabels[network],
    href: settings.socialMedia[network].trim(),
    shown: isShownSocialLink(settings.socialMedia[network]),
  }));
}

export function visibleSocialLinks(settings: SiteSettings) {
  return socialLinks(settings).filter((link) => link.shown);
}
