import * as v from 'valibot';
import { updateJSON } from './blobs.ts';
import { getInquiry, referenceOf, store, updateInquiry } from './inquiries.ts';
import { sydneyDay } from '../lib/callback.ts';
import type { InquiryRecord, StaffRef } from '../schemas/inquiry-record.ts';

/**
 * Follow-up dates staff set on an inquiry. The record keeps the truth (`followUp`: the day, who, when, and a
 * rev that grows with each change); a small list beside the records (`follow-ups` in the inquiries store:
 * id -> [day or '', rev]) lets the dashboard and the inbox filters find them without reading every record.
 * The list keeps per inquiry the entry with the highest rev, so two staff changing one date at once leave it
 * at the record's last one. Days are calendar days in Sydney, as the rest of the site counts them.
 */

const LIST_KEY = 'follow-ups';
const INQUIRY_ID = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
const FollowUpListSchema = v.object({
  items: v.record(
    v.pipe(v.string(), v.regex(INQUIRY_ID)),
    v.tuple([v.pipe(v.string(), v.regex(/^(\d{4}-\d{2}-\d{2})?$/)), v.number()]),
  ),
});
type FollowUpList = v.InferOutput<typeof FollowUpListSchema>;

async function readList(): Promise<Map<string, string>> {
  const parsed = v.safeParse(FollowUpListSchema, await store().get(LIST_KEY, { type: 'json' }));
  const days = new Map<string, string>();
  if (parsed.success) for (const [id, [day]] of Object.entries(parsed.output.items)) if (day) days.set(id, day);
  return days;
}

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
  const record = await updateInquiry(id, (current) => {
    if ((current.followUp?.date ?? null) === day) return null;
    return { ...current, followUp: { date: day, by, at: now.toISOString(), rev: (current.followUp?.rev ?? 0) + 1 } };
  });
  if (record?.followUp) await recordInList(record.id, record.followUp.date, record.followUp.rev);
  return record;
}

async function recordInList(id: string, day: string | null, rev: number): Promise<void> {
  try {
    await updateJSON<FollowUpList>(store(), LIST_KEY, (current) => {
      const parsed = v.safeParse(FollowUpListSchema, current);
      const items = new Map(Object.entries(parsed.success ? parsed.output.items : {}));
      const known = items.get(id);
      if (known && known[1] >= rev) return undefined;
      items.set(id, [day ?? '', rev]);
      return { items: Object.fromEntries(items) };
    });
  } catch (cause) {
    // The record is stored either way; the next change of this inquiry's follow-up writes the list again.
    console.error(`Follow-ups: could not record inquiry ${id} in the list`, cause);
  }
}

export type FollowUpState = 'due' | 'overdue';

/** The ids with a follow-up due today and overdue (Sydney days): earliest day first, then newest inquiry first. */
export async function followUpIds(now = new Date()): Promise<Record<FollowUpState, string[]>> {
  const today = sydneyDay(now).date;
  const entries = [...(await readList())].sort(
    ([a, dayA], [b, dayB]) => dayA.localeCompare(dayB) || b.localeCompare(a),
  );
  return {
    due: entries.filter(([, day]) => day === today).map(([id]) => id),
    overdue: entries.filter(([, day]) => day < today).map(([id]) => id),
  };
}

export interface FollowUpDue {
  id: string;
  reference: string;
  name: string;
  date: string;
}

/** The dashboard's lists: at most `limit` of each, from the records (the truth), with how many there are. */
export async function followUpsDue(
  now = new Date(),
  limit = 20,
): Promise<Record<FollowUpState, { items: FollowUpDue[]; total: number }>> {
  const ids = await followUpIds(now);
  const today = sydneyDay(now).date;
  const read = async (list: string[], state: FollowUpState) => {
    const records = await Promise.all(list.slice(0, limit).map((id) => getInquiry(id)));
    const items = records
      .filter((record): record is InquiryRecord => {
        const day = record?.followUp?.date;
        return Boolean(day && (state === 'due' ? day === today : day < today));
      })
      .map((record) => ({
        id: record.id,
        reference: referenceOf(record),
        name: `${record.contact.firstName} ${record.contact.lastName}`,
        date: record.followUp!.date!,
      }));
    return { items, total: list.length };
  };
  const [due, overdue] = await Promise.all([read(ids.due, 'due'), read(ids.overdue, 'overdue')]);
  return { due, overdue };
}
