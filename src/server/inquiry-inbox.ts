import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { updateJSON } from './blobs.ts';
import { loadCatalogue } from './catalogue.ts';
import { repositoryCatalogue } from '../catalogue/index.ts';
import { countAfter, pageOfIds, peekSummary, readSummary, searchIds, totals } from './inquiry-index.ts';
import { InboxVisitSchema, MAX_NOTES, type InquiryRecord, type StaffRef } from '../schemas/inquiry-record.ts';
import type { InboxCounts, InboxFilter, InboxPage, NewInquiriesSummary } from '../schemas/inbox.ts';
import { withMarketingState } from './marketing-consent.ts';
import { getInquiry, indexEntriesOfAllRecords, store, updateInquiry } from './inquiries.ts';
import { followUpIds } from './follow-ups.ts';

/**
 * The staff inbox over the inquiries store (./inquiries.ts): one page at a time from the index, the search
 * (names, e-mail, reference, phone, qualification code or title), what is new since a staff member's last
 * visit, and the staff's notes and assignment.
 */

/* ---------- search ---------- */

/** Lower-cased qualification titles by code, so a search for words of a title finds the inquiries naming that code. */
type Titles = readonly (readonly [code: string, title: string])[];

/**
 * The titles of the catalogue as published now (a qualification staff added included), and of the
 * repository's qualifications staff have retired since, so older inquiries naming them are still found.
 */
async function catalogueTitles(): Promise<Titles> {
  const { catalogue } = await loadCatalogue();
  const retired = repositoryCatalogue().courses.filter((course) => !catalogue.courseByCode.has(course.code));
  return [...catalogue.courses, ...retired].map((course) => [course.code.toLowerCase(), course.title.toLowerCase()]);
}

/**
 * Whether an index entry's search text matches every word of the query: in the name, the e-mail address,
 * the reference, the phone number (digits only, so any spacing finds it), a qualification code, or the title
 * of a qualification the inquiry names.
 */
export function searchMatcher(query: string, titles: Titles): ((search: string) => boolean) | null {
  // A phone number is one word whatever its spacing or brackets: "0412 345 678", "(04) 1234-5678", "+61 412 345 678".
  const phone = /^[\d\s()+.-]+$/.test(query) ? query.replace(/\D/g, '') : '';
  const asPhone =
    phone.length >= 6 ? (phone.startsWith('61') && phone.length === 11 ? `0${phone.slice(2)}` : phone) : '';
  const words = asPhone ? [asPhone] : [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
  if (words.length === 0) return null;
  const byTitle = words.map(
    (word) => new Set(titles.filter(([, title]) => title.includes(word)).map(([code]) => code)),
  );
  return (search) => {
    let codes: string[] | undefined;
    return words.every((word, n) => {
      if (search.includes(word)) return true;
      if (byTitle[n].size === 0) return false;
      codes ??= search.slice(search.lastIndexOf('\n') + 1).split(' ');
      return codes.some((code) => byTitle[n].has(code));
    });
  };
}

/* ---------- the staff inbox ---------- */

export interface InboxListQuery {
  status?: InboxFilter;
  offset?: number;
  limit?: number;
  /** Search words (name, e-mail address, qualification code or title); empty for none. */
  q?: string;
}

/**
 * One page of the staff inbox, newest first, from the index: without a search the counts come from its
 * summary and only the page's records are read; a search reads every month entry (not the records). The
 * follow-up filters (due today, overdue) come from the follow-up list, earliest day first.
 * `total` counts the inquiries matching the filter and search. A record on the page that does not parse
 * is left out and named in `unreadable`.
 */
export async function listInquiries({
  status = 'all',
  offset = 0,
  limit = 50,
  q = '',
}: InboxListQuery = {}): Promise<Omit<InboxPage, 'staff'>> {
  const [summary, followUps] = await Promise.all([readSummary(indexEntriesOfAllRecords), followUpIds()]);
  const matches = searchMatcher(q, q.trim() ? await catalogueTitles() : []);
  let ids: string[];
  let counts: InboxCounts = { ...totals(summary), due: followUps.due.length, overdue: followUps.overdue.length };
  const followUpFilter = status === 'due' || status === 'overdue';
  if (matches) {
    const found = await searchIds(summary, followUpFilter ? 'all' : status, matches);
    const matched = new Set(found.ids);
    const due = followUps.due.filter((id) => matched.has(id));
    const overdue = followUps.overdue.filter((id) => matched.has(id));
    counts = { ...found.counts, due: due.length, overdue: overdue.length };
    ids = (status === 'due' ? due : status === 'overdue' ? overdue : found.ids).slice(offset, offset + limit);
  } else if (status === 'due' || status === 'overdue') {
    ids = followUps[status].slice(offset, offset + limit);
  } else {
    ids = offset >= counts[status] ? [] : await pageOfIds(summary, { filter: status, offset, limit });
  }
  const unreadable: string[] = [];
  const items = (await Promise.all(ids.map((id) => getInquiry(id, unreadable)))).filter(
    (r): r is InquiryRecord => r !== null,
  ); // at most 100
  return { items: await withMarketingState(items), total: counts[status], counts, unreadable };
}

/* ---------- visits: what is new for a staff member ---------- */

const visitKey = (username: string) => `visit/${username}`;
/** 2026-11-23T01:02:03.456Z -> 20261123T010203456Z, the time part of an inquiry id. */
const idTime = (iso: string) => iso.replace(/[-:.]/g, '');

/** Notes that this staff member opened the inbox now (a later time is never replaced by an earlier one). */
export async function recordInboxVisit(username: string, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await updateJSON<unknown>(store(), visitKey(username), (current) => {
    const known = v.safeParse(InboxVisitSchema, current);
    return known.success && known.output.at >= at ? undefined : { at };
  });
}

/** When this staff member last opened the inbox, or null if never. */
export async function lastInboxVisit(username: string): Promise<string | null> {
  const parsed = v.safeParse(InboxVisitSchema, await store().get(visitKey(username), { type: 'json' }));
  return parsed.success ? parsed.output.at : null;
}

/**
 * Inquiries received since this staff member last opened the inbox (every one if never), from the index as
 * it stands (read only: opening the inbox completes it).
 */
export async function newSinceLastVisit(username: string): Promise<NewInquiriesSummary> {
  const [summary, lastVisitAt] = await Promise.all([peekSummary(), lastInboxVisit(username)]);
  const count = lastVisitAt ? await countAfter(summary, `${idTime(lastVisitAt)}-~`) : totals(summary).all;
  return { count, lastVisitAt };
}

/* ---------- notes and assignment ---------- */

export class TooManyNotesError extends Error {}

/** Adds a staff note (who and when). A conditional write: notes added at the same moment are all kept. */
export async function addNote(
  id: string,
  text: string,
  author: StaffRef,
  now = new Date(),
): Promise<InquiryRecord | null> {
  return updateInquiry(id, (current) => {
    const notes = current.notes ?? [];
    if (notes.length >= MAX_NOTES) throw new TooManyNotesError(`An inquiry keeps at most ${MAX_NOTES} notes.`);
    return {
      ...current,
      notes: [...notes, { id: randomBytes(6).toString('hex'), text, author, at: now.toISOString() }],
    };
  });
}

/** Assigns the inquiry to a staff member, or with null takes the assignment away; records who and when. */
export async function assignInquiry(
  id: string,
  to: StaffRef | null,
  by: StaffRef,
  now = new Date(),
): Promise<InquiryRecord | null> {
  return updateInquiry(id, (current) =>
    (current.assignment?.to?.username ?? null) === (to?.username ?? null)
      ? null
      : { ...current, assignment: { to, by, at: now.toISOString() } },
  );
}
