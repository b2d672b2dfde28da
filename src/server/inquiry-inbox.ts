import { randomBytes } from 'node:crypto';
import { db, isoOf, join, sql, type Sql } from '../platform/database.ts';
import { loadCatalogue } from './catalogue.ts';
import { repositoryCatalogue } from '../catalogue/index.ts';
import { MAX_NOTES, type InquiryRecord, type StaffRef } from '../schemas/inquiry-record.ts';
import {
  SEARCH_COUNT_CAP,
  type InboxCounts,
  type InboxFilter,
  type InboxPage,
  type NewInquiriesSummary,
} from '../schemas/inbox.ts';
import { withMarketingState } from './marketing-consent.ts';
import { pageOfInquiries, statusCounts, updateInquiry } from './inquiries.ts';
import { sydneyDay } from '../lib/callback.ts';

/**
 * The staff inbox over the inquiries (./inquiries.ts): one page at a time, the search (names, e-mail, reference,
 * phone, experience, qualification code or title), what is new since a staff member's last visit (`inbox_visits`),
 * and the staff's notes and assignment.
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
  return [...catalogue.courses, ...retired].map((course) => [course.code, course.title.toLowerCase()]);
}

/** The words of a search: a phone number is one word whatever its spacing ("0412 345 678", "+61 412 345 678"). */
export function searchWords(query: string): string[] {
  const phone = /^[\d\s()+.-]+$/.test(query) ? query.replace(/\D/g, '') : '';
  if (phone.length >= 6) return [phone.startsWith('61') && phone.length === 11 ? `0${phone.slice(2)}` : phone];
  return [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
}

/** A word as a LIKE pattern that matches it anywhere, its own %, _ and backslash taken literally. */
const anywhere = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The condition a search puts on the inquiries: every word in the name, e-mail, reference, phone digits, the
 * experience text or a chosen qualification's code (the trigram index finds these), or naming a qualification
 * whose title has the word. Null for an empty search.
 */
function searchCondition(query: string, titles: Titles): Sql | null {
  const words = searchWords(query);
  if (!words.length) return null;
  return join(
    words.map((word) => {
      const codes = titles.filter(([, title]) => title.includes(word)).map(([code]) => code);
      const text = sql`search_text LIKE ${anywhere(word)}`;
      return codes.length ? sql`(${text} OR course_codes && ${codes})` : text;
    }),
    ' AND ',
  );
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
 * One page of the staff inbox, newest first; the follow-up filters (due today, overdue) earliest day first.
 * `total` counts the inquiries matching the filter and search; the counts of every filter come with it (without
 * a search the status counts are the schema's running totals, so a page costs the same at any size; a search
 * counts its matches up to SEARCH_COUNT_CAP and, past it, names in `capped` the filters whose counts are "at least"). A record on the
 * page that does not parse is left out and named in `unreadable`.
 */
export async function listInquiries({
  status = 'all',
  offset = 0,
  limit = 50,
  q = '',
}: InboxListQuery = {}): Promise<Omit<InboxPage, 'staff'>> {
  const today = sydneyDay(new Date()).date;
  const search = searchCondition(q, q.trim() ? await catalogueTitles() : []);
  const matching = search ?? sql`TRUE`;
  const filters: Record<InboxFilter, Sql> = {
    all: sql`TRUE`,
    new: sql`status = 'new'`,
    handled: sql`status = 'handled'`,
    due: sql`follow_up_date = ${today}`,
    overdue: sql`follow_up_date < ${today}`,
  };
  // Without a search the status counts are the schema's running totals. With one, the matches are counted in one
  // pass that stops after SEARCH_COUNT_CAP of them: past it every status count is "at least" (named in `capped`).
  // Follow-ups are few, and counted exactly.
  const [statuses, followUps] = await Promise.all([
    search
      ? db()
          .query<{ all: number; new: number }>(sql`
            SELECT count(*)::int AS all, count(*) FILTER (WHERE status = 'new')::int AS new
            FROM (SELECT status FROM inquiries WHERE ${matching} LIMIT ${SEARCH_COUNT_CAP + 1}) AS found`)
          .then(([row]) => ({ all: row.all, new: row.new, handled: row.all - row.new }))
      : statusCounts(),
    db().query<{ due: number; overdue: number }>(sql`
      SELECT count(*) FILTER (WHERE follow_up_date = ${today})::int AS due,
             count(*) FILTER (WHERE follow_up_date < ${today})::int AS overdue
      FROM inquiries WHERE follow_up_date IS NOT NULL AND follow_up_date <= ${today} AND ${matching}`),
  ]);
  const capped: InboxFilter[] = search && statuses.all > SEARCH_COUNT_CAP ? ['all', 'new', 'handled'] : [];
  const counts: InboxCounts = {
    all: Math.min(statuses.all, SEARCH_COUNT_CAP),
    new: Math.min(statuses.new, SEARCH_COUNT_CAP),
    handled: Math.min(statuses.handled, SEARCH_COUNT_CAP),
    due: followUps[0].due,
    overdue: followUps[0].overdue,
  };
  const order = status === 'due' || status === 'overdue' ? sql`follow_up_date, id DESC` : sql`id DESC`;
  const unreadable: string[] = [];
  const items =
    offset >= counts[status]
      ? []
      : await pageOfInquiries(sql`${filters[status]} AND ${matching}`, order, { limit, offset }, unreadable);
  return { items: await withMarketingState(items), total: counts[status], counts, capped, unreadable };
}

/* ---------- visits: what is new for a staff member ---------- */

/** Notes that this staff member opened the inbox now (a later time is never replaced by an earlier one). */
export async function recordInboxVisit(username: string, now = new Date()): Promise<void> {
  await db().query(sql`
    INSERT INTO inbox_visits (username, at) VALUES (${username}, ${now.toISOString()})
    ON CONFLICT (username) DO UPDATE SET at = GREATEST(inbox_visits.at, EXCLUDED.at)`);
}

/** When this staff member last opened the inbox, or null if never. */
export async function lastInboxVisit(username: string): Promise<string | null> {
  const [row] = await db().query<{ at: unknown }>(sql`SELECT at FROM inbox_visits WHERE username = ${username}`);
  return row ? isoOf(row.at) : null;
}

/** Inquiries received since this staff member last opened the inbox (every one if never). */
export async function newSinceLastVisit(username: string): Promise<NewInquiriesSummary> {
  const lastVisitAt = await lastInboxVisit(username);
  if (!lastVisitAt) return { count: (await statusCounts()).all, lastVisitAt };
  const [row] = await db().query<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM inquiries WHERE created_at > ${lastVisitAt}`,
  );
  return { count: row.n, lastVisitAt };
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
