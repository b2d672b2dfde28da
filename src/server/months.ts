/** Calendar months as the business counts them: in Sydney time, keyed "YYYY-MM". */
const TIME_ZONE = 'Australia/Sydney';

export function monthKey(at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(at);
  const year = parts.find((p) => p.type === 'year')!.value;
  const month = parts.find((p) => p.type === 'month')!.value;
  return `${year}-${month}`;
}

export function previousMonthKey(key: string): string {
  const [year, month] = key.split('-').map(Number);
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/**
 * Percentage change from `before` to `now`, one decimal. From nothing to something counts as +100%,
 * nothing to nothing as 0%.
 */
export function growth(now: number, before: number): number {
  if (before === 0) return now > 0 ? 100 : 0;
  return Math.round(((now - before) / before) * 1000) / 10;
}
