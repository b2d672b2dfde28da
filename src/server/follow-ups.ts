import { db, sql } from '../platform/database.ts';
import { readInquiries, referenceOf, updateInquiry } from './inquiries.ts';
import { sydneyDay } from '../lib/callback.ts';
import type { InquiryRecord, StaffRef } from '../schemas/inquiry-record.ts';

/**
 * Follow-up dates staff set on an inquiry: the day (`follow_up_date`, a calendar day in Sydney, as the rest of the
 * site counts them), who set it and when, and a rev that grows with each change. The inbox filters and the
 * dashboard find them through the partial index on the day.
 */

/**
 * Sets (a YYYY-MM-DD day) or clears (null) the inquiry's follow-up; null when there is no such inquiry.
 * Setting the day it already has changes nothing.
 */
export async function setFollowUp(
  id: string,
  day: string | null,
  by: StaffRef,
  now = new Date(),
): Promise<InquiryRecord | null> {
  return updateInquiry(id, (current) => {
    if ((current.followUp?.date ?? null) === day) return null;
    return { ...current, followUp: { date: day, by, at: now.toISOString(), rev: (current.followUp?.rev ?? 0) + 1 } };
  });
}

export type FollowUpState = 'due' | 'overdue';

export interface FollowUpDue {
  id: string;
  reference: string;
  name: string;
  date: string;
}

/** The dashboard's lists: at most `limit` of each (earliest day first, then newest), with how many there are. */
export async function followUpsDue(
  now = new Date(),
  limit = 20,
): Promise<Record<FollowUpState, { items: FollowUpDue[]; total: number }>> {
  const today = sydneyDay(now).date;
  const read = async (state: FollowUpState) => {
    const condition = state === 'due' ? sql`follow_up_date = ${today}` : sql`follow_up_date < ${today}`;
    const [ids, [{ n }]] = await Promise.all([
      db().query<{ id: string }>(
        sql`SELECT id FROM inquiries WHERE ${condition} ORDER BY follow_up_date, id DESC LIMIT ${limit}`,
      ),
      db().query<{ n: number }>(sql`SELECT count(*)::int AS n FROM inquiries WHERE ${condition}`),
    ]);
    const records = await readInquiries(ids.map((row) => row.id));
    const items = records.map((record) => ({
      id: record.id,
      reference: referenceOf(record),
      name: `${record.contact.firstName} ${record.contact.lastName}`,
      date: record.followUp!.date!,
    }));
    return { items, total: n };
  };
  const [due, overdue] = await Promise.all([read('due'), read('overdue')]);
  return { due, overdue };
}
