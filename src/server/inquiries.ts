import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { dataStore, EDIT_RETRIES, retryDelayMs, serialised } from './blobs.ts';
import {
  idsByMonth,
  indexOrMarkStale,
  readSummary,
  searchText,
  type DayRange,
  type IndexEntry,
} from './inquiry-index.ts';
import {
  InquiryRecordSchema,
  MAIL_KINDS,
  REFERENCE_ALPHABET,
  REFERENCE_PATTERN,
  referenceOf,
  type InquiryConsents,
  type InquiryRecord,
  type InquiryStatus,
  type MailDelivery,
  type MailKind,
  type NewInquiry,
} from '../schemas/inquiry-record.ts';
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

export const store = () => dataStore('inquiries');
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
export async function indexEntriesOfAllRecords(): Promise<IndexEntry[]> {
  const records = await mapLimited(await listIds(RECORD_PREFIX), 16, (id) => getInquiry(id));
  return records.filter((r): r is InquiryRecord => r !== null).map(indexEntry);
}

/** How many inquiries were received on the days of `range` (reads the month entries it touches, no record). */
export async function countInRange(range: DayRange): Promise<number> {
  let count = 0;
  for await (const ids of idsByMonth(await readSummary(indexEntriesOfAllRecords), range)) count += ids.length;
  return count;
}

/** Every inquiry (or those received on the days of `range`), newest first, a batch at a time (the CSV exports). */
export async function* allInquiries(
  batchSize = 200,
  range?: DayRange,
  concurrency = 16,
): AsyncGenerator<InquiryRecord[]> {
  const summary = await readSummary(indexEntriesOfAllRecords);
  for await (const ids of idsByMonth(summary, range)) {
    for (let start = 0; start < ids.length; start += batchSize) {
      const records = await mapLimited(ids.slice(start, start + batchSize), concurrency, (id) => getInquiry(id));
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
/** Inquiries with a staff reply still to be sent (src/server/inquiry-replies.ts). */
export const listPendingReplyIds = () => listIds('reply-pending/');
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
 * of staff replies) with
 * placeholders and notes when; the reference, dates, status and chosen qualifications stay, so the counts
 * and the audit trail still add up. The inbox index is updated, so a search no longer finds the person.
 */
export async function eraseInquiryPersonalData(id: string, now = new Date()): Promise<InquiryRecord | null> {
  const record = await updateInquiry(id, (current): InquiryRecord => {
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
  });
  if (record) await indexOrMarkStale([indexEntry(record)]);
  return record;
}
