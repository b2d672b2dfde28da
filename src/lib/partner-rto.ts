import type { PartnerRto, Price } from '../schemas/site-settings.ts';
import { feeFor, feeSentence } from './prices.ts';

/** Shown wherever the delivering RTO is not known yet (no partner RTO entered, or none for this course). */
export const RTO_IN_QUOTE =
  'The partner RTO that assesses and issues your qualification is named in your written quote.';

/**
 * The partner RTO that delivers a course: one that lists the course code, else one that lists its
 * category, else one that lists neither (it delivers every qualification). Undefined when none does.
 */
export function deliveringRto(
  rtos: readonly PartnerRto[] | undefined,
  code: string,
  category: string,
): PartnerRto | undefined {
  if (!rtos?.length) return undefined;
  return (
    rtos.find((rto) => rto.courses.includes(code)) ??
    rtos.find((rto) => rto.categories.includes(category)) ??
    rtos.find((rto) => rto.courses.length === 0 && rto.categories.length === 0)
  );
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

const rtoLink = (rto: PartnerRto): Part => ({
  text: rtoLabel(rto),
  href: rto.registerUrl || `https://training.gov.au/Organisation/Details/${rto.code}`,
});

/**
 * The sentence naming the partner RTO(s) or the business behind the site:
 * - `course`: the RTO delivering one course (needs code and category);
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
    const rto = course ? deliveringRto(settings.partnerRtos, course.code, course.category) : undefined;
    return rto ? ['Assessed and issued by our partner RTO ', rtoLink(rto), '.'] : [RTO_IN_QUOTE];
  }
  const rtos = settings.partnerRtos ?? [];
  if (!rtos.length) return [RTO_IN_QUOTE];
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
  return rto ? { provider: { '@type': 'EducationalOrganization', name: rto.legalName, url: rto.registerUrl } } : {};
}

/** The quote confirmation: the RTO(s) delivering the chosen courses, or the written-quote sentence when any is unknown. */
export function quoteRtoParts(
  rtos: readonly PartnerRto[] | undefined,
  chosen: readonly { code: string; category: string }[],
): Part[] {
  const found = chosen.map((course) => deliveringRto(rtos, course.code, course.category));
  if (!found.length || found.some((rto) => !rto)) return [RTO_IN_QUOTE];
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
