import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { dataStore, EDIT_RETRIES, retryDelayMs, serialised, updateJSON } from './blobs.ts';
import { loadCatalogue } from './catalogue.ts';
import { repositoryCatalogue } from '../catalogue/index.ts';
import {
  countAfter,
  idsByMonth,
  indexOrMarkStale,
  pageOfIds,
  peekSummary,
  readSummary,
  searchIds,
  searchText,
  totals,
  type IndexEntry,
} from './inquiry-index.ts';
import {
  InboxVisitSchema,
  InquiryRecordSchema,
  MAIL_KINDS,
  MAX_NOTES,
  REFERENCE_ALPHABET,
  REFERENCE_PATTERN,
  referenceOf,
  type InquiryConsents,
  type InquiryRecord,
  type InquiryStatus,
  type MailDelivery,
  type MailKind,
  type NewInquiry,
  type StaffRef,
} from '../schemas/inquiry-record.ts';
import type { InboxFilter, InboxPage, NewInquiriesSummary } from '../schemas/inbox.ts';
import { CONSENT_VERSION } from './consent-version.ts';
import { withdrawalOf, withMarketingState } from './marketing-consent.ts';

/**
 * The inquiries store: every contact message, home consultation request and free-quote request,
 * written before any e-mail is tried so no lead is ever lost (DESIGN "Forms store first, then mail").
 *
 * Keys:  inquiry/{id}        the record (JSON, shaped by src/schemas/inquiry-record.ts)
 *        mail-pending/{id}   marker while any of its e-mails still waits for delivery, so the retry
 *                            job looks at a handful of markers instead of every inquiry ever received.
 *        index/...           the staff inbox's index: ids by month with their status and search text, counts
 *                            per status (src/server/inquiry-index.ts), so a page never reads every record.
 *        visit/{username}    when that staff member last opened the inbox (the dashboard counts what came since).
 * Ids sort by time (ISO timestamp first), so newest first is a reverse sort of the keys.
 * Every record read is parsed with its schema; one that does not parse is reported, never passed on.
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

const RECORD_PREFIX = 'inquiry/';
const PENDING_PREFIX = 'mail-pending/';
/** A sender holds an e-mail this long; if it dies meanwhile, the retry job takes the e-mail over after it. */
export const SEND_LEASE_MS = 5 * 60_000;

const store = () => dataStore('inquiries');
const recordKey = (id: string) => `${RECORD_PREFIX}${id}`;
const pendingKey = (id: string) => `${PENDING_PREFIX}${id}`;
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

const referenceKey = (reference: string) => `reference/${reference}`;

/**
 * Claims a reference no other inquiry has (a conditional write of reference/{ref} naming the inquiry id);
 * after a few clashes in a row it takes a longer one, so this always ends.
 */
async function claimReference(id: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const reference = newReference(attempt < 4 ? 6 : attempt < 8 ? 7 : 8);
    const { modified } = await store().setJSON(referenceKey(reference), { id }, { onlyIfNew: true });
    if (modified) return reference;
  }
}

/** The inquiry id a reference belongs to (a new-style reference, or an older inquiry's id), or null. */
export async function idOfReference(reference: string): Promise<string | null> {
  const upper = reference.trim().toUpperCase();
  if (isInquiryId(reference.trim())) return reference.trim();
  if (!REFERENCE_PATTERN.test(upper)) return null;
  const stored = await store().get(referenceKey(upper), { type: 'json' });
  return stored && typeof stored === 'object' && typeof (stored as { id?: unknown }).id === 'string'
    ? (stored as { id: string }).id
    : null;
}

export function mailIdempotencyKey(inquiryId: string, kind: MailKind): string {
  return `inquiry-${inquiryId}-${kind}`;
}

/**
 * Stores a new inquiry (strongly consistent) with both e-mails pending, and its pending-mail marker.
 * The marker is written first: a marker without a record is harmless (the retry job drops it), a
 * record without a marker would never be retried.
 */
export async function createInquiry(input: NewInquiry, now = new Date()): Promise<InquiryRecord> {
  // An address that withdrew its marketing consent stays withdrawn, whatever a later form ticked.
  const marketing = input.consents?.marketing === true && !(await withdrawalOf(input.contact.email));
  for (;;) {
    const id = newInquiryId(now);
    const reference = await claimReference(id);
    const leaseUntil = new Date(now.getTime() + SEND_LEASE_MS).toISOString();
    // The request that stores the inquiry sends its e-mails at once, so it starts out holding them.
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
    await store().setJSON(pendingKey(id), { id }, { onlyIfNew: true });
    const { modified } = await store().setJSON(recordKey(id), record, { onlyIfNew: true });
    if (modified) {
      await indexOrMarkStale([indexEntry(record)]);
      return record;
    }
    // Same millisecond and same 32 random bits: practically never; take another id.
  }
}

function parseRecord(id: string, stored: unknown): InquiryRecord {
  const parsed = v.safeParse(InquiryRecordSchema, stored);
  if (parsed.success && parsed.output.id === id) return parsed.output;
  const reason = parsed.success
    ? 'its id does not match its key'
    : `${v.getDotPath(parsed.issues[0]) ?? 'record'}: ${parsed.issues[0].message}`;
  throw new UnreadableInquiryError(id, reason);
}

/** One inquiry, or null when there is none; throws UnreadableInquiryError when the stored record does not parse. */
export async function readInquiryStrict(id: string): Promise<InquiryRecord | null> {
  if (!isInquiryId(id)) return null;
  const stored = await store().get(recordKey(id), { type: 'json' });
  return stored === null ? null : parseRecord(id, stored);
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
 * Read-modify-write with the entry's ETag, so two writers (the retry job and staff marking an
 * inquiry handled) never overwrite each other. `change` returns the new record, or null to leave it.
 */
export async function updateInquiry(
  id: string,
  change: (record: InquiryRecord) => InquiryRecord | null | Promise<InquiryRecord | null>,
): Promise<InquiryRecord | null> {
  if (!isInquiryId(id)) return null;
  for (let attempt = 0; attempt < EDIT_RETRIES.attempts; attempt++) {
    // The local blob server can miss an entry for a moment while another request rewrites it: a record
    // counts as missing only when a second look agrees.
    let current = await readWithEtag(id);
    if (!current) {
      await settle(attempt);
      current = await readWithEtag(id);
    }
    if (!current) return null;
    const changed = await change(structuredClone(current.data));
    if (!changed) return current.data;
    const next = v.parse(InquiryRecordSchema, changed);
    // Conditional writes of one record go out one at a time from this process (see serialised); the read and
    // the change above do not wait, so a change that itself updates the record cannot deadlock.
    const { modified } = await serialised(`inquiries\n${recordKey(id)}`, () =>
      store().setJSON(recordKey(id), next, { onlyIfMatch: current.etag }),
    );
    if (modified) return next;
    await settle(attempt);
  }
  throw new Error(`Inquiry ${id} kept changing while it was being updated`);
}

const settle = (attempt: number) => new Promise((resolve) => setTimeout(resolve, retryDelayMs(EDIT_RETRIES, attempt)));

/**
 * A record and the ETag it was read at. Netlify answers reads with an ETag; the local blob server
 * (unit tests, `netlify serve`) only lists them. Listing before reading keeps that path safe: a
 * write in between makes the listed ETag stale, so the conditional write fails and is retried.
 */
async function readWithEtag(id: string): Promise<{ data: InquiryRecord; etag: string } | null> {
  const key = recordKey(id);
  const read = await store().getWithMetadata(key, { type: 'json' });
  if (!read) return null;
  if (read.etag) return { data: parseRecord(id, read.data), etag: read.etag };
  const listed = (await store().list({ prefix: key })).blobs.find((blob) => blob.key === key);
  const data = listed ? await store().get(key, { type: 'json' }) : null;
  return listed && data !== null ? { data: parseRecord(id, data), etag: listed.etag } : null;
}

const indexEntry = (record: InquiryRecord): IndexEntry => ({
  id: record.id,
  status: record.status,
  statusRev: record.statusRev ?? 0,
  search: searchText(record),
});

/** Every record's index entry: reads every record, so only for (re)building the index. */
async function indexEntriesOfAllRecords(): Promise<IndexEntry[]> {
  const records = await mapLimited(await listIds(RECORD_PREFIX), 16, (id) => getInquiry(id));
  return records.filter((r): r is InquiryRecord => r !== null).map(indexEntry);
}

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
 * summary and only the page's records are read; a search reads every month entry (not the records).
 * `total` counts the inquiries matching the filter and search. A record on the page that does not parse
 * is left out and named in `unreadable`.
 */
export async function listInquiries({
  status = 'all',
  offset = 0,
  limit = 50,
  q = '',
}: InboxListQuery = {}): Promise<Omit<InboxPage, 'staff'>> {
  const summary = await readSummary(indexEntriesOfAllRecords);
  const matches = searchMatcher(q, q.trim() ? await catalogueTitles() : []);
  let ids: string[];
  let counts = totals(summary);
  if (matches) {
    const found = await searchIds(summary, status, matches);
    counts = found.counts;
    ids = found.ids.slice(offset, offset + limit);
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

/** Every inquiry, newest first, a batch at a time (the CSV export). */
export async function* allInquiries(batchSize = 200): AsyncGenerator<InquiryRecord[]> {
  const summary = await readSummary(indexEntriesOfAllRecords);
  for await (const ids of idsByMonth(summary)) {
    for (let start = 0; start < ids.length; start += batchSize) {
      const records = await mapLimited(ids.slice(start, start + batchSize), 16, (id) => getInquiry(id));
      yield withMarketingState(records.filter((r): r is InquiryRecord => r !== null));
    }
  }
}

export async function listAllInquiries(): Promise<InquiryRecord[]> {
  const all: InquiryRecord[] = [];
  for await (const batch of allInquiries()) all.push(...batch);
  return all;
}

/** Staff inbox: mark handled (with the time) or back to new. Null when there is no such inquiry. */
export async function setInquiryStatus(
  id: string,
  status: InquiryStatus,
  now = new Date(),
): Promise<InquiryRecord | null> {
  const record = await updateInquiry(id, (current) =>
    current.status === status
      ? null
      : {
          ...current,
          status,
          handledAt: status === 'handled' ? now.toISOString() : null,
          statusRev: (current.statusRev ?? 0) + 1,
        },
  );
  // Also when nothing changed: re-recording the current status costs little and repairs a missed index write.
  if (record) await indexOrMarkStale([indexEntry(record)]);
  return record;
}

export const listPendingMailIds = () => listIds(PENDING_PREFIX);
export const clearPendingMail = (id: string) => store().delete(pendingKey(id));

async function listIds(prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of store().list({ prefix, paginate: true })) {
    for (const blob of page.blobs) ids.push(blob.key.slice(prefix.length));
  }
  return ids;
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/* ---------- CSV export (staff inbox) ---------- */

const CSV_COLUMNS: [string, (r: InquiryRecord) => string][] = [
  ['Received (UTC)', (r) => r.createdAt],
  ['Reference', (r) => referenceOf(r)],
  ['Id', (r) => r.id],
  ['Form', (r) => (r.kind === 'quote' ? 'Free quote' : r.source === 'home' ? 'Home consultation' : 'Contact')],
  ['Status', (r) => r.status],
  ['Handled at', (r) => r.handledAt ?? ''],
  ['First name', (r) => r.contact.firstName],
  ['Last name', (r) => r.contact.lastName],
  ['E-mail', (r) => r.contact.email],
  ['Phone', (r) => r.contact.phone],
  ['Message', (r) => r.message ?? ''],
  ['State', (r) => r.quote?.state ?? ''],
  ['Preferred contact', (r) => r.quote?.preferredContact ?? ''],
  ['Categories', (r) => r.quote?.categories.map((c) => c.name).join('; ') ?? ''],
  ['Courses', (r) => r.quote?.courses.map((c) => `${c.code} ${c.title}`).join('; ') ?? ''],
  ['Experience', (r) => r.quote?.experience ?? ''],
  ['Goals', (r) => r.quote?.goals ?? ''],
  ['Additional info', (r) => r.quote?.additionalInfo ?? ''],
  ['Consent: share with partner RTO', (r) => consentCell(r.consents?.partnerRto)],
  [
    'Consent: marketing',
    (r) =>
      r.marketingWithdrawn ? `Withdrawn ${r.marketingWithdrawn.at.slice(0, 10)}` : consentCell(r.consents?.marketing),
  ],
  ['Staff e-mail', (r) => r.mail.staff.state],
  ['Visitor e-mail', (r) => r.mail.ack.state],
  ['Consent wording version', (r) => r.consentVersion ?? ''],
];

/** Yes or No; empty for inquiries stored before the forms asked. */
const consentCell = (given: boolean | undefined) => (given === undefined ? '' : given ? 'Yes' : 'No');

/**
 * One CSV cell: a value a spreadsheet would run as a formula (= + - @, or a leading tab or CR) gets a
 * leading apostrophe; then every cell is quoted (RFC 4180, quotes doubled), so no value is ever read
 * as a number, date or anything else but text.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;
export const csvHeader = () => csvLine(CSV_COLUMNS.map(([name]) => name));
export const csvRow = (record: InquiryRecord) => csvLine(CSV_COLUMNS.map(([, get]) => get(record)));

/** The inquiries as CSV (header row, CRLF line ends, as spreadsheets expect). */
export function inquiriesToCsv(records: InquiryRecord[]): string {
  return csvHeader() + records.map(csvRow).join('');
}

/**
 * Every inquiry as a CSV stream (a byte-order mark so spreadsheets read UTF-8, then the header row, then
 * the rows newest first), read a batch at a time as the client takes it: never all in memory at once.
 */
export function inquiriesCsvStream(): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let batches: AsyncGenerator<InquiryRecord[]> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvHeader()}`));
    },
    async pull(controller) {
      batches ??= allInquiries();
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(csvRow).join('')));
    },
    async cancel() {
      await batches?.return(undefined);
    },
  });
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
 * Replaces an inquiry's personal fields (name, e-mail, phone, message, free-text answers, staff notes) with
 * placeholders and notes when; the reference, dates, status and chosen qualifications stay, so the counts
 * and the audit trail still add up. The inbox index is updated, so a search no longer finds the person.
 */
export async function eraseInquiryPersonalData(id: string, now = new Date()): Promise<InquiryRecord | null> {
  const record = await updateInquiry(id, (current): InquiryRecord => {
    const common = { contact: { ...ERASED_CONTACT }, notes: [], erasedAt: now.toISOString() };
    return current.kind === 'contact'
      ? { ...current, ...common, message: 'Erased on request.' }
      : {
          ...current,
          ...common,
          quote: { ...current.quote, mobileNumber: '', experience: '', goals: '', additionalInfo: '' },
        };
  });
  if (record) await indexOrMarkStale([indexEntry(record)]);
  return record;
}
