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

/** The filters the inbox index counts by status. */
export type StatusFilter = 'all' | 'new' | 'handled';
/** due: a follow-up set for today (Sydney); overdue: one set for an earlier day. */
export type InboxFilter = StatusFilter | 'due' | 'overdue';
export type StatusCounts = Record<StatusFilter, number>;
export type InboxCounts = Record<InboxFilter, number>;

/** One page of the inbox as GET /api/admin/inquiries answers it. */
export interface InboxPage {
  items: InquiryRecord[];
  /** How many match the filter and search. */
  total: number;
  /** Per status and follow-up state, among those matching the search (all inquiries without one). */
  counts: InboxCounts;
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
