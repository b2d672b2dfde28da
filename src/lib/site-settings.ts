import * as v from 'valibot';
import defaults from '../../content/site-settings.json';
import { SiteSettingsSchema, isShownSocialLink, type SiteSettings, type SocialNetwork } from '../schemas/site-settings';

/** Built-in defaults (SPEC section 3), validated once so a bad edit of the content file fails the build. */
export const defaultSiteSettings: SiteSettings = v.parse(SiteSettingsSchema, defaults);

/**
 * The settings the pre-rendered header, footer and contact page show.
 * Every page reads them through here; the admin issue layers the stored settings over these defaults.
 */
export async function getSiteSettings(): Promise<SiteSettings> {
  return defaultSiteSettings;
}

export const socialLabels: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  youtube: 'YouTube',
};

export function visibleSocialLinks(settings: SiteSettings) {
  return (Object.keys(socialLabels) as SocialNetwork[])
    .filter((network) => isShownSocialLink(settings.socialMedia[network]))
    .map((network) => ({ network, label: socialLabels[network], href: settings.socialMedia[network].trim() }));
}

/** tel: links want digits only (and a leading +). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
