/**
 * "Ready to launch?": every built-in default or unverified fact the public site still shows. Computed on
 * request from the saved settings, the shipped defaults and the catalogue (with the staff edits and the
 * register look-ups recorded in the admin).
 */
import { CLAIM_KEYS, PUBLIC_SOURCE_CLAIMS, type ClaimKey, type SiteSettings } from '../schemas/site-settings.ts';
import { isAccreditedCourseCode } from '../schemas/catalogue.ts';
import { defaultSiteSettings } from '../lib/site-settings.ts';
import { deliveringRto } from '../lib/partner-rto.ts';
import { readSettings } from './settings.ts';
import { loadCatalogue } from './catalogue.ts';
import { mailProblems } from './mail-config.ts';

export interface ReadinessItem {
  /**
   * Stable id, e.g. `default-contactInfo.phone`, `no-partner-rto`, `rto-delivers-nothing-12345`,
   * `no-delivering-rto`, `claim-no-source-successRate`, `stale-check`.
   */
  id: string;
  text: string;
  /** Where staff fix it. */
  href: string;
  /** Worth doing, but the site is honest without it (qualifications without a fee say how it is decided). */
  advice?: true;
}

export interface LaunchReadiness {
  ready: boolean;
  items: ReadinessItem[];
}

interface CourseFacts {
  code: string;
  title?: string;
  category?: string;
  registerCheck?: { checkedOn: string; status: string; title: string; workHours?: number };
  workRequirement?: { hours: number; note: string };
  watch?: string;
  accreditedUntil?: string;
}

const contactLabels: Record<keyof SiteSettings['contactInfo'], string> = {
  email: 'The e-mail address',
  phone: 'The phone number',
  phoneSecondary: 'The secondary phone number',
  address: 'The street address',
  businessHours: 'The business hours',
  replyTo: 'The reply-to address',
};
const socialLabels: Record<keyof SiteSettings['socialMedia'], string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  youtube: 'YouTube',
};
const claimNames: Record<ClaimKey, string> = {
  successRate: 'Success rate',
  satisfaction: 'Satisfaction',
  completionTime: 'Completion time',
  process: 'Four-step process',
};

/** A date string (YYYY-MM-DD) more than six calendar months before `now`. */
export function isOlderThanSixMonths(date: string, now: Date): boolean {
  const checked = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(checked.getTime())) return true;
  const limit = new Date(now);
  limit.setUTCMonth(limit.getUTCMonth() - 6);
  return checked < limit;
}

export function computeLaunchReadiness(
  settings: SiteSettings,
  options: { defaults?: SiteSettings; courses: readonly CourseFacts[]; now?: Date },
): LaunchReadiness {
  const { defaults = defaultSiteSettings, courses, now = new Date() } = options;
  const items: ReadinessItem[] = [];

  for (const field of Object.keys(contactLabels) as (keyof SiteSettings['contactInfo'])[]) {
    const value = settings.contactInfo[field].trim();
    if (value && value === defaults.contactInfo[field].trim()) {
      items.push({
        id: `default-contactInfo.${field}`,
        text: `${contactLabels[field]} is still the built-in placeholder (${value}).`,
        href: '/admin/settings#contact',
      });
    }
  }
  for (const network of Object.keys(socialLabels) as (keyof SiteSettings['socialMedia'])[]) {
    const value = settings.socialMedia[network].trim();
    if (value && value === defaults.socialMedia[network].trim()) {
      items.push({
        id: `default-socialMedia.${network}`,
        text: `The ${socialLabels[network]} link is still the built-in placeholder.`,
        href: '/admin/settings#social',
      });
    }
  }
  if (!settings.partnerRtos.length) {
    items.push({
      id: 'no-partner-rto',
      text: 'No partner RTO is entered: pages say the written quote names it.',
      href: '/admin/settings#partner-rtos',
    });
  }
  for (const rto of settings.partnerRtos) {
    if (!rto.courses.length && !rto.categories.length)
      items.push({
        id: `rto-delivers-nothing-${rto.code}`,
        text: `The partner RTO ${rto.legalName} (RTO ${rto.code}) lists no qualification or category, so no page names it.`,
        href: '/admin/settings#partner-rtos',
      });
  }
  const undelivered = settings.partnerRtos.length
    ? courses
        .filter((course) => !deliveringRto(settings.partnerRtos, course.code, course.category ?? ''))
        .map((course) => course.code)
    : [];
  if (undelivered.length) {
    const shown =
      undelivered.slice(0, 5).join(', ') + (undelivered.length > 5 ? ` and ${undelivered.length - 5} more` : '');
    items.push({
      id: 'no-delivering-rto',
      text: `${undelivered.length} published ${undelivered.length === 1 ? 'qualification has' : 'qualifications have'} no partner RTO that delivers ${undelivered.length === 1 ? 'it; its page says' : 'them; their pages say'} none is listed and offer the free quote (${shown}).`,
      href: '/admin/settings#partner-rtos',
    });
  }
  if (!settings.business.abn)
    items.push({ id: 'no-abn', text: 'No ABN is entered for the business.', href: '/admin/settings#business' });
  if (!settings.business.legalName)
    items.push({
      id: 'no-legal-name',
      text: 'No legal name is entered for the business.',
      href: '/admin/settings#business',
    });
  for (const key of CLAIM_KEYS) {
    const claim = settings.claims[key];
    if (claim.enabled && !claim.source.trim()) {
      items.push({
        id: `claim-no-source-${key}`,
        text: `The claim "${claimNames[key]}" is shown without a source note.`,
        href: `/admin/settings#setting-claims-${key}-source`,
      });
    }
  }
  for (const key of PUBLIC_SOURCE_CLAIMS) {
    const claim = settings.claims[key];
    if (claim.enabled && !claim.publicSource?.trim()) {
      items.push({
        id: `claim-no-public-source-${key}`,
        text: `The claim "${claimNames[key]}" is shown without a source visitors can see (such as "Based on N reviews on ...").`,
        href: `/admin/settings#setting-claims-${key}-publicSource`,
      });
    }
  }
  const list = (codes: string[]) =>
    codes.slice(0, 5).join(', ') + (codes.length > 5 ? ` and ${codes.length - 5} more` : '');
  const unchecked = courses.filter((course) => !course.registerCheck).map((course) => course.code);
  if (unchecked.length) {
    items.push({
      id: 'register-unchecked',
      text: `${unchecked.length} ${unchecked.length === 1 ? 'qualification is' : 'qualifications are'} not yet checked on the National Register; ${unchecked.length === 1 ? 'its page says' : 'their pages say'} so (${list(unchecked)}). Open each in Courses and record the check.`,
      href: '/admin/courses',
    });
  }
  const stale = courses
    .filter((course) => course.registerCheck && isOlderThanSixMonths(course.registerCheck.checkedOn, now))
    .map((course) => course.code);
  if (stale.length) {
    items.push({
      id: 'stale-check',
      text: `${stale.length} ${stale.length === 1 ? 'qualification was' : 'qualifications were'} last checked on the national register more than 6 months ago (${list(stale)}).`,
      href: '/admin/courses',
    });
  }
  const plain = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const mistitled = courses
    .filter((c) => c.registerCheck && c.title && plain(c.registerCheck.title) !== plain(c.title))
    .map((c) => c.code);
  if (mistitled.length) {
    items.push({
      id: 'register-title-differs',
      text: `The register shows another title for ${list(mistitled)}: correct the title in the catalogue content so the page matches the register.`,
      href: '/admin/courses',
    });
  }
  const unconfirmedHours = courses
    .filter((c) => c.workRequirement && !c.registerCheck?.workHours)
    .map((c) => `${c.code} (${c.workRequirement!.hours} h)`);
  if (unconfirmedHours.length) {
    items.push({
      id: 'work-hours-unconfirmed',
      text: `Work hours found by the qualifications review, not yet confirmed on the register: ${list(unconfirmedHours)}. Record the hours with the register check.`,
      href: '/admin/courses',
    });
  }
  for (const course of courses) {
    if (isAccreditedCourseCode(course.code) && !course.accreditedUntil) {
      items.push({
        id: `accreditation-end-unknown-${course.code}`,
        text: `${course.code}: accreditation end date unknown. An accredited course expires; record its end date so it is withdrawn on time.`,
        href: '/admin/courses',
      });
    }
  }
  for (const course of courses) {
    if (course.watch) {
      items.push({
        id: `watch-${course.code}`,
        text: `Watch ${course.code}${course.title ? ` ${course.title}` : ''}: ${course.watch}`,
        href: '/admin/courses',
        advice: true,
      });
    }
  }
  const priced = (course: CourseFacts) =>
    (settings.prices ?? []).some(
      (price) =>
        (price.scope === 'course' && price.target === course.code) ||
        (price.scope === 'category' && price.target === course.category),
    );
  const unpriced = courses.filter((course) => !priced(course)).map((course) => course.code);
  if (unpriced.length) {
    const shown = unpriced.slice(0, 5).join(', ') + (unpriced.length > 5 ? ` and ${unpriced.length - 5} more` : '');
    items.push({
      id: 'no-fee',
      text: `${unpriced.length} ${unpriced.length === 1 ? 'qualification has' : 'qualifications have'} no indicative fee; ${unpriced.length === 1 ? 'its page says' : 'their pages say'} how the fee is decided (${shown}).`,
      href: '/admin/settings#fees',
      advice: true,
    });
  }
  return { ready: items.every((item) => item.advice), items };
}

export async function launchReadiness(now = new Date()): Promise<LaunchReadiness> {
  const { catalogue } = await loadCatalogue();
  const facts = computeLaunchReadiness(await readSettings(), { now, courses: catalogue.courses });
  // Mail first: without it no lead reaches staff by e-mail and no visitor hears back.
  const mail = mailProblems().map((text, n) => ({
    id: `mail-not-set-up-${n}`,
    text,
    href: process.env.SITE_NAME
      ? `https://app.netlify.com/projects/${encodeURIComponent(process.env.SITE_NAME)}/configuration/env`
      : 'https://app.netlify.com/',
  }));
  return { ready: facts.ready && mail.length === 0, items: [...mail, ...facts.items] };
}
