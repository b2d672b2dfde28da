import { randomBytes } from 'node:crypto';
import { dataStore, EDIT_RETRIES, retryDelayMs } from './blobs.ts';
import { idsByMonth, indexOrMarkStale, pageOfIds, readSummary, totals, type IndexEntry, type InboxCounts, type InboxFilter } from './inquiry-index.ts';
import type { ContactSource } from '../schemas/inquiry.ts';

/**
 * The inquiries store: every contact message, home consultation request and free-quote request,
 * written before any e-mail is tried so no lead is ever lost (DESIGN "Forms store first, then mail").
 *
 * Keys:  inquiry/{id}        the record (JSON)
 *        mail-pending/{id}   marker while any of its e-mails still waits for delivery, so the retry
 *                            job looks at a handful of markers instead of every inquiry ever received.
 *        index/...           the staff inbox's index: ids by month with their status, counts per status
 *                            (src/server/inquiry-index.ts), so a page never reads every record.
 * Ids sort by time (ISO timestamp first), so newest first is a reverse sort of the keys.
 */

export type InquiryKind = 'contact' | 'quote';
export type InquirySource = ContactSource | 'quote';
export type InquiryStatus = 'new' | 'handled';
export type MailKind = 'staff' | 'ack';
export const MAIL_KINDS: readonly MailKind[] = ['staff', 'ack'];

export interface MailDelivery {
  /**
   * sending: a sender holds it until nextAttemptAt (a new inquiry's request holds it first);
   * pending: waiting for a retry at nextAttemptAt; sent; failed: gave up after the last attempt.
   */
  state: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: number;
  /** Derived from inquiry id + message kind; the same on every attempt, so a retry never sends twice. */
  idempotencyKey: string;
  nextAttemptAt?: string;
  lastAttemptAt?: string;
  lastError?: string;
  sentAt?: string;
  providerId?: string;
  via?: 'resend' | 'outbox';
}

export interface InquiryContact {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

export interface QuoteDetails {
  mobileNumber: string;
  preferredContact: string;
  state: string;
  selectedCategories: string[];
  selectedCourses: string[];
  /** The full chosen categories and courses as they were when the request came in. */
  categories: { slug: string; name: string }[];
  courses: { code: string; title: string; level: string; category: string }[];
  experience: string;
  goals: string;
  additionalInfo: string;
  /** Step 3's "Not sure" (suggest from the experience); missing on requests stored before it was offered. */
  notSure?: boolean;
  /** Codes of the indicative result shown to the visitor and repeated in the acknowledgement, best first. */
  matches?: string[];
}

/** The two optional consents every form asks for (privacy notice); both false unless the visitor ticked them. */
export interface InquiryConsents {
  /** May share the details with the partner RTO that would assess the visitor. */
  partnerRto: boolean;
  /** May send marketing e-mails. */
  marketing: boolean;
}

/** From a validated form (the schemas default both to false). */
export const consentsFrom = (form: { consentPartnerRto: boolean; consentMarketing: boolean }): InquiryConsents => ({
  partnerRto: form.consentPartnerRto === true,
  marketing: form.consentMarketing === true,
});

export interface InquiryRecord {
  id: string;
  kind: InquiryKind;
  source: InquirySource;
  createdAt: string;
  status: InquiryStatus;
  handledAt: string | null;
  /** How many times the status changed (absent: never). Orders status changes in the inbox index. */
  statusRev?: number;
  contact: InquiryContact;
  /** Contact and consultation messages. */
  message?: string;
  quote?: QuoteDetails;
  /** Missing only on inquiries stored before the forms asked for consent. */
  consents?: InquiryConsents;
  mail: Record<MailKind, MailDelivery>;
}

export type NewInquiry =
  | { kind: 'contact'; source: ContactSource; contact: InquiryContact; message: string; consents?: InquiryConsents }
  | { kind: 'quote'; source: 'quote'; contact: InquiryContact; quote: QuoteDetails; consents?: InquiryConsents };

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

export function mailIdempotencyKey(inquiryId: string, kind: MailKind): string {
  return `inquiry-${inquiryId}-${kind}`;
}

/**
 * Stores a new inquiry (strongly consistent) with both e-mails pending, and its pending-mail marker.
 * The marker is written first: a marker without a record is harmless (the retry job drops it), a
 * record without a marker would never be retried.
 */
export async function createInquiry(input: NewInquiry, now = new Date()): Promise<InquiryRecord> {
  for (;;) {
    const id = newInquiryId(now);
    const leaseUntil = new Date(now.getTime() + SEND_LEASE_MS).toISOString();
    // The request that stores the inquiry sends its e-mails at once, so it starts out holding them.
    const mail = Object.fromEntries(
      MAIL_KINDS.map((kind) => [kind, { state: 'sending', attempts: 0, idempotencyKey: mailIdempotencyKey(id, kind), nextAttemptAt: leaseUntil }]),
    ) as Record<MailKind, MailDelivery>;
    const record: InquiryRecord = {
      id,
      kind: input.kind,
      source: input.source,
      createdAt: now.toISOString(),
      status: 'new',
      handledAt: null,
      contact: input.contact,
      ...(input.kind === 'contact' ? { message: input.message } : { quote: input.quote }),
      // Not given unless the form said so (the functions always pass what the visitor chose).
      consents: { partnerRto: input.consents?.partnerRto === true, marketing: input.consents?.marketing === true },
      mail,
    };
    await store().setJSON(pendingKey(id), { id }, { onlyIfNew: true });
    const { modified } = await store().setJSON(recordKey(id), record, { onlyIfNew: true });
    if (modified) {
      await indexOrMarkStale([indexEntry(record)]);
      return record;
    }
    // Same millisecond and same 32 random bits: practically never; take another id.
  }
}

export async function getInquiry(id: string): Promise<InquiryRecord | null> {
  if (!isInquiryId(id)) return null;
  return ((await store().get(recordKey(id), { type: 'json' })) as InquiryRecord | null) ?? null;
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
    const current = await readWithEtag(recordKey(id));
    if (!current) return null;
    const next = await change(structuredClone(current.data));
    if (!next) return current.data;
    const { modified } = await store().setJSON(recordKey(id), next, { onlyIfMatch: current.etag });
    if (modified) return next;
    await new Promise((resolve) => setTimeout(resolve, retryDelayMs(EDIT_RETRIES, attempt)));
  }
  throw new Error(`Inquiry ${id} kept changing while it was being updated`);
}

/**
 * A record and the ETag it was read at. Netlify answers reads with an ETag; the local blob server
 * (unit tests, `netlify serve`) only lists them. Listing before reading keeps that path safe: a
 * write in between makes the listed ETag stale, so the conditional write fails and is retried.
 */
async function readWithEtag(key: string): Promise<{ data: InquiryRecord; etag: string } | null> {
  const read = await store().getWithMetadata(key, { type: 'json' });
  if (!read) return null;
  if (read.etag) return { data: read.data as InquiryRecord, etag: read.etag };
  const listed = (await store().list({ prefix: key })).blobs.find((blob) => blob.key === key);
  const data = listed ? ((await store().get(key, { type: 'json' })) as InquiryRecord | null) : null;
  return listed && data ? { data, etag: listed.etag } : null;
}

const indexEntry = (record: InquiryRecord): IndexEntry => ({ id: record.id, status: record.status, statusRev: record.statusRev ?? 0 });

/** Every record's index entry: reads every record, so only for (re)building the index. */
async function indexEntriesOfAllRecords(): Promise<IndexEntry[]> {
  const records = await mapLimited(await listIds(RECORD_PREFIX), 16, (id) => getInquiry(id));
  return records.filter((r): r is InquiryRecord => r !== null).map(indexEntry);
}

export interface InboxPage {
  items: InquiryRecord[];
  /** How many match the filter. */
  total: number;
  counts: InboxCounts;
}

/**
 * One page of the staff inbox, newest first, from the index: the counts come from its summary and only
 * the page's records are read. `total` counts the inquiries matching the filter.
 */
export async function listInquiries({ status = 'all', offset = 0, limit = 50 }: { status?: InboxFilter; offset?: number; limit?: number } = {}): Promise<InboxPage> {
  const summary = await readSummary(indexEntriesOfAllRecords);
  const counts = totals(summary);
  const ids = offset >= counts[status] ? [] : await pageOfIds(summary, { filter: status, offset, limit });
  const items = (await Promise.all(ids.map((id) => getInquiry(id)))).filter((r): r is InquiryRecord => r !== null); // at most 100
  return { items, total: counts[status], counts };
}

/** Every inquiry, newest first, a batch at a time (the CSV export). */
export async function* allInquiries(batchSize = 200): AsyncGenerator<InquiryRecord[]> {
  const summary = await readSummary(indexEntriesOfAllRecords);
  for await (const ids of idsByMonth(summary)) {
    for (let start = 0; start < ids.length; start += batchSize) {
      const records = await mapLimited(ids.slice(start, start + batchSize), 16, (id) => getInquiry(id));
      yield records.filter((r): r is InquiryRecord => r !== null);
    }
  }
}

export async function listAllInquiries(): Promise<InquiryRecord[]> {
  const all: InquiryRecord[] = [];
  for await (const batch of allInquiries()) all.push(...batch);
  return all;
}

/** Staff inbox: mark handled (with the time) or back to new. Null when there is no such inquiry. */
export async function setInquiryStatus(id: string, status: InquiryStatus, now = new Date()): Promise<InquiryRecord | null> {
  const record = await updateInquiry(id, (current) =>
    current.status === status
      ? null
      : { ...current, status, handledAt: status === 'handled' ? now.toISOString() : null, statusRev: (current.statusRev ?? 0) + 1 },
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
  ['Consent: marketing', (r) => consentCell(r.consents?.marketing)],
  ['Staff e-mail', (r) => r.mail.staff.state],
  ['Visitor e-mail', (r) => r.mail.ack.state],
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
