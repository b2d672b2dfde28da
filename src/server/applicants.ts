import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { COUNTER_RETRIES, dataStore, updateJSON } from './blobs';
import { bearerToken, unauthorized } from './auth';
import { RefusedInput } from './http';
import { eraseInquiryPersonalData, getInquiry, referenceOf, type InquiryRecord } from './inquiries';
import { resultOfQuote } from './quote-result';
import { loadCatalogue } from './catalogue';
import { ACCEPTED_FILES, CONTENT_TYPES, sanitiseFileName, sniffDocument } from './file-types';
import {
  ApplicantRecordSchema,
  CHUNK_BYTES,
  EVIDENCE_RETENTION_DAYS,
  FILE_NAME_MAX,
  LINK_LIFETIME_DAYS,
  MAX_APPLICANT_BYTES,
  MAX_FILE_BYTES,
  STAGE_LABELS,
  STALE_UPLOAD_HOURS,
  type ApplicantRecord,
  type ApplicantView,
  type ChecklistItem,
  type EvidenceFile,
  type Review,
  type Stage,
  type StaffApplicantView,
} from '../schemas/applicant';
import type { StaffRef } from '../schemas/inquiry-record';

/**
 * Applicants: the private page an inquirer opens from a link (/apply), with the evidence they send.
 *
 * `applicants` store:  applicant/{inquiryId}  the record (src/schemas/applicant.ts): link token hashes, stage,
 *                                               files, staff reviews, events
 *                      token/{sha256}         which applicant a link token opens, and until when
 *                      erased/{inquiryId}     the anonymous line left when staff erase an applicant's data
 * `evidence` store:    upload/{id}            an upload's metadata (owner, name, size, item, chunks received)
 *                      chunk/{id}/{n}         its n-th chunk (4 MB, the last one shorter)
 * The evidence store is private: no public route reads it, and the staff download sends no cache headers
 * but `private, no-store`. Tokens are 256 random bits; only their SHA-256 is stored.
 */

const applicants = () => dataStore('applicants');
const evidence = () => dataStore('evidence');
const recordKey = (inquiryId: string) => `applicant/${inquiryId}`;
const tokenKey = (hash: string) => `token/${hash}`;
const uploadKey = (id: string) => `upload/${id}`;
const chunkKey = (id: string, n: number) => `chunk/${id}/${n}`;
const DAY_MS = 24 * 60 * 60_000;
/** Link tokens kept per applicant (the oldest go first). */
const MAX_TOKENS = 10;
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

function parseApplicant(stored: unknown): ApplicantRecord | null {
  const parsed = v.safeParse(ApplicantRecordSchema, stored);
  if (!parsed.success) {
    console.error(`[applicants] a stored applicant record does not parse: ${parsed.issues[0].message}`);
    return null;
  }
  return parsed.output;
}

export async function getApplicant(inquiryId: string): Promise<ApplicantRecord | null> {
  return parseApplicant(await applicants().get(recordKey(inquiryId), { type: 'json' }));
}

const newApplicant = (inquiryId: string, now: Date): ApplicantRecord => ({
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

/**
 * Changes an applicant record with a conditional write (many uploads of one applicant may land at once).
 * `change` may throw a RefusedInput, which leaves the record as it was.
 */
async function updateApplicant(
  inquiryId: string,
  change: (record: ApplicantRecord) => ApplicantRecord | undefined,
  { create = false, now = new Date() } = {},
): Promise<ApplicantRecord | null> {
  const updated = await updateJSON<unknown>(
    applicants(),
    recordKey(inquiryId),
    (stored) => {
      const current = stored === null ? (create ? newApplicant(inquiryId, now) : null) : parseApplicant(stored);
      if (!current) return undefined;
      const next = change(structuredClone(current));
      return next === undefined ? (stored === null ? current : undefined) : v.parse(ApplicantRecordSchema, next);
    },
    COUNTER_RETRIES,
  );
  return updated === null ? null : parseApplicant(updated);
}

const event = (record: ApplicantRecord, type: ApplicantRecord['events'][number]['type'], detail: string, now: Date) => {
  record.events = [...record.events, { at: now.toISOString(), type, detail }].slice(-MAX_EVENTS);
};

/* ---------- links ---------- */

export function siteUrl(): string {
  return (process.env.SITE_URL || process.env.URL || 'https://rplpathways.com.au').replace(/\/$/, '');
}

/**
 * A fresh private link to an inquiry's applicant page (a quote inquiry's only), valid LINK_LIFETIME_DAYS:
 * 256 random bits in the address's fragment, so it never reaches a server log. Null when there is no such
 * quote inquiry or its data was erased.
 */
export async function issueApplicantLink(inquiryId: string, now = new Date()): Promise<string | null> {
  const inquiry = await getInquiry(inquiryId);
  if (inquiry?.kind !== 'quote' || inquiry.erasedAt) return null;
  const token = randomBytes(32).toString('base64url');
  const hash = hashToken(token);
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_DAYS * DAY_MS).toISOString();
  // The lookup entry first: an entry without the record's hash opens nothing.
  await applicants().setJSON(tokenKey(hash), { inquiryId, expiresAt });
  let dropped: string[] = [];
  await updateApplicant(
    inquiryId,
    (record) => {
      const live = record.tokens.filter((t) => Date.parse(t.expiresAt) > now.getTime());
      const all = [...live, { hash, issuedAt: now.toISOString(), expiresAt }];
      dropped = [
        ...record.tokens.filter((t) => !live.includes(t)),
        ...all.slice(0, Math.max(0, all.length - MAX_TOKENS)),
      ].map((t) => t.hash);
      record.tokens = all.slice(-MAX_TOKENS);
      return record;
    },
    { create: true, now },
  );
  await Promise.all(dropped.map((old) => applicants().delete(tokenKey(old))));
  return `${siteUrl()}/apply#token=${token}`;
}

/** Staff revoke every link of an applicant: each one stops working at once. */
export async function revokeLinks(inquiryId: string, now = new Date()): Promise<ApplicantRecord | null> {
  let hashes: string[] = [];
  const record = await updateApplicant(inquiryId, (current) => {
    hashes = current.tokens.map((t) => t.hash);
    current.tokens = [];
    event(current, 'link-revoked', `${hashes.length}`, now);
    return current;
  });
  await Promise.all(hashes.map((hash) => applicants().delete(tokenKey(hash))));
  return record;
}

/** Notes that a link e-mail was asked for; false when one was asked for less than `spacingMs` ago. */
export async function claimLinkMail(inquiryId: string, spacingMs: number, now = new Date()): Promise<boolean> {
  let claimed = false;
  await updateApplicant(
    inquiryId,
    (record) => {
      if (record.lastLinkMailAt && now.getTime() - Date.parse(record.lastLinkMailAt) < spacingMs) return undefined;
      claimed = true;
      record.lastLinkMailAt = now.toISOString();
      return record;
    },
    { create: true, now },
  );
  return claimed;
}

export interface ApplicantSession {
  inquiry: InquiryRecord;
  record: ApplicantRecord;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The applicant a request's link token opens: `Authorization: Bearer <token>`, a token whose hash is stored,
 * not expired, not revoked, of an inquiry that still exists. Otherwise a 401 that says to ask for a new link.
 */
export async function applicantOf(
  request: Request,
  now = new Date(),
): Promise<{ ok: true; session: ApplicantSession } | { ok: false; response: Response }> {
  const token = bearerToken(request);
  if (!token) return { ok: false, response: unauthorized('Open this page from the link in your e-mail.') };
  const refused = { ok: false as const, response: unauthorized(INVALID_LINK) };
  if (!TOKEN_SHAPE.test(token)) return refused;
  const hash = hashToken(token);
  const entry = (await applicants().get(tokenKey(hash), { type: 'json' })) as {
    inquiryId?: unknown;
    expiresAt?: unknown;
  } | null;
  if (!entry || typeof entry.inquiryId !== 'string' || typeof entry.expiresAt !== 'string') return refused;
  if (Date.parse(entry.expiresAt) <= now.getTime()) return refused;
  const record = await getApplicant(entry.inquiryId);
  const stored = record?.tokens.find((t) => t.hash === hash);
  if (!record || !stored || Date.parse(stored.expiresAt) <= now.getTime()) return refused;
  const inquiry = await getInquiry(entry.inquiryId);
  if (!inquiry || inquiry.erasedAt) return refused;
  return { ok: true, session: { inquiry, record } };
}

/* ---------- what the applicant and staff see ---------- */

const usedBytes = (record: ApplicantRecord) =>
  record.files.reduce((sum, f) => sum + f.size, 0) + record.pending.reduce((sum, p) => sum + p.size, 0);
const reviewsOf = (record: ApplicantRecord) => new Map(record.reviews);

export async function applicantView({ inquiry, record }: ApplicantSession): Promise<ApplicantView> {
  const { qualifications, checklist } = await checklistOf(inquiry);
  const reviews = reviewsOf(record);
  return {
    reference: referenceOf(inquiry),
    firstName: inquiry.contact.firstName,
    qualifications,
    stage: record.stage,
    stages: record.stages,
    checklist: checklist.map((item) => {
      const review = reviews.get(item.id);
      return review ? { ...item, review: { status: review.status, note: review.note, at: review.at } } : item;
    }),
    files: record.files,
    usedBytes: usedBytes(record),
    limits: { fileBytes: MAX_FILE_BYTES, applicantBytes: MAX_APPLICANT_BYTES, chunkBytes: CHUNK_BYTES },
    events: record.events.filter((e) => e.type === 'upload' || e.type === 'remove'),
  };
}

/** The staff view of an inquiry's applicant; an inquiry nobody opened a page for yet has an empty one. */
export async function staffApplicantView(inquiryId: string, now = new Date()): Promise<StaffApplicantView | null> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return null;
  const record = (await getApplicant(inquiryId)) ?? newApplicant(inquiryId, new Date(inquiry.createdAt));
  const { qualifications, checklist } = await checklistOf(inquiry);
  const reviews = reviewsOf(record);
  return {
    reference: referenceOf(inquiry),
    qualifications,
    stage: record.stage,
    stages: record.stages,
    checklist: checklist.map((item) => {
      const review = reviews.get(item.id);
      return review ? { ...item, review } : item;
    }),
    files: record.files,
    usedBytes: usedBytes(record),
    events: record.events,
    linkActive: record.tokens.some((t) => Date.parse(t.expiresAt) > now.getTime()),
    ...(record.filesExpiredAt ? { filesExpiredAt: record.filesExpiredAt } : {}),
  };
}

/* ---------- uploads ---------- */

interface UploadMeta {
  id: string;
  inquiryId: string;
  name: string;
  size: number;
  item: string;
  startedAt: string;
  /** Chunks stored so far, in order: chunk n is taken once chunks 0..n-1 are. */
  received: number;
  complete: boolean;
}

const chunkCount = (size: number) => Math.ceil(size / CHUNK_BYTES);
export const chunkSize = (size: number, n: number) => Math.min(CHUNK_BYTES, size - n * CHUNK_BYTES);
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function readUpload(inquiryId: string, uploadId: string): Promise<UploadMeta> {
  const meta = (await evidence().get(uploadKey(uploadId), { type: 'json' })) as UploadMeta | null;
  // Another applicant's upload is answered exactly like one that does not exist.
  if (!meta || meta.inquiryId !== inquiryId) throw new RefusedInput(404, UNKNOWN_FILE);
  return meta;
}

/** Starts an upload: checks the item, the size and the applicant's total, reserves the size. */
export async function startUpload(
  { inquiry }: ApplicantSession,
  input: { name: string; size: number; item: string },
  now = new Date(),
): Promise<{ uploadId: string; chunkBytes: number; chunks: number }> {
  if (input.size > MAX_FILE_BYTES)
    throw new RefusedInput(413, `This file is too large: each file may be at most ${mib(MAX_FILE_BYTES)}.`, 'size');
  if (input.item !== 'general' && !(await checklistOf(inquiry)).checklist.some((item) => item.id === input.item))
    throw new RefusedInput(400, 'Unknown checklist item', 'item');
  const id = randomBytes(16).toString('hex');
  const meta: UploadMeta = {
    id,
    inquiryId: inquiry.id,
    name: sanitiseFileName(input.name, FILE_NAME_MAX),
    size: input.size,
    item: input.item,
    startedAt: now.toISOString(),
    received: 0,
    complete: false,
  };
  await updateApplicant(
    inquiry.id,
    (record) => {
      if (usedBytes(record) + input.size > MAX_APPLICANT_BYTES)
        throw new RefusedInput(
          413,
          `There is no room for this file: everything you send may be at most ${mib(MAX_APPLICANT_BYTES)} (${mib(usedBytes(record))} used).`,
          'size',
        );
      record.pending.push({ id, size: input.size, startedAt: now.toISOString() });
      return record;
    },
    { create: true, now },
  );
  await evidence().setJSON(uploadKey(id), meta);
  return { uploadId: id, chunkBytes: CHUNK_BYTES, chunks: chunkCount(input.size) };
}

/** Drops an upload that did not complete: its chunks, its metadata and its reservation. */
async function discardUpload(meta: UploadMeta): Promise<void> {
  await deleteChunks(meta.id);
  await evidence().delete(uploadKey(meta.id));
  await updateApplicant(meta.inquiryId, (record) => {
    if (!record.pending.some((p) => p.id === meta.id)) return undefined;
    record.pending = record.pending.filter((p) => p.id !== meta.id);
    return record;
  });
}

async function deleteChunks(id: string): Promise<void> {
  const { blobs } = await evidence().list({ prefix: `chunk/${id}/` });
  await Promise.all(blobs.map((blob) => evidence().delete(blob.key)));
}

/**
 * Stores chunk n of an upload. Chunks come in order (n may be the next one, or one already stored: a resent
 * chunk replaces itself, so resending is harmless); each must have exactly its size. The first chunk's
 * content must be one of the accepted types, else the upload is dropped at once.
 */
export async function putChunk(
  { inquiry }: ApplicantSession,
  uploadId: string,
  n: number,
  body: (maxBytes: number) => Promise<Uint8Array<ArrayBuffer> | null>,
): Promise<{ received: number; chunks: number }> {
  const meta = await readUpload(inquiry.id, uploadId);
  if (meta.complete) throw new RefusedInput(409, 'This file is already complete.');
  const chunks = chunkCount(meta.size);
  if (n >= chunks) throw new RefusedInput(400, `There is no chunk ${n}: this file has ${chunks}.`);
  if (n > meta.received) throw new RefusedInput(409, `Send chunk ${meta.received} first.`);
  const expected = chunkSize(meta.size, n);
  const bytes = await body(expected);
  if (!bytes || bytes.byteLength !== expected)
    throw new RefusedInput(400, `Chunk ${n} must be exactly ${expected} bytes.`);
  if (n === 0 && !sniffDocument(bytes)) {
    await discardUpload(meta);
    throw new RefusedInput(415, `${meta.name} was not accepted. ${ACCEPTED_FILES}`);
  }
  // The body reader hands a view of its own buffer; copied only if the view is part of a larger one.
  const exact = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes : bytes.slice();
  await evidence().set(chunkKey(uploadId, n), exact.buffer);
  let received = meta.received;
  if (n === meta.received) {
    const updated = (await updateJSON<UploadMeta>(evidence(), uploadKey(uploadId), (current) =>
      current && current.received === n ? { ...current, received: n + 1 } : undefined,
    )) as UploadMeta | null;
    received = updated?.received ?? n + 1;
  }
  return { received, chunks };
}

/** Completes an upload: every chunk there, the content an accepted type; the file joins the applicant's list. */
export async function completeUpload(
  { inquiry }: ApplicantSession,
  uploadId: string,
  now = new Date(),
): Promise<EvidenceFile> {
  const meta = await readUpload(inquiry.id, uploadId);
  const chunks = chunkCount(meta.size);
  if (meta.complete) {
    const done = (await getApplicant(inquiry.id))?.files.find((f) => f.id === uploadId);
    if (done) return done;
  }
  if (meta.received < chunks) throw new RefusedInput(409, `Chunk ${meta.received} is missing.`);
  const { blobs } = await evidence().list({ prefix: `chunk/${uploadId}/` });
  const head = await evidence().get(chunkKey(uploadId, 0), { type: 'arrayBuffer' });
  const kind = head ? sniffDocument(new Uint8Array(head)) : null;
  if (blobs.length !== chunks || !head || head.byteLength !== chunkSize(meta.size, 0) || !kind) {
    await discardUpload(meta);
    throw new RefusedInput(
      kind ? 409 : 415,
      kind ? 'The file arrived incomplete. Please send it again.' : ACCEPTED_FILES,
    );
  }
  const file: EvidenceFile = {
    id: uploadId,
    name: meta.name,
    size: meta.size,
    kind,
    item: meta.item,
    uploadedAt: now.toISOString(),
  };
  await updateApplicant(inquiry.id, (record) => {
    if (record.files.some((f) => f.id === uploadId)) return undefined;
    record.pending = record.pending.filter((p) => p.id !== uploadId);
    record.files.push(file);
    event(record, 'upload', file.name, now);
    return record;
  });
  await evidence().setJSON(uploadKey(uploadId), { ...meta, complete: true });
  return file;
}

/** The applicant removes a file they sent (or an upload they gave up). */
export async function removeUpload({ inquiry }: ApplicantSession, uploadId: string, now = new Date()): Promise<void> {
  await readUpload(inquiry.id, uploadId);
  await deleteChunks(uploadId);
  await evidence().delete(uploadKey(uploadId));
  await updateApplicant(inquiry.id, (record) => {
    const file = record.files.find((f) => f.id === uploadId);
    record.pending = record.pending.filter((p) => p.id !== uploadId);
    record.files = record.files.filter((f) => f.id !== uploadId);
    if (file) event(record, 'remove', file.name, now);
    return record;
  });
}

/* ---------- staff ---------- */

/** A stored file as a stream of its chunks, read one at a time; null when the inquiry has no such file. */
export async function fileStream(
  inquiryId: string,
  fileId: string,
): Promise<{ file: EvidenceFile; contentType: string; body: ReadableStream<Uint8Array> } | null> {
  const file = (await getApplicant(inquiryId))?.files.find((f) => f.id === fileId);
  if (!file) return null;
  let n = 0;
  const chunks = chunkCount(file.size);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (n >= chunks) {
        controller.close();
        return;
      }
      const bytes = await evidence().get(chunkKey(fileId, n), { type: 'arrayBuffer' });
      if (!bytes) {
        controller.error(new Error(`chunk ${n} of ${fileId} is missing`));
        return;
      }
      n += 1;
      controller.enqueue(new Uint8Array(bytes));
    },
  });
  return { file, contentType: CONTENT_TYPES[file.kind], body };
}

/** Staff mark a checklist item accepted or needing more (with a note). */
export async function reviewItem(
  inquiryId: string,
  itemId: string,
  review: { status: Review['status']; note: string },
  by: StaffRef,
  now = new Date(),
): Promise<{ record: ApplicantRecord; item: ChecklistItem } | null> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return null;
  const item = (await checklistOf(inquiry)).checklist.find((entry) => entry.id === itemId);
  if (!item) throw new RefusedInput(404, 'There is no such checklist item.');
  const record = await updateApplicant(
    inquiryId,
    (current) => {
      current.reviews = [
        ...current.reviews.filter(([id]) => id !== itemId),
        [itemId, { ...review, by, at: now.toISOString() }],
      ];
      event(current, 'review', `${item.text}: ${review.status}`, now);
      return current;
    },
    { create: true, now },
  );
  return record ? { record, item } : null;
}

/** Staff move the application to a stage; the date of each stage reached is kept. */
export async function setStage(
  inquiryId: string,
  stage: Stage,
  now = new Date(),
): Promise<{ record: ApplicantRecord; changed: boolean } | null> {
  if (!(await getInquiry(inquiryId))) return null;
  let changed = false;
  const record = await updateApplicant(
    inquiryId,
    (current) => {
      if (current.stage === stage) return undefined;
      changed = true;
      current.stage = stage;
      current.stages = [...current.stages, { stage, at: now.toISOString() }];
      event(current, 'stage', STAGE_LABELS[stage], now);
      return current;
    },
    { create: true, now },
  );
  return record ? { record, changed } : null;
}

/** Every stored file and upload of an applicant, gone (metadata and chunks). */
async function deleteEvidenceOf(record: ApplicantRecord): Promise<number> {
  const ids = [...record.files.map((f) => f.id), ...record.pending.map((p) => p.id)];
  for (const id of ids) {
    await deleteChunks(id);
    await evidence().delete(uploadKey(id));
  }
  return ids.length;
}

/**
 * Erasure on request (APP 11 / APP 13): the files, the applicant record, every link, and the inquiry's
 * personal fields go at once; what stays is an anonymous line (when, by whom, how many files).
 */
export async function eraseApplicant(inquiryId: string, by: StaffRef, now = new Date()): Promise<boolean> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return false;
  const record = await getApplicant(inquiryId);
  const files = record ? await deleteEvidenceOf(record) : 0;
  if (record) await Promise.all(record.tokens.map((t) => applicants().delete(tokenKey(t.hash))));
  await applicants().delete(recordKey(inquiryId));
  await eraseInquiryPersonalData(inquiryId, now);
  await applicants().setJSON(`erased/${inquiryId}`, { at: now.toISOString(), by: by.username, files });
  return true;
}

/* ---------- retention (scheduled) ---------- */

/**
 * The scheduled clean-up: uploads never completed are removed after STALE_UPLOAD_HOURS; every file of an
 * inquiry handled more than EVIDENCE_RETENTION_DAYS ago is deleted (the record notes when).
 */
export async function sweepEvidence(now = new Date()): Promise<{ staleUploads: number; expiredFiles: number }> {
  const summary = { staleUploads: 0, expiredFiles: 0 };
  for await (const page of evidence().list({ prefix: 'upload/', paginate: true })) {
    for (const blob of page.blobs) {
      const meta = (await evidence().get(blob.key, { type: 'json' })) as UploadMeta | null;
      if (meta && !meta.complete && now.getTime() - Date.parse(meta.startedAt) > STALE_UPLOAD_HOURS * 3_600_000) {
        await discardUpload(meta);
        summary.staleUploads += 1;
      }
    }
  }
  for await (const page of applicants().list({ prefix: 'applicant/', paginate: true })) {
    for (const blob of page.blobs) {
      const inquiryId = blob.key.slice('applicant/'.length);
      const record = await getApplicant(inquiryId);
      if (!record || record.files.length === 0) continue;
      const inquiry = await getInquiry(inquiryId);
      const closedAt = inquiry?.status === 'handled' && inquiry.handledAt ? Date.parse(inquiry.handledAt) : null;
      if (inquiry && (closedAt === null || now.getTime() - closedAt < EVIDENCE_RETENTION_DAYS * DAY_MS)) continue;
      for (const file of record.files) {
        await deleteChunks(file.id);
        await evidence().delete(uploadKey(file.id));
      }
      summary.expiredFiles += record.files.length;
      await updateApplicant(inquiryId, (current) => {
        const gone = new Set(record.files.map((f) => f.id));
        current.files = current.files.filter((f) => !gone.has(f.id));
        current.filesExpiredAt = now.toISOString();
        event(current, 'files-expired', `${gone.size}`, now);
        return current;
      });
    }
  }
  return summary;
}
