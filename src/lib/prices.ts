/**
 * Indicative fees as staff set them in the settings (src/schemas/site-settings.ts PriceSchema): which one
 * applies to a qualification, and the sentence that states it on course pages, the quote result and the
 * acknowledgement e-mail. A qualification without a fee gets the sentence that says how the fee is decided;
 * nothing here ever makes up a figure.
 */
import type { PartnerRto, Price } from '../schemas/site-settings.ts';

/** Said wherever no fee is set for a qualification. */
export const FEE_HOW_DECIDED =
  'The fee depends on the qualification and on how much of it your evidence already covers. The partner RTO that assesses you sets it, and your written quote states it, with who charges it, before you decide to go ahead.';

export interface FeeFacts {
  price: Price;
  /** The partner RTO that charges it, when it is still among the saved partner RTOs. */
  rto?: Pick<PartnerRto, 'legalName' | 'code'>;
}

/** The fee for one qualification: its own, else its category's; undefined when staff set none. */
export function feeFor(
  prices: readonly Price[] | undefined,
  rtos: readonly PartnerRto[] | undefined,
  course: { code: string; category: string },
): FeeFacts | undefined {
  const price =
    prices?.find((p) => p.scope === 'course' && p.target === course.code) ??
    prices?.find((p) => p.scope === 'category' && p.target === course.category);
  if (!price) return undefined;
  const rto = rtos?.find((r) => r.code === price.rtoCode);
  return { price, ...(rto ? { rto: { legalName: rto.legalName, code: rto.code } } : {}) };
}

/** 1500 -> "$1,500"; 1499.5 -> "$1,499.50". */
export function formatAud(amount: string): string {
  const value = Number(amount);
  const cents = !Number.isInteger(value);
  return `$${value.toLocaleString('en-AU', { minimumFractionDigits: cents ? 2 : 0, maximumFractionDigits: 2 })}`;
}

const LONG_DATE = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * "Indicative fee: from $1,500 (including GST), charged by Example Training Pty Ltd (RTO 12345). Payment plan:
 * … Fee set on 26 November 2026." — or the how-it-is-decided sentence when no fee is set.
 */
export function feeSentence(fee: FeeFacts | undefined): string {
  if (!fee) return FEE_HOW_DECIDED;
  const { price, rto } = fee;
  const amount =
    price.to && price.to !== price.from
      ? `${formatAud(price.from)} to ${formatAud(price.to)}`
      : `from ${formatAud(price.from)}`;
  const by = rto ? `, charged by ${rto.legalName} (RTO ${rto.code})` : '';
  const plan = price.plan ? ` Payment plan: ${price.plan.replace(/[.\s]+$/, '')}.` : '';
  const date = LONG_DATE.format(new Date(`${price.setOn}T00:00:00Z`));
  return `Indicative fee: ${amount} (including GST)${by}.${plan} Fee set on ${date}; the written quote confirms it.`;
}
