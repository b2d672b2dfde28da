import { randomBytes } from 'node:crypto';
import { updateJSON } from './blobs';
import { RefusedInput } from './http';
import { getInquiry } from './inquiries';
import { ACCEPTED_FILES, CONTENT_TYPES, sanitiseFileName, sniffDocument } from './file-types';
import {
  CHUNK_BYTES,
  EVIDENCE_RETENTION_DAYS,
  FILE_NAME_MAX,
  MAX_APPLICANT_BYTES,
  MAX_FILE_BYTES,
  STALE_UPLOAD_HOURS,
  type ApplicantRecord,
  type EvidenceFile,
} from '../schemas/applicant';
import type { ApplicantSession } from './applicant-links';
import {
  DAY_MS,
  UNKNOWN_FILE,
  applicants,
  checklistOf,
  chunkKey,
  event,
  evidence,
  getApplicant,
  updateApplicant,
  uploadKey,
  usedBytes,
} from './applicant-records';

/**
 * Applicant evidence: uploads in chunks into the private `evidence` store, checked for type, size and the
 * applicant's total; the staff download; deletion with the applicant; and the scheduled retention sweep.
 */

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

/** Every stored file and upload of an applicant, gone (metadata and chunks). */
export async function deleteEvidenceOf(record: ApplicantRecord): Promise<number> {
  const ids = [...record.files.map((f) => f.id), ...record.pending.map((p) => p.id)];
  for (const id of ids) {
    await deleteChunks(id);
    await evidence().delete(uploadKey(id));
  }
  return ids.length;
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
