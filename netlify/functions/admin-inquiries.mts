import type { Config, Context } from '@netlify/functions';
import {
  cachePolicies,
  error,
  json,
  methodNotAllowed,
  notFound,
  RefusedInput,
  SECURITY_HEADERS,
} from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { parseJsonBody, parseQuery } from '../../src/server/validation';
import {
  ExportRangeSchema,
  RANGE_EXPORT_LIMIT,
  InboxChangeSchema,
  InboxQuerySchema,
  NoteInputSchema,
  type InboxPage,
} from '../../src/schemas/inbox';
import type { InquiryRecord, StaffRef } from '../../src/schemas/inquiry-record';
import { recordWithdrawal, withMarketingState } from '../../src/server/marketing-consent';
import {
  addNote,
  assignInquiry,
  listInquiries,
  recordInboxVisit,
  TooManyNotesError,
} from '../../src/server/inquiry-inbox';
import {
  countInRange,
  readInquiryStrict,
  isInquiryId,
  setInquiryStatus,
  UnreadableInquiryError,
} from '../../src/server/inquiries';
import { inquiriesCsvStream } from '../../src/server/inquiry-csv';
import { canTakeInquiries, getUser, listStaff, staffName } from '../../src/server/users';
import { ReplyInputSchema } from '../../src/schemas/replies';
import { sendReply } from '../../src/server/inquiry-replies';
import { setFollowUp } from '../../src/server/follow-ups';
import { can } from '../../src/lib/roles';
import { actorOf, diff, recordActivity } from '../../src/server/activity';
import { referenceOf } from '../../src/schemas/inquiry-record';

/** What the activity log compares of an inquiry: its status and who looks after it (never the visitor's details). */
const workState = (record: InquiryRecord | null) => ({
  status: record?.status ?? null,
  assignee: record ? (record.assignment?.to?.name ?? null) : null,
  followUp: record?.followUp?.date ?? null,
});

const NOT_FOUND = 'Inquiry not found.';
const INACTIVE_ASSIGNEE =
  'That staff member cannot take inquiries: their account is deactivated or their invitation is not accepted yet.';
const UNREADABLE = 'This inquiry could not be read, so it was not changed. Ask a developer to check its stored record.';

/**
 * Staff inbox of contact, consultation and quote submissions (admins only).
 * GET   /api/admin/inquiries?status=all|new|handled|due|overdue&q&offset&limit -> {items, total, counts, unreadable, staff}
 * GET   /api/admin/inquiries/export.csv?from&to -> the inquiries received from `from` to `to` (YYYY-MM-DD, UTC, both
 *       included; the last 90 days by default) as CSV, streamed; every inquiry: /api/admin/inquiry-exports
 * PATCH /api/admin/inquiries/{id} {status?, assignee?, marketing?, followUp?} -> the updated inquiry (marketing:
 *       'withdrawn' adds the address to the suppression list; followUp: a YYYY-MM-DD day, or null to clear it)
 * POST  /api/admin/inquiries/{id}/notes {text}                      -> the updated inquiry (201)
 * POST  /api/admin/inquiries/{id}/replies {subject, body}           -> the inquiry with the reply, sent (201)
 * Opening the list records the staff member's visit (the dashboard counts what arrived since).
 */
export default async (request: Request, context: Context) => {
  const auth = await authorize(request, 'inquiries');
  if (!auth.ok) return auth.response;
  const url = new URL(request.url);
  const { id } = context.params ?? {};
  const me: StaffRef = { username: auth.user.username, name: staffName(auth.user) };

  if (url.pathname.endsWith('/export.csv')) {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    const range = parseQuery(ExportRangeSchema, url);
    if (!range.ok) return range.response;
    const { from, to } = range.data;
    const count = await countInRange(range.data);
    if (count > RANGE_EXPORT_LIMIT)
      return error(
        400,
        `These dates hold ${count.toLocaleString('en-AU')} inquiries, more than the ${RANGE_EXPORT_LIMIT.toLocaleString('en-AU')} one export can take. Choose fewer days, or use "Export every inquiry".`,
      );
    return new Response(inquiriesCsvStream(range.data), {
      headers: {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="inquiries-${from}-to-${to}.csv"`,
        ...cachePolicies.noStore,
      },
    });
  }

  if (id !== undefined && /\/inquiries\/[^/]+\/notes\/?$/.test(url.pathname)) {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    if (!isInquiryId(id)) return notFound(NOT_FOUND);
    const body = await parseJsonBody(NoteInputSchema, request, 8 * 1024);
    if (!body.ok) return body.response;
    return changed(async () => {
      const record = await addNote(id, body.data.text, me);
      if (record)
        await recordActivity({
          actor: actorOf(auth.user),
          kind: 'inquiry',
          action: 'note added',
          target: { id, label: referenceOf(record) },
          changes: [{ field: 'note', from: null, to: null, masked: true }],
        });
      return record;
    }, 201);
  }

  if (id !== undefined && /\/inquiries\/[^/]+\/replies\/?$/.test(url.pathname)) {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    if (!isInquiryId(id)) return notFound(NOT_FOUND);
    const body = await parseJsonBody(ReplyInputSchema, request, 32 * 1024);
    if (!body.ok) return body.response;
    return changed(async () => {
      const record = await sendReply(id, body.data, me);
      // The reply's words name the visitor: the log keeps that one was sent, by whom and when, not its text.
      if (record)
        await recordActivity({
          actor: actorOf(auth.user),
          kind: 'inquiry',
          action: 'reply sent',
          target: { id, label: referenceOf(record) },
          changes: [{ field: 'reply', from: null, to: null, masked: true }],
        });
      return record;
    }, 201);
  }

  if (id !== undefined) {
    if (request.method !== 'PATCH') return methodNotAllowed(['PATCH']);
    if (!isInquiryId(id)) return notFound(NOT_FOUND);
    const body = await parseJsonBody(InboxChangeSchema, request, 1024);
    if (!body.ok) return body.response;
    const { status, assignee, marketing, followUp } = body.data;
    let to: StaffRef | null = null;
    if (assignee) {
      const user = await getUser(assignee);
      if (!user)
        return error(400, 'There is no staff member with that username.', [
          { field: 'assignee', message: 'There is no staff member with that username.' },
        ]);
      // Only someone who can open the inbox can take an inquiry on.
      if (!can(user.role, 'inquiries'))
        return error(400, 'That staff member cannot open the inbox.', [
          { field: 'assignee', message: 'That staff member cannot open the inbox.' },
        ]);
      if (!canTakeInquiries(user))
        return error(400, INACTIVE_ASSIGNEE, [{ field: 'assignee', message: INACTIVE_ASSIGNEE }]);
      to = { username: user.username, name: staffName(user) };
    }
    return changed(async () => {
      const before =
        status !== undefined || assignee !== undefined || followUp !== undefined ? await readInquiryStrict(id) : null;
      let record: InquiryRecord | null = null;
      if (assignee !== undefined) record = await assignInquiry(id, to, me);
      if (status !== undefined && (assignee === undefined || record)) record = await setInquiryStatus(id, status);
      const first = assignee === undefined && status === undefined;
      if (followUp !== undefined && (record || first)) record = await setFollowUp(id, followUp, me);
      if (marketing === 'withdrawn' && (record || (first && followUp === undefined))) {
        record ??= await readInquiryStrict(id);
        if (record) await recordWithdrawal(record.contact.email, { via: 'staff', by: me });
      }
      const changes = before && record ? diff(workState(before), workState(record)) : [];
      if (record && changes.length)
        await recordActivity({
          actor: actorOf(auth.user),
          kind: 'inquiry',
          action: changes.some((c) => c.field === 'assignee')
            ? 'assignment changed'
            : changes.some((c) => c.field === 'status')
              ? 'status changed'
              : 'follow-up set',
          target: { id, label: referenceOf(record) },
          changes,
        });
      return record;
    });
  }

  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  // The visit counts from before the list is read, so nothing arriving meanwhile is taken as seen.
  const openedAt = new Date();
  const query = parseQuery(InboxQuerySchema, url);
  if (!query.ok) return query.response;
  const { status, offset, limit, q } = query.data;
  const [page, staff] = await Promise.all([listInquiries({ status, offset, limit, q }), listStaff()]);
  if (offset > page.total) return error(400, 'offset is past the end of the list');
  await recordInboxVisit(auth.user.username, openedAt);
  return json({ ...page, staff } satisfies InboxPage);
};

/** Runs a change of one inquiry and answers it: the record, 404 when there is none, 409 when it cannot be read or take more notes. */
async function changed(change: () => Promise<InquiryRecord | null>, status = 200): Promise<Response> {
  try {
    const record = await change();
    // As the inbox shows it: with the marketing withdrawal of its address, if any.
    return record ? json((await withMarketingState([record]))[0], { status }) : notFound(NOT_FOUND);
  } catch (cause) {
    if (cause instanceof UnreadableInquiryError) {
      console.error(cause.message);
      return error(409, UNREADABLE);
    }
    if (cause instanceof TooManyNotesError) return error(409, cause.message);
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
}

export const config: Config = {
  path: [
    '/api/admin/inquiries',
    '/api/admin/inquiries/export.csv',
    '/api/admin/inquiries/:id',
    '/api/admin/inquiries/:id/notes',
    '/api/admin/inquiries/:id/replies',
  ],
};
