import * as v from 'valibot';
import { UsernameSchema } from './auth';
import { NOTE_MAX_LENGTH, type InquiryRecord, type StaffRef } from './inquiry-record';
import { limitParam } from './query';
import { FollowUpDaySchema } from './replies';

export const SEARCH_MAX_LENGTH = 100;

/** Staff inbox queries and changes (GET/PATCH /api/admin/inquiries, POST …/{id}/notes). */
export const InboxQuerySchema = v.object({
  status: v.optional(
    v.picklist(['all', 'new', 'handled', 'due', 'overdue'], 'status must be all, new, handled, due or overdue'),
    'all',
  ),
  offset: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'offset must be a whole number'), v.transform(Number)),
    '0',
  ),
  limit: limitParam(100, 25),
  /** Words to find in the name, e-mail address or qualification (code or title); every word must match. */
  q: v.optional(
    v.pipe(
      v.string(),
      v.check((value) => !/[\u0000-\u001f\u007f]/.test(value), 'The search cannot contain control characters'),
      v.trim(),
      v.maxLength(SEARCH_MAX_LENGTH, `The search must be at most ${SEARCH_MAX_LENGTH} characters`),
    ),
    '',
  ),
});

/**
 * PATCH: the status, the assignee (a username, or null to take the assignment away),
 * `marketing: 'withdrawn'` (the person withdrew their marketing consent, e.g. on the phone), and/or the
 * follow-up date (YYYY-MM-DD, or null to clear it).
 */
export const InboxChangeSchema = v.pipe(
  v.object({
    status: v.optional(v.picklist(['new', 'handled'], 'status must be new or handled')),
    assignee: v.optional(v.nullable(v.pipe(v.string('assignee must be a username or null'), UsernameSchema))),
    marketing: v.optional(v.literal('withdrawn', 'marketing can only be "withdrawn"')),
    followUp: v.optional(v.nullable(FollowUpDaySchema)),
  }),
  v.check(
    (change) =>
      change.status !== undefined ||
      change.assignee !== undefined ||
      change.marketing !== undefined ||
      change.followUp !== undefined,
    'Send a status, an assignee, a marketing withdrawal or a follow-up date',
  ),
);

export const NoteInputSchema = v.object({
  text: v.pipe(
    v.string('Write the note first'),
    v.trim(),
    v.nonEmpty('Write the note first'),
    v.maxLength(NOTE_MAX_LENGTH, `A note is at most ${NOTE_MAX_LENGTH} characters`),
  ),
});

/** The inbox filters by status. */
export type StatusFilter = 'all' | 'new' | 'handled';
/** due: a follow-up set for today (Sydney); overdue: one set for an earlier day. */
export type InboxFilter = StatusFilter | 'due' | 'overdue';
export type InboxCounts = Record<InboxFilter, number>;

/**
 * A search counts its matches up to this many: a word in a tenth of a million inquiries would otherwise cost a read
 * of every one of them, for a number nobody pages through. Past it the counts are "at least" (`capped`).
 */
export const SEARCH_COUNT_CAP = 5_000;

/** One page of the inbox as GET /api/admin/inquiries answers it. */
export interface InboxPage {
  items: InquiryRecord[];
  /** How many match the filter and search (at most SEARCH_COUNT_CAP for a search: see `capped`). */
  total: number;
  /** Per status and follow-up state, among those matching the search (all inquiries without one). */
  counts: InboxCounts;
  /** The filters whose search count is only "at least" (the count stopped at SEARCH_COUNT_CAP matches). */
  capped: InboxFilter[];
  /** Ids on this page whose stored record could not be read (left out of `items`). */
  unreadable: string[];
  /** The staff an inquiry can be assigned to. */
  staff: StaffRef[];
}

/** The dashboard's New inquiries card. */
export interface NewInquiriesSummary {
  /** Inquiries received since this staff member last opened the inbox (all of them if never). */
  count: number;
  /** When they last opened it; null if never. */
  lastVisitAt: string | null;
}

/* ---------- CSV exports ---------- */

/** How many days the inbox's date-range export covers when no dates are given: today and the 89 days before. */
export const EXPORT_DEFAULT_DAYS = 90;
const DAY_RULE = 'Dates must be real days written YYYY-MM-DD';
const Day = v.pipe(
  v.string(DAY_RULE),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, DAY_RULE),
  v.check((day) => {
    const time = Date.parse(`${day}T00:00:00Z`);
    return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === day;
  }, DAY_RULE),
);
/** `day` moved by `days` (UTC). */
export const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * GET /api/admin/inquiries/export.csv?from&to: the days the inquiries were received on (UTC, both included).
 * Without `to`, today; without `from`, the 90 days ending on `to`.
 */
export const ExportRangeSchema = v.pipe(
  v.object({ from: v.optional(Day), to: v.optional(Day) }),
  v.transform(({ from, to }) => {
    const end = to ?? new Date().toISOString().slice(0, 10);
    return { from: from ?? shiftDay(end, 1 - EXPORT_DEFAULT_DAYS), to: end };
  }),
  v.check(({ from, to }) => from <= to, 'The start date must be on or before the end date'),
);

/**
 * The most inquiries one date-range export streams: about 30 s of reading records locally, well inside a
 * function's 60 s. More is the background export's work.
 */
export const RANGE_EXPORT_LIMIT = 25_000;

/** The id of a background export (GET /api/admin/inquiry-exports/{id}). */
export const ExportIdSchema = v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, 'There is no such export.'));

/** GET /api/admin/inquiry-exports/{id}/file?part=N: which file of the export (from 1; the first by default). */
export const ExportFileQuerySchema = v.object({
  part: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,3}$/, 'part must be a whole number from 1'), v.transform(Number)),
    '1',
  ),
});
