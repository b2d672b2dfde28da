/**
 * Call-back requests from the quote's result screen (and the applicant page): only a day and window the
 * business hours offer are taken; the request is kept on the inquiry (`callback_day`, found through its index),
 * which the dashboard reads as "Call-backs today".
 */
import { db, sql } from '../platform/database.ts';
import { readInquiries, referenceOf, updateInquiry } from './inquiries.ts';
import { RefusedInput } from './http.ts';
import { readSettings } from './settings.ts';
import { callbackDays, sydneyDay } from '../lib/callback.ts';
import type { StoredCallback } from '../schemas/inquiry-record.ts';

export const CALLBACK_NOT_OFFERED = 'Choose one of the days and times offered.';

/** Records a call-back on the inquiry; refuses a day or window the business hours do not offer. */
export async function requestCallback(
  inquiryId: string,
  input: { day: string; window: string },
  now = new Date(),
): Promise<StoredCallback> {
  const { businessHours } = (await readSettings()).contactInfo;
  const day = callbackDays(businessHours, now).find((offered) => offered.date === input.day);
  if (!day) throw new RefusedInput(400, CALLBACK_NOT_OFFERED, 'day');
  if (!day.windows.includes(input.window)) throw new RefusedInput(400, CALLBACK_NOT_OFFERED, 'window');
  const callback: StoredCallback = { day: input.day, window: input.window, requestedAt: now.toISOString() };
  const updated = await updateInquiry(inquiryId, (current) => ({ ...current, callback }));
  if (!updated) throw new RefusedInput(404, 'There is no such inquiry.');
  return callback;
}

export interface CallbackDue {
  id: string;
  reference: string;
  name: string;
  phone: string;
  window: string;
}

/** The call-backs asked for on one Sydney day (today by default), earliest window first. */
export async function callbacksDue(now = new Date(), day = sydneyDay(now).date): Promise<CallbackDue[]> {
  const rows = await db().query<{ id: string }>(sql`SELECT id FROM inquiries WHERE callback_day = ${day}`);
  const records = await readInquiries(rows.map((row) => row.id));
  return records
    .filter((record) => record.callback?.day === day)
    .map((record) => ({
      id: record.id,
      reference: referenceOf(record),
      name: `${record.contact.firstName} ${record.contact.lastName}`,
      phone: record.contact.phone,
      window: record.callback!.window,
    }))
    .sort((a, b) => startOf(a.window) - startOf(b.window));
}

/** Minutes after midnight of a window's start ("1:00 pm – 3:00 pm" -> 780). */
function startOf(window: string): number {
  const match = /^(\d{1,2}):(\d{2}) (am|pm)/.exec(window);
  if (!match) return 0;
  const hour = (Number(match[1]) % 12) + (match[3] === 'pm' ? 12 : 0);
  return hour * 60 + Number(match[2]);
}
