import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import {
  db,
  empty,
  iso,
  isoOf,
  isUniqueViolation,
  join,
  json,
  raw,
  sql,
  type Queryable,
  type Sql,
} from '../platform/database.ts';
import {
  InquiryRecordSchema,
  MAIL_KINDS,
  REFERENCE_ALPHABET,
  REFERENCE_PATTERN,
  referenceOf,
  type InquiryConsents,
  type InquiryRecord,
  type InquiryReply,
  type InquiryStatus,
  type MailDelivery,
  type MailKind,
  type NewInquiry,
} from '../schemas/inquiry-record.ts';
import { CONSENT_VERSION } from './consent-version.ts';
import { withdrawalOf, withMarketingState } from './marketing-consent.ts';

/**
 * The inquiries: every contact message, home consultation request and free-quote request, stored before any
 * e-mail is tried so no lead is ever lost (DESIGN "Forms store first, then mail").
 *
 * Tables (netlify/database/migrations/*_inquiries.sql): `inquiries` (one row each: the visitor's fields as
 * columns, a quote's answers as jsonb, status, call-back, assignment, follow-up, and the text the inbox searches),
 * `inquiry_notes`, `inquiry_replies` (each with its e-mail's delivery state) and `inquiry_mail` (the staff
 * notification and the acknowledgement). The record the rest of the site works with is the InquiryRecord of
 * src/schemas/inquiry-record.ts, assembled from those rows and parsed with its schema; a row that does not parse
 * is reported, never passed on.
 *
 * A change (updateInquiry) runs in one transaction with the inquiry's row locked, so two staff, the retry job and
 * a visitor's call-back request never overwrite each other; the counts per status follow by trigger.
 */

export { MAIL_KINDS, referenceOf };
export type {
  InquiryConsents,
  InquiryRecord,
  InquiryStatus,
  MailDelivery,
  MailKind,
  NewInquiry,
} from '../schemas/inquiry-record.ts';

/** From a validated form (the schemas default both to false). */
export const consentsFrom = (form: { consentPartnerRto: boolean; consentMarketing: boolean }): InquiryConsents => ({
  partnerRto: form.consentPartnerRto === true,
  marketing: form.consentMarketing === true,
});

/** A stored record that does not match the schema: named by id so it can be found and fixed by hand. */
export class UnreadableInquiryError extends Error {
  readonly id: string;
  constructor(id: string, reason: string) {
    super(`Inquiry ${id} could not be read: ${reason}`);
    this.id = id;
  }
}

/** A sender holds an e-mail this long; if it dies meanwhile, the retry job takes the e-mail over after it. */
export const SEND_LEASE_MS = 5 * 60_000;

const ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
export const isInquiryId = (id: string) => ID_PATTERN.test(id);

/** 20250722T101530123Z-9f86d081: UTC time to the millisecond, then randomness. Sorts by time. */
export function newInquiryId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;
}

/** A fresh reference: RPL- and six characters from the look-alike-free alphabet (about 887 million of them). */
export function newReference(length = 6): string {
  const bytes = randomBytes(length);
  let out = 'RPL-';
  // 31 letters: a byte taken modulo 31 leans a little to the first ones (256 = 8 x 31 + 8), which costs nothing here.
  for (const byte of bytes) out += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
  return out;
}

/** The inquiry id a reference belongs to (a new-style reference, or an older inquiry's id), or null. */
export async function idOfReference(reference: string): Promise<string | null> {
  const upper = reference.trim().toUpperCase();
  if (isInquiryId(reference.trim())) return reference.trim();
  if (!REFERENCE_PATTERN.test(upper)) return null;
  const [row] = await db().query<{ id: string }>(sql`SELECT id FROM inquiries WHERE reference = ${upper}`);
  return row?.id ?? null;
}

export function mailIdempotencyKey(inquiryId: string, kind: MailKind): string {
  return `inquiry-${inquiryId}-${kind}`;
}

/* ---------- what the inbox search looks in ---------- */

/**
 * A phone number as digits, whatever its spacing, in the forms people type it: as written (0412345678 or
 * 61412345678) and, for an Australian number written with +61, also the national form (0412345678).
 */
export function phoneDigits(phone: string): string[] {
  const digits = phone.replace(/\D/g, '');
  if (!digits) return [];
  return digits.startsWith('61') && digits.length === 11 ? [digits, `0${digits.slice(2)}`] : [digits];
}

/** The chosen qualifications' codes (a title's words find the inquiries naming them through these). */
export const courseCodesOf = (record: {
  quote?: { courses?: { code: string }[]; selectedCourses?: string[] };
}): string[] => record.quote?.courses?.map((course) => course.code) ?? record.quote?.selectedCourses ?? [];

/**
 * What the inbox search looks in, lower-cased: the name, the e-mail address, the reference (or id), the phone
 * number as digits, the codes of the chosen qualifications and the experience the visitor described.
 */
export function searchText(record: {
  id: string;
  reference?: string;
  contact: { firstName: string; lastName: string; email: string; phone?: string };
  quote?: { courses?: { code: string }[]; selectedCourses?: string[]; experience?: string };
}): string {
  return [
    `${record.contact.firstName} ${record.contact.lastName}`,
    record.contact.email,
    `${record.reference ?? record.id} ${phoneDigits(record.contact.phone ?? '').join(' ')}`,
    courseCodesOf(record).join(' '),
    record.quote?.experience ?? '',
  ]
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .toLowerCase();
}

/* ---------- rows and records ---------- */

interface InquiryRow {
  id: string;
  reference: string | null;
  kind: string;
  source: string;
  created_at: unknown;
  status: string;
  handled_at: unknown;
  status_rev: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  consent_partner_rto: boolean | null;
  consent_marketing: boolean | null;
  consent_version: string | null;
  message: string | null;
  quote: unknown;
  callback_day: string | null;
  callback_window: string | null;
  callback_requested_at: unknown;
  assigned_to_username: string | null;
  assigned_to_name: string | null;
  assigned_by_username: string | null;
  assigned_by_name: string | null;
  assigned_at: unknown;
  follow_up_date: string | null;
  follow_up_by_username: string | null;
  follow_up_by_name: string | null;
  follow_up_at: unknown;
  follow_up_rev: number;
  erased_at: unknown;
}

interface DeliveryRow {
  state: MailDelivery['state'];
  attempts: number;
  idempotency_key: string;
  next_attempt_at: unknown;
  last_attempt_at: unknown;
  last_error: string | null;
  sent_at: unknown;
  provider_id: string | null;
  via: MailDelivery['via'] | null;
}
interface MailRow extends DeliveryRow {
  inquiry_id: string;
  kind: MailKind;
}
interface NoteRow {
  inquiry_id: string;
  id: string;
  text: string;
  author_username: string;
  author_name: string;
  at: unknown;
}
interface ReplyRow extends DeliveryRow {
  inquiry_id: string;
  id: string;
  subject: string;
  body: string;
  by_username: string;
  by_name: string;
  at: unknown;
}

/** Every column of `inquiries` as the records need them (dates as text, so no driver turns them into midnights). */
const INQUIRY_COLUMNS = sql`id, reference, kind, source, created_at, status, handled_at, status_rev, first_name,
  last_name, email, phone, consent_partner_rto, consent_marketing, consent_version, message, quote,
  callback_day::text AS callback_day, callback_window, callback_requested_at, assigned_to_username, assigned_to_name,
  assigned_by_username, assigned_by_name, assigned_at, follow_up_date::text AS follow_up_date, follow_up_by_username,
  follow_up_by_name, follow_up_at, follow_up_rev, erased_at`;

function deliveryFrom(row: DeliveryRow): MailDelivery {
  return {
    state: row.state,
    attempts: row.attempts,
    idempotencyKey: row.idempotency_key,
    ...(row.next_attempt_at ? { nextAttemptAt: isoOf(row.next_attempt_at) } : {}),
    ...(row.last_attempt_at ? { lastAttemptAt: isoOf(row.last_attempt_at) } : {}),
    ...(row.last_error !== null ? { lastError: row.last_error } : {}),
    ...(row.sent_at ? { sentAt: isoOf(row.sent_at) } : {}),
    ...(row.provider_id !== null ? { providerId: row.provider_id } : {}),
    ...(row.via ? { via: row.via } : {}),
  };
}

interface Children {
  notes: NoteRow[];
  replies: ReplyRow[];
  mail: MailRow[];
}

/** The record of a row and its children, parsed with the schema (UnreadableInquiryError when it does not parse). */
function recordFrom(row: InquiryRow, children: Children): InquiryRecord {
  const mail = new Map(children.mail.map((delivery) => [delivery.kind, deliveryFrom(delivery)]));
  const candidate = {
    id: row.id,
    ...(row.reference ? { reference: row.reference } : {}),
    kind: row.kind,
    source: row.source,
    createdAt: isoOf(row.created_at),
    status: row.status,
    handledAt: iso(row.handled_at),
    ...(row.status_rev > 0 ? { statusRev: row.status_rev } : {}),
    contact: { firstName: row.first_name, lastName: row.last_name, email: row.email, phone: row.phone },
    ...(row.consent_partner_rto === null || row.consent_marketing === null
      ? {}
      : { consents: { partnerRto: row.consent_partner_rto, marketing: row.consent_marketing } }),
    ...(row.consent_version ? { consentVersion: row.consent_version } : {}),
    ...(row.kind === 'contact' ? { message: row.message } : { quote: row.quote }),
    ...(row.callback_day && row.callback_window
      ? {
          callback: {
            day: row.callback_day,
            window: row.callback_window,
            requestedAt: isoOf(row.callback_requested_at),
          },
        }
      : {}),
    mail: { staff: mail.get('staff'), ack: mail.get('ack') },
    ...(children.notes.length
      ? {
          notes: children.notes.map((note) => ({
            id: note.id,
            text: note.text,
            author: { username: note.author_username, name: note.author_name },
            at: isoOf(note.at),
          })),
        }
      : {}),
    ...(row.assigned_at && row.assigned_by_username
      ? {
          assignment: {
            to: row.assigned_to_username
              ? { username: row.assigned_to_username, name: row.assigned_to_name ?? row.assigned_to_username }
              : null,
            by: { username: row.assigned_by_username, name: row.assigned_by_name ?? row.assigned_by_username },
            at: isoOf(row.assigned_at),
          },
        }
      : {}),
    ...(children.replies.length
      ? {
          replies: children.replies.map(
            (reply): InquiryReply => ({
              id: reply.id,
              subject: reply.subject,
              body: reply.body,
              by: { username: reply.by_username, name: reply.by_name },
              at: isoOf(reply.at),
              mail: deliveryFrom(reply),
            }),
          ),
        }
      : {}),
    ...(row.follow_up_at && row.follow_up_by_username
      ? {
          followUp: {
            date: row.follow_up_date,
            by: { username: row.follow_up_by_username, name: row.follow_up_by_name ?? row.follow_up_by_username },
            at: isoOf(row.follow_up_at),
            rev: row.follow_up_rev,
          },
        }
      : {}),
    ...(row.erased_at ? { erasedAt: isoOf(row.erased_at) } : {}),
  };
  const parsed = v.safeParse(InquiryRecordSchema, candidate);
  if (parsed.success) return parsed.output;
  throw new UnreadableInquiryError(
    row.id,
    `${v.getDotPath(parsed.issues[0]) ?? 'record'}: ${parsed.issues[0].message}`,
  );
}

/** The inquiries' columns of a record, by column name (the search text and codes derived from it). */
function columnsOf(record: InquiryRecord): [column: string, value: unknown][] {
  const { contact, consents, callback, assignment, followUp } = record;
  return [
    ['reference', record.reference ?? null],
    ['kind', record.kind],
    ['source', record.source],
    ['created_at', record.createdAt],
    ['status', record.status],
    ['handled_at', record.handledAt],
    ['status_rev', record.statusRev ?? 0],
    ['first_name', contact.firstName],
    ['last_name', contact.lastName],
    ['email', contact.email],
    ['phone', contact.phone],
    ['consent_partner_rto', consents ? consents.partnerRto : null],
    ['consent_marketing', consents ? consents.marketing : null],
    ['consent_version', record.consentVersion ?? null],
    ['message', record.kind === 'contact' ? record.message : null],
    ['quote', record.kind === 'quote' ? sql`${json(record.quote)}::jsonb` : null],
    ['callback_day', callback?.day ?? null],
    ['callback_window', callback?.window ?? null],
    ['callback_requested_at', callback?.requestedAt ?? null],
    ['assigned_to_username', assignment?.to?.username ?? null],
    ['assigned_to_name', assignment?.to?.name ?? null],
    ['assigned_by_username', assignment?.by.username ?? null],
    ['assigned_by_name', assignment?.by.name ?? null],
    ['assigned_at', assignment?.at ?? null],
    ['follow_up_date', followUp?.date ?? null],
    ['follow_up_by_username', followUp?.by.username ?? null],
    ['follow_up_by_name', followUp?.by.name ?? null],
    ['follow_up_at', followUp?.at ?? null],
    ['follow_up_rev', followUp?.rev ?? 0],
    ['erased_at', record.erasedAt ?? null],
    ['search_text', searchText(record)],
    ['course_codes', courseCodesOf(record)],
  ];
}

const deliveryColumns = (delivery: MailDelivery): [string, unknown][] => [
  ['state', delivery.state],
  ['attempts', delivery.attempts],
  ['idempotency_key', delivery.idempotencyKey],
  ['next_attempt_at', delivery.nextAttemptAt ?? null],
  ['last_attempt_at', delivery.lastAttemptAt ?? null],
  ['last_error', delivery.lastError ?? null],
  ['sent_at', delivery.sentAt ?? null],
  ['provider_id', delivery.providerId ?? null],
  ['via', delivery.via ?? null],
];

const noteColumns = (note: NonNullable<InquiryRecord['notes']>[number]): [string, unknown][] => [
  ['id', note.id],
  ['text', note.text],
  ['author_username', note.author.username],
  ['author_name', note.author.name],
  ['at', note.at],
];

const replyColumns = (reply: InquiryReply): [string, unknown][] => [
  ['id', reply.id],
  ['subject', reply.subject],
  ['body', reply.body],
  ['by_username', reply.by.username],
  ['by_name', reply.by.name],
  ['at', reply.at],
  ...deliveryColumns(reply.mail),
];

const names = (columns: [string, unknown][]) => raw(columns.map(([name]) => name).join(', '));
const values = (columns: [string, unknown][]) => join(columns.map(([, value]) => value));
const assignments = (columns: [string, unknown][]) =>
  join(columns.map(([name, value]) => sql`${raw(name)} = ${value}`));

/** The notes, replies and deliveries of these inquiries, each list in its order. */
async function childrenOf(q: Queryable, ids: string[]): Promise<Map<string, Children>> {
  // One after the other: inside a transaction they share one connection, which runs one statement at a time.
  const notes = await q.query<NoteRow>(sql`SELECT * FROM inquiry_notes WHERE inquiry_id = ANY(${ids}) ORDER BY seq`);
  const replies = await q.query<ReplyRow>(
    sql`SELECT * FROM inquiry_replies WHERE inquiry_id = ANY(${ids}) ORDER BY seq`,
  );
  const mail = await q.query<MailRow>(sql`SELECT * FROM inquiry_mail WHERE inquiry_id = ANY(${ids})`);
  const byId = new Map<string, Children>(ids.map((id) => [id, { notes: [], replies: [], mail: [] }]));
  for (const note of notes) byId.get(note.inquiry_id)?.notes.push(note);
  for (const reply of replies) byId.get(reply.inquiry_id)?.replies.push(reply);
  for (const delivery of mail) byId.get(delivery.inquiry_id)?.mail.push(delivery);
  return byId;
}

/** Records of rows already read, in the rows' order; a row that does not parse is reported (in `unreadable`). */
async function recordsOf(q: Queryable, rows: InquiryRow[], unreadable?: string[]): Promise<InquiryRecord[]> {
  if (!rows.length) return [];
  const children = await childrenOf(
    q,
    rows.map((row) => row.id),
  );
  const records: InquiryRecord[] = [];
  for (const row of rows) {
    try {
      records.push(recordFrom(row, children.get(row.id)!));
    } catch (cause) {
      if (!(cause instanceof UnreadableInquiryError)) throw cause;
      console.error(cause.message);
      unreadable?.push(row.id);
    }
  }
  return records;
}

/**
 * The records of these ids, in the order given (missing ones left out; one that does not parse is logged and
 * named in `unreadable`). One query per table whatever the number of ids.
 */
export async function readInquiries(ids: string[], unreadable?: string[]): Promise<InquiryRecord[]> {
  const wanted = ids.filter(isInquiryId);
  if (!wanted.length) return [];
  const rows = await db().query<InquiryRow>(sql`SELECT ${INQUIRY_COLUMNS} FROM inquiries WHERE id = ANY(${wanted})`);
  const byId = new Map((await recordsOf(db(), rows, unreadable)).map((record) => [record.id, record]));
  return wanted.map((id) => byId.get(id)).filter((record): record is InquiryRecord => record !== undefined);
}

/**
 * One page of inquiries: the rows matching `condition`, in `order`, read whole (no second look-up by id); a
 * record that does not parse is left out and named in `unreadable`.
 */
export async function pageOfInquiries(
  condition: Sql,
  order: Sql,
  { limit, offset }: { limit: number; offset: number },
  unreadable?: string[],
): Promise<InquiryRecord[]> {
  const rows = await db().query<InquiryRow>(
    sql`SELECT ${INQUIRY_COLUMNS} FROM inquiries WHERE ${condition} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
  return recordsOf(db(), rows, unreadable);
}

/* ---------- one inquiry ---------- */

/** One inquiry, or null when there is none; throws UnreadableInquiryError when the stored record does not parse. */
export async function readInquiryStrict(id: string): Promise<InquiryRecord | null> {
  if (!isInquiryId(id)) return null;
  const [row] = await db().query<InquiryRow>(sql`SELECT ${INQUIRY_COLUMNS} FROM inquiries WHERE id = ${id}`);
  if (!row) return null;
  return recordFrom(row, (await childrenOf(db(), [id])).get(id)!);
}

/**
 * One inquiry, or null when there is none or its stored record does not parse (logged, and its id added to
 * `unreadable`), so lists and batch jobs go on without it.
 */
export async function getInquiry(id: string, unreadable?: string[]): Promise<InquiryRecord | null> {
  try {
    return await readInquiryStrict(id);
  } catch (cause) {
    if (!(cause instanceof UnreadableInquiryError)) throw cause;
    console.error(cause.message);
    unreadable?.push(id);
    return null;
  }
}

/**
 * Stores a new inquiry with both e-mails held by the request that stores it (it sends them at once; if it dies,
 * the retry job takes them over when the hold runs out). The reference is unique by the schema: a clash (or the
 * same millisecond and random part of an id) takes another, longer after a few clashes in a row, so this ends.
 */
export async function createInquiry(input: NewInquiry, now = new Date()): Promise<InquiryRecord> {
  // An address that withdrew its marketing consent stays withdrawn, whatever a later form ticked.
  const marketing = input.consents?.marketing === true && !(await withdrawalOf(input.contact.email));
  for (let attempt = 0; ; attempt++) {
    const id = newInquiryId(now);
    const reference = newReference(attempt < 4 ? 6 : attempt < 8 ? 7 : 8);
    const leaseUntil = new Date(now.getTime() + SEND_LEASE_MS).toISOString();
    const mail = Object.fromEntries(
      MAIL_KINDS.map((kind) => [
        kind,
        { state: 'sending', attempts: 0, idempotencyKey: mailIdempotencyKey(id, kind), nextAttemptAt: leaseUntil },
      ]),
    ) as Record<MailKind, MailDelivery>;
    // Parsed before it is written: the stored shape is the schema's, whatever the caller passed along.
    const record: InquiryRecord = v.parse(InquiryRecordSchema, {
      id,
      reference,
      kind: input.kind,
      source: input.source,
      createdAt: now.toISOString(),
      status: 'new',
      handledAt: null,
      contact: input.contact,
      ...(input.kind === 'contact' ? { message: input.message } : { quote: input.quote }),
      // Not given unless the form said so (the functions always pass what the visitor chose).
      consents: { partnerRto: input.consents?.partnerRto === true, marketing },
      consentVersion: CONSENT_VERSION,
      mail,
    });
    try {
      await db().transaction(async (tx) => {
        const columns: [string, unknown][] = [['id', id], ...columnsOf(record)];
        await tx.query(sql`INSERT INTO inquiries (${names(columns)}) VALUES (${values(columns)})`);
        for (const kind of MAIL_KINDS) {
          const delivery: [string, unknown][] = [
            ['inquiry_id', id],
            ['kind', kind],
            ...deliveryColumns(record.mail[kind]),
          ];
          await tx.query(sql`INSERT INTO inquiry_mail (${names(delivery)}) VALUES (${values(delivery)})`);
        }
      });
      return record;
    } catch (cause) {
      if (!isUniqueViolation(cause)) throw cause;
    }
  }
}

/** Writes the rows of `table` (keyed by `key` within the inquiry) so they become `after`. */
async function syncRows<T>(
  tx: Queryable,
  table: 'inquiry_notes' | 'inquiry_replies',
  inquiryId: string,
  before: T[],
  after: T[],
  columns: (item: T) => [string, unknown][],
): Promise<void> {
  const idOf = (item: T) => String(columns(item)[0][1]);
  const kept = new Set(after.map(idOf));
  const gone = before.map(idOf).filter((id) => !kept.has(id));
  if (gone.length) await tx.query(sql`DELETE FROM ${raw(table)} WHERE inquiry_id = ${inquiryId} AND id = ANY(${gone})`);
  const earlier = new Map(before.map((item) => [idOf(item), JSON.stringify(columns(item))]));
  for (const item of after) {
    const known = earlier.get(idOf(item));
    const cols = columns(item);
    if (known === undefined) {
      const all: [string, unknown][] = [['inquiry_id', inquiryId], ...cols];
      await tx.query(sql`INSERT INTO ${raw(table)} (${names(all)}) VALUES (${values(all)})`);
    } else if (known !== JSON.stringify(cols)) {
      await tx.query(
        sql`UPDATE ${raw(table)} SET ${assignments(cols.slice(1))} WHERE inquiry_id = ${inquiryId} AND id = ${idOf(item)}`,
      );
    }
  }
}

/** Writes what differs between two versions of a record (the inquiry's row, then its children). */
async function writeChanges(tx: Queryable, before: InquiryRecord, after: InquiryRecord): Promise<void> {
  await tx.query(sql`UPDATE inquiries SET ${assignments(columnsOf(after))} WHERE id = ${after.id}`);
  await syncRows(tx, 'inquiry_notes', after.id, before.notes ?? [], after.notes ?? [], noteColumns);
  await syncRows(tx, 'inquiry_replies', after.id, before.replies ?? [], after.replies ?? [], replyColumns);
  for (const kind of MAIL_KINDS) {
    if (JSON.stringify(before.mail[kind]) === JSON.stringify(after.mail[kind])) continue;
    await tx.query(
      sql`UPDATE inquiry_mail SET ${assignments(deliveryColumns(after.mail[kind]))}
          WHERE inquiry_id = ${after.id} AND kind = ${kind}`,
    );
  }
}

/**
 * Changes one inquiry in one transaction, with its row locked from the read to the write: two writers (the retry
 * job and staff marking it handled, two staff adding notes) wait for each other and neither change is lost.
 * `change` returns the new record, or null to leave it; it may throw (a RefusedInput), which changes nothing.
 * It runs inside the transaction, so it must not wait on anything else (no e-mail, no other inquiry).
 */
export async function updateInquiry(
  id: string,
  change: (record: InquiryRecord) => InquiryRecord | null | Promise<InquiryRecord | null>,
  /** More statements that land with the change or not at all (other tables of the same inquiry). */
  alongside?: (tx: Queryable) => Promise<void>,
): Promise<InquiryRecord | null> {
  if (!isInquiryId(id)) return null;
  return db().transaction(async (tx) => {
    const [row] = await tx.query<InquiryRow>(sql`SELECT ${INQUIRY_COLUMNS} FROM inquiries WHERE id = ${id} FOR UPDATE`);
    if (!row) return null;
    const current = recordFrom(row, (await childrenOf(tx, [id])).get(id)!);
    const changed = await change(structuredClone(current));
    const next = changed ? v.parse(InquiryRecordSchema, changed) : current;
    if (next.id !== id) throw new Error(`A change of inquiry ${id} tried to give it another id`);
    if (changed) await writeChanges(tx, current, next);
    await alongside?.(tx);
    return next;
  });
}

/** Staff inbox: mark handled (with the time) or back to new. Null when there is no such inquiry. */
export function setInquiryStatus(id: string, status: InquiryStatus, now = new Date()): Promise<InquiryRecord | null> {
  return updateInquiry(id, (current) =>
    current.status === status
      ? null
      : {
          ...current,
          status,
          handledAt: status === 'handled' ? now.toISOString() : null,
          statusRev: (current.statusRev ?? 0) + 1,
        },
  );
}

/* ---------- many inquiries ---------- */

/** Days as `YYYY-MM-DD`, both included (UTC, as the ids are). */
export interface DayRange {
  from: string;
  to: string;
}

/** The instants a day range covers: from the first day's midnight (UTC) to the midnight after the last. */
function instantsOf(range: DayRange): { from: string; until: string } {
  const until = new Date(`${range.to}T00:00:00.000Z`);
  until.setUTCDate(until.getUTCDate() + 1);
  return { from: `${range.from}T00:00:00.000Z`, until: until.toISOString() };
}

/** How many inquiries were received on the days of `range`. */
export async function countInRange(range: DayRange): Promise<number> {
  const { from, until } = instantsOf(range);
  const [row] = await db().query<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM inquiries WHERE created_at >= ${from} AND created_at < ${until}`,
  );
  return row.n;
}

/** How many inquiries there are, by status (kept by the schema's trigger: no row is counted). */
export async function statusCounts(): Promise<{ all: number; new: number; handled: number }> {
  const rows = await db().query<{ status: 'new' | 'handled'; n: number }>(
    sql`SELECT status, n::int AS n FROM inquiry_counts`,
  );
  const counts = { all: 0, new: 0, handled: 0 };
  for (const row of rows) counts[row.status] = row.n;
  counts.all = counts.new + counts.handled;
  return counts;
}

/**
 * Every inquiry (or those received on the days of `range`), newest first, a batch at a time (the CSV exports):
 * each batch is the next page after the last id of the one before, read with the index, so a batch costs the
 * same at the millionth row as at the first.
 */
export async function* allInquiries(batchSize = 200, range?: DayRange): AsyncGenerator<InquiryRecord[]> {
  const span = range ? instantsOf(range) : null;
  let after: string | null = null;
  for (;;) {
    const rows: InquiryRow[] = await db().query<InquiryRow>(sql`
      SELECT ${INQUIRY_COLUMNS} FROM inquiries
      WHERE ${after === null ? sql`TRUE` : sql`id < ${after}`}
        ${span ? sql`AND created_at >= ${span.from} AND created_at < ${span.until}` : empty}
      ORDER BY id DESC LIMIT ${batchSize}`);
    if (!rows.length) return;
    after = rows[rows.length - 1].id;
    yield withMarketingState(await recordsOf(db(), rows));
    if (rows.length < batchSize) return;
  }
}

export async function listAllInquiries(): Promise<InquiryRecord[]> {
  const all: InquiryRecord[] = [];
  for await (const batch of allInquiries()) all.push(...batch);
  return all;
}

/** Inquiries with an e-mail of their own still to send whose time has come (or whose sender's hold ran out). */
export async function inquiriesWithMailDue(now = new Date(), limit = 200): Promise<string[]> {
  const rows = await db().query<{ inquiry_id: string }>(sql`
    SELECT inquiry_id FROM inquiry_mail
    WHERE state IN ('pending', 'sending') AND (next_attempt_at IS NULL OR next_attempt_at <= ${now.toISOString()})
    GROUP BY inquiry_id ORDER BY min(next_attempt_at) NULLS FIRST LIMIT ${limit}`);
  return rows.map((row) => row.inquiry_id);
}

/** Inquiries with a staff reply still to send whose time has come (src/server/inquiry-replies.ts). */
export async function inquiriesWithRepliesDue(now = new Date(), limit = 200): Promise<string[]> {
  const rows = await db().query<{ inquiry_id: string }>(sql`
    SELECT inquiry_id FROM inquiry_replies
    WHERE state IN ('pending', 'sending') AND (next_attempt_at IS NULL OR next_attempt_at <= ${now.toISOString()})
    GROUP BY inquiry_id ORDER BY min(next_attempt_at) NULLS FIRST LIMIT ${limit}`);
  return rows.map((row) => row.inquiry_id);
}

/* ---------- erasure on request ---------- */

/** What stands in for the person once their data is erased (the record keeps its shape and its reference). */
export const ERASED_CONTACT = {
  firstName: 'Erased',
  lastName: 'on request',
  email: 'erased@example.invalid',
  phone: '000000',
} as const;

/**
 * Replaces an inquiry's personal fields (name, e-mail, phone, message, free-text answers, staff notes, the text
 * of staff replies) with placeholders and notes when; the reference, dates, status and chosen qualifications
 * stay, so the counts and the audit trail still add up. The search text is made again from what is left, so a
 * search no longer finds the person.
 */
export function eraseInquiryPersonalData(
  id: string,
  now = new Date(),
  alongside?: (tx: Queryable) => Promise<void>,
): Promise<InquiryRecord | null> {
  return updateInquiry(
    id,
    (current): InquiryRecord => {
      // Replies keep who sent them, when and their delivery; their text named the person and goes too.
      const replies = current.replies?.map((reply) => ({
        ...reply,
        subject: 'Erased on request.',
        body: 'Erased on request.',
      }));
      const common = {
        contact: { ...ERASED_CONTACT },
        notes: [],
        ...(replies ? { replies } : {}),
        erasedAt: now.toISOString(),
      };
      return current.kind === 'contact'
        ? { ...current, ...common, message: 'Erased on request.' }
        : {
            ...current,
            ...common,
            quote: { ...current.quote, mobileNumber: '', experience: '', goals: '', additionalInfo: '' },
          };
    },
    alongside,
  );
}
