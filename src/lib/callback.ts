/**
 * Call-back requests: the days and time windows a visitor may choose, read from the business hours staff keep
 * in the settings ("Mon - Sat: 8:00 am - 7:00 pm"). The same rules run in the result screen (to offer the
 * choices) and on the server (to accept only those). Days are calendar days in Sydney time.
 */

export interface OpeningHours {
  /** 0 = Sunday … 6 = Saturday. */
  days: number[];
  /** Minutes after midnight. */
  open: number;
  close: number;
}

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY = /\b(sun|mon|tue|wed|thu|fri|sat)[a-z]*\.?/gi;
const TIME = /(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?/gi;

/** Used when the saved hours cannot be read: weekdays, 9 am to 5 pm. */
export const FALLBACK_HOURS: OpeningHours[] = [{ days: [1, 2, 3, 4, 5], open: 9 * 60, close: 17 * 60 }];

function minutes(hour: string, minute: string | undefined, half: string | undefined): number | null {
  let h = Number(hour);
  const m = Number(minute ?? 0);
  if (h > 23 || m > 59) return null;
  const suffix = half?.toLowerCase().replaceAll('.', '');
  if (suffix === 'pm' && h < 12) h += 12;
  if (suffix === 'am' && h === 12) h = 0;
  return h * 60 + m;
}

/** Opening hours from text such as "Mon - Sat: 8:00 am - 7:00 pm" or "Mon-Fri 9am-5pm, Sat 9am-12pm"; null if unreadable. */
export function parseBusinessHours(text: string): OpeningHours[] | null {
  const out: OpeningHours[] = [];
  for (const segment of text.split(/[;,\n]|\band\b/i)) {
    const dayTokens = [...segment.matchAll(DAY)].map((m) => DAY_NAMES.indexOf(m[1]!.toLowerCase()));
    if (!dayTokens.length) continue;
    const isRange =
      dayTokens.length === 2 &&
      /(sun|mon|tue|wed|thu|fri|sat)[a-z]*\.?\s*(-|–|to)\s*(sun|mon|tue|wed|thu|fri|sat)/i.test(segment);
    const days: number[] = [];
    if (isRange)
      for (let d = dayTokens[0]!; ; d = (d + 1) % 7) {
        days.push(d);
        if (d === dayTokens[1] || days.length > 7) break;
      }
    else days.push(...dayTokens);
    const times = [...segment.replace(DAY, ' ').matchAll(TIME)]
      .map((m) => minutes(m[1]!, m[2], m[3]))
      .filter((t): t is number => t !== null);
    if (times.length < 2) continue;
    const [open, close] = times as [number, number];
    if (close <= open) continue;
    out.push({ days: [...new Set(days)], open, close });
  }
  return out.length ? out : null;
}

const clock = (total: number) => {
  const h = Math.floor(total / 60);
  const m = total % 60;
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'am' : 'pm'}`;
};

/** Two-hour windows from opening to closing time ("8:00 am – 10:00 am"), the last one shorter if need be. */
export function callbackWindows(hours: OpeningHours): string[] {
  const windows: string[] = [];
  for (let start = hours.open; start < hours.close; start += 120)
    windows.push(`${clock(start)} – ${clock(Math.min(start + 120, hours.close))}`);
  return windows;
}

/** The calendar date (YYYY-MM-DD) and weekday in Sydney at `now`, plus `offset` calendar days. */
export function sydneyDay(now: Date, offset = 0): { date: string; weekday: number } {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Australia/Sydney',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  const day = new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000);
  return { date: day.toISOString().slice(0, 10), weekday: day.getUTCDay() };
}

export interface CallbackDay {
  date: string;
  /** "Mon, 30 Nov" */
  label: string;
  windows: string[];
}

/** Minutes after midnight in Sydney at `now`. */
function sydneyMinutes(now: Date): number {
  const [h, m] = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Australia/Sydney',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(now)
    .split(':')
    .map(Number) as [number, number];
  return h * 60 + m;
}

/**
 * The days of the coming week on which the business is open, each with its windows: today only with the
 * windows that start at least half an hour from now.
 */
export function callbackDays(businessHours: string, now = new Date(), count = 7): CallbackDay[] {
  const hours = parseBusinessHours(businessHours) ?? FALLBACK_HOURS;
  const soonest = sydneyMinutes(now) + 30;
  const days: CallbackDay[] = [];
  for (let offset = 0; offset < count; offset++) {
    const { date, weekday } = sydneyDay(now, offset);
    const windows = hours
      .filter((h) => h.days.includes(weekday))
      .flatMap((h) => callbackWindows(h).filter((_, index) => offset > 0 || h.open + index * 120 >= soonest));
    if (!windows.length) continue;
    const label = new Intl.DateTimeFormat('en-AU', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date(`${date}T00:00:00Z`));
    days.push({ date, label, windows });
  }
  return days;
}
