import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { fileStore } from '../platform/blobs.ts';
import { db, iso, isoOf, sql, type Queryable } from '../platform/database';
import type { InquiryRecord } from './inquiries';
import { resultOfQuote } from './quote-result';
import { loadCatalogue } from './catalogue';
import {
  ApplicantRecordSchema,
  type ApplicantRecord,
  type ApplicantView,
  type ChecklistItem,
} from '../schemas/applicant';

/**
 * Applicant records: the tables of an applicant (netlify/database/migrations/*_applicants.sql) read back as one
 * record, the statements several modules share (create the applicant row, note an event), the `evidence`
 * store's part keys, and the checklist an inquiry's applicant page shows (see ./applicants.ts for the whole).
 */

/** The private Blobs store that keeps the evidence files' bytes, in parts: `chunk/{id}/{n}`. */
export const evidence = () => fileStore('evidence');
export const chunkKey = (id: string, n: number) => `chunk/${id}/${n}`;
export const DAY_MS = 24 * 60 * 60_000;
/** Link tokens kept per applicant (the oldest go first). */
export const MAX_TOKENS = 10;
/** Events answered with a record (the newest); the table keeps them all. */
const MAX_EVENTS = 500;

export const INVALID_LINK =
  'This link is not valid any more. Ask for a new one below with your e-mail address and reference.';
export const UNKNOWN_FILE = 'There is no such file.';
/** The answer to every request for a new link, matching or not. */
export const LINK_RENEWAL_ANSWER =
  'If the e-mail address and reference match an application, we have sent a new link to that address. It can take a few minutes to arrive.';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** An item id from its text: the same text gives the same id on every list. */
export const itemIdOf = (text: string) => `ev-${createHash('sha256').update(text).digest('hex').slice(0, 10)}`;

/* ---------- the inquiry's checklist ---------- */

/**
 * The qualifications of an inquiry's applicant page (the ones shown on its result: chosen first, then
 * suggested) and one merged checklist: an item several of them name appears once, with every code naming it.
 */
export async function checklistOf(inquiry: InquiryRecord): Promise<{
  qualifications: ApplicantView['qualifications'];
  checklist: ChecklistItem[];
}> {
  const items = inquiry.kind === 'quote' ? resultOfQuote((await loadCatalogue()).catalogue, inquiry.quote) : [];
  const byText = new Map<string, ChecklistItem>();
  for (const item of items) {
    for (const text of item.evidence) {
      const known = byText.get(text);
      if (known) known.codes.push(item.code);
      else byText.set(text, { id: itemIdOf(text), text, codes: [item.code] });
    }
  }
  return {
    qualifications: items.map((item) => ({ code: item.code, title: item.title, chosen: item.selected })),
    checklist: [...byText.values()],
  };
}

/* ---------- records ---------- */

/**
 * The applicant row of an inquiry, made if missing (a link, an upload or a staff action may come first).
 * The inquiry row must exist: applicants.inquiry_id references it. The first stage, 'received', is the row's
 * created_at; applicant_stages keeps the changes after it.
 */
export async function ensureApplicant(q: Queryable, inquiryId: string, now: Date): Promise<void> {
  await q.query(sql`
    INSERT INTO applicants (inquiry_id, created_at) VALUES (${inquiryId}, ${now.toISOString()})
    ON CONFLICT (inquiry_id) DO NOTHING`);
}

export type EventType = ApplicantRecord['events'][number]['type'];

/** Notes what happened on the applicant's page or to it (the applicant row must exist). */
export async function addEvent(
  q: Queryable,
  inquiryId: string,
  type: EventType,
  detail: string,
  now: Date,
): Promise<void> {
  await q.query(sql`
    INSERT INTO applicant_events (inquiry_id, at, type, detail)
    VALUES (${inquiryId}, ${now.toISOString()}, ${type}, ${detail})`);
}

interface ApplicantRow {
  created_at: unknown;
  stage: string;
  last_link_mail_at: unknown;
  files_expired_at: unknown;
  // Lists as JSON (one statement for the whole record); their times are text with an offset.
  stages: { stage: string; at: string }[];
  tokens: { hash: string; issuedAt: string; expiresAt: string }[];
  files: {
    id: string;
    name: string;
    size: number;
    kind: string | null;
    item: string;
    state: 'uploading' | 'complete';
    startedAt: string;
    uploadedAt: string | null;
  }[];
  reviews: { item: string; status: string; note: string; username: string; name: string; at: string }[];
  events: { at: string; type: string; detail: string }[];
}

/** An applicant as one record, from its tables (null when nobody opened a page for the inquiry yet). */
export async function getApplicant(inquiryId: string): Promise<ApplicantRecord | null> {
  const [row] = await db().query<ApplicantRow>(sql`
    SELECT a.created_at, a.stage, a.last_link_mail_at, a.files_expired_at,
      (SELECT coalesce(json_agg(json_build_object('stage', s.stage, 'at', s.at) ORDER BY s.seq), '[]')
        FROM applicant_stages s WHERE s.inquiry_id = a.inquiry_id) AS stages,
      (SELECT coalesce(json_agg(json_build_object('hash', l.token_hash, 'issuedAt', l.issued_at,
          'expiresAt', l.expires_at) ORDER BY l.issued_at, l.token_hash), '[]')
        FROM applicant_links l WHERE l.inquiry_id = a.inquiry_id) AS tokens,
      (SELECT coalesce(json_agg(json_build_object('id', f.id, 'name', f.name, 'size', f.size, 'kind', f.kind,
          'item', f.item, 'state', f.state, 'startedAt', f.started_at, 'uploadedAt', f.uploaded_at)
          ORDER BY f.uploaded_at NULLS LAST, f.started_at, f.id), '[]')
        FROM evidence_files f WHERE f.inquiry_id = a.inquiry_id) AS files,
      (SELECT coalesce(json_agg(json_build_object('item', r.item_id, 'status', r.status, 'note', r.note,
          'username', r.by_username, 'name', r.by_name, 'at', r.at) ORDER BY r.at, r.item_id), '[]')
        FROM applicant_reviews r WHERE r.inquiry_id = a.inquiry_id) AS reviews,
      (SELECT coalesce(json_agg(json_build_object('at', e.at, 'type', e.type, 'detail', e.detail) ORDER BY e.seq), '[]')
        FROM (SELECT seq, at, type, detail FROM applicant_events WHERE inquiry_id = a.inquiry_id
              ORDER BY seq DESC LIMIT ${MAX_EVENTS}) e) AS events
    FROM applicants a WHERE a.inquiry_id = ${inquiryId}`);
  if (!row) return null;
  const createdAt = isoOf(row.created_at);
  const parsed = v.safeParse(ApplicantRecordSchema, {
    inquiryId,
    createdAt,
    stage: row.stage,
    stages: [{ stage: 'received', at: createdAt }, ...row.stages.map((s) => ({ stage: s.stage, at: isoOf(s.at) }))],
    tokens: row.tokens.map((t) => ({ hash: t.hash, issuedAt: isoOf(t.issuedAt), expiresAt: isoOf(t.expiresAt) })),
    files: row.files
      .filter((f) => f.state === 'complete')
      .map((f) => ({
        id: f.id,
        name: f.name,
        size: f.size,
        kind: f.kind,
        item: f.item,
        uploadedAt: isoOf(f.uploadedAt),
      })),
    pending: row.files
      .filter((f) => f.state === 'uploading')
      .map((f) => ({ id: f.id, size: f.size, startedAt: isoOf(f.startedAt) })),
    reviews: row.reviews.map((r) => [
      r.item,
      { status: r.status, note: r.note, by: { username: r.username, name: r.name }, at: isoOf(r.at) },
    ]),
    events: row.events.map((e) => ({ at: isoOf(e.at), type: e.type, detail: e.detail })),
    ...(row.last_link_mail_at ? { lastLinkMailAt: iso(row.last_link_mail_at) } : {}),
    ...(row.files_expired_at ? { filesExpiredAt: iso(row.files_expired_at) } : {}),
  });
  if (!parsed.success) {
    console.error(`[applicants] the applicant of inquiry ${inquiryId} does not parse: ${parsed.issues[0].message}`);
    return null;
  }
  return parsed.output;
}

/** What an inquiry nobody opened an applicant page for shows: nothing yet. */
export const newApplicant = (inquiryId: string, now: Date): ApplicantRecord => ({
  inquiryId,
  createdAt: now.toISOString(),
  stage: 'received',
  stages: [{ stage: 'received', at: now.toISOString() }],
  tokens: [],
  files: [],
  pending: [],
  reviews: [],
  events: [],
});

/** Bytes an applicant has sent or is sending. */
export const usedBytes = (record: ApplicantRecord) =>
  record.files.reduce((sum, f) => sum + f.size, 0) + record.pending.reduce((sum, p) => sum + p.size, 0);
