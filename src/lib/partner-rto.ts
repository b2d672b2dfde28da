import type { PartnerRto, Price } from '../schemas/site-settings.ts';
import { feeFor, feeSentence } from './prices.ts';

import { registerUrlFor } from '../schemas/site-settings.ts';

/** A course page whose qualification no partner RTO lists (none entered, or none that delivers it). */
export const RTO_IN_QUOTE = 'No partner RTO is listed for this qualification yet; ask us in a free quote.';

/** The footer and terms before any partner RTO is entered, and a quote naming a qualification no RTO lists. */
export const RTO_NAMED_IN_QUOTE =
  'The partner RTO that assesses and issues your qualification is named in your written quote.';

/** RTO_IN_QUOTE with its last words linking to the free quote for that qualification. */
const noRtoParts = (code: string): Part[] => [
  'No partner RTO is listed for this qualification yet; ',
  { text: 'ask us in a free quote', href: `/free-quote?course=${encodeURIComponent(code)}` },
  '.',
];

/**
 * The partner RTO that delivers a course: one that lists the course code, else one that lists its
 * category. Undefined when none does: an RTO that lists nothing delivers nothing (it may only be named
 * for what it may issue).
 */
export function deliveringRto(
  rtos: readonly PartnerRto[] | undefined,
  code: string,
  category: string,
): PartnerRto | undefined {
  if (!rtos?.length) return undefined;
  return rtos.find((rto) => rto.courses.includes(code)) ?? rtos.find((rto) => rto.categories.includes(category));
}

/** "Example Training Pty Ltd (RTO 12345)". */
export const rtoLabel = (rto: Pick<PartnerRto, 'legalName' | 'code'>) => `${rto.legalName} (RTO ${rto.code})`;

/** Text with optional links, rendered the same way by the build (Parts.astro) and the refresh script. */
export type Part = string | { text: string; href: string };

export type PartsKind = 'course' | 'rtos' | 'business' | 'price';

export interface PartsInput {
  partnerRtos?: readonly PartnerRto[];
  business?: { legalName: string; abn: string };
  prices?: readonly Price[];
}

/** Always the register page of the RTO's current code (a link saved for an earlier code is never used). */
const rtoLink = (rto: Pick<PartnerRto, 'legalName' | 'code'>): Part => ({
  text: rtoLabel(rto),
  href: registerUrlFor(rto.code),
});

/**
 * The sentence naming the partner RTO(s) or the business behind the site:
 * - `course`: the RTO delivering one course (needs code and category), or that none is listed, with a link to the quote;
 * - `rtos`: every partner RTO (footer, terms);
 * - `business`: the legal entity and its ABN (privacy policy, terms); empty when not entered;
 * - `price`: the indicative fee of one course (needs code and category), or how the fee is decided.
 */
export function partsFor(kind: PartsKind, settings: PartsInput, course?: { code: string; category: string }): Part[] {
  if (kind === 'price') return course ? [feeSentence(feeFor(settings.prices, settings.partnerRtos, course))] : [];
  if (kind === 'business') {
    const { legalName = '', abn = '' } = settings.business ?? {};
    if (!legalName) return [];
    const formatted = abn.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4');
    return [`This website and service are operated by ${legalName}${abn ? ` (ABN ${formatted})` : ''}.`];
  }
  if (kind === 'course') {
    if (!course) return [];
    const rto = deliveringRto(settings.partnerRtos, course.code, course.category);
    return rto ? ['Assessed and issued by our partner RTO ', rtoLink(rto), '.'] : noRtoParts(course.code);
  }
  const rtos = settings.partnerRtos ?? [];
  if (!rtos.length) return [RTO_NAMED_IN_QUOTE];
  const parts: Part[] = [rtos.length === 1 ? 'Our partner RTO: ' : 'Our partner RTOs: '];
  for (const [index, rto] of rtos.entries()) parts.push(...(index ? ['; '] : []), rtoLink(rto));
  parts.push('. Your written quote names the one that assesses and issues your qualification.');
  return parts;
}

/**
 * Course JSON-LD `provider`: the delivering RTO as an EducationalOrganization with its register page,
 * or nothing when it is not known (this service never appears as the provider).
 */
export function providerJsonLd(
  rtos: readonly PartnerRto[] | undefined,
  code: string,
  category: string,
): { provider?: Record<string, string> } {
  const rto = deliveringRto(rtos, code, category);
  return rto
    ? { provider: { '@type': 'EducationalOrganization', name: rto.legalName, url: registerUrlFor(rto.code) } }
    : {};
}

/** The quote confirmation: the RTO(s) delivering the chosen courses, or the written-quote sentence when any is unknown. */
export function quoteRtoParts(
  rtos: readonly PartnerRto[] | undefined,
  chosen: readonly { code: string; category: string }[],
): Part[] {
  const found = chosen.map((course) => deliveringRto(rtos, course.code, course.category));
  if (!found.length || found.some((rto) => !rto)) return [RTO_NAMED_IN_QUOTE];
  const unique = [...new Map(found.map((rto) => [rto!.code, rto!])).values()];
  const parts: Part[] = [
    unique.length === 1
      ? 'Your qualification is assessed and issued by our partner RTO '
      : 'Your qualifications are assessed and issued by our partner RTOs ',
  ];
  for (const [index, rto] of unique.entries()) parts.push(...(index ? ['; '] : []), rtoLink(rto));
  parts.push('.');
  return parts;
}
