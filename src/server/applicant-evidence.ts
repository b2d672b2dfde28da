import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { RefusedInput } from './http';
import { db, isoOf, sql } from '../platform/database';
import { ACCEPTED_FILES, CONTENT_TYPES, sanitiseFileName, sniffDocument } from './file-types';
import {
  CHUNK_BYTES,
  EVIDENCE_RETENTION_DAYS,
  EvidenceFileSchema,
  FILE_NAME_MAX,
  MAX_APPLICANT_BYTES,
  MAX_FILE_BYTES,
  STALE_UPLOAD_HOURS,
  type EvidenceFile,
} from '../schemas/applicant';
import type { ApplicantSession } from './applicant-links';
import { DAY_MS, UNKNOWN_FILE, checklistOf, chunkKey, ensureApplicant, evidence } from './applicant-records';

/**
 * Applicant evidence: uploads in parts into the private `evidence` store (`chunk/{id}/{n}`), each with its
 * evidence_files row (the facts: owner, name, size, item, parts received, state), checked for type, size and
 * the applicant's total; the staff download; deletion with the applicant; and the scheduled retention sweep.
 * Bytes are deleted before their row: if a deletion stops half way, the row is still there to find what is left.
 */

/* ---------- uploads ---------- */

interface UploadRow {
  id: string;
  inquiry_id: string;
  name: string;
  size: number;
  item: string;
  state: 'uploading' | 'complete';
  received: number;
  kind: string | null;
  uploaded_at: unknown;
}

const chunkCount = (size: number) => Math.ceil(size / CHUNK_BYTES);
export const chunkSize = (size: number, n: number) => Math.min(CHUNK_BYTES, size - n * CHUNK_BYTES);
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

const fileOf = (row: UploadRow): EvidenceFile =>
  v.parse(EvidenceFileSchema, {
    id: row.id,
    name: row.name,
    size: row.size,
    kind: row.kind,
    item: row.item,
    uploadedAt: isoOf(row.uploaded_at),
  });

async function readUpload(inquiryId: string, uploadId: string): Promise<UploadRow> {
  // Another applicant's upload is answered exactly like one that does not exist.
  const [row] = await db().query<UploadRow>(sql`
    SELECT id, inquiry_id, name, size, item, state, received, kind, uploaded_at FROM evidence_files
    WHERE id = ${uploadId} AND inquiry_id = ${inquiryId}`);
  if (!row) throw new RefusedInput(404, UNKNOWN_FILE);
  return row;
}

/**
 * Starts an upload: checks the item, the size and the applicant's total, reserves the size. The total is
 * summed and the new row inserted with the applicant row locked, so uploads started at once are counted one
 * after the other and together never pass MAX_APPLICANT_BYTES.
 */
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
  await db().transaction(async (tx) => {
    await ensureApplicant(tx, inquiry.id, now);
    await tx.query(sql`SELECT 1 FROM applicants WHERE inquiry_id = ${inquiry.id} FOR UPDATE`);
    const [{ used }] = await tx.query<{ used: number }>(sql`
      SELECT coalesce(sum(size), 0)::float8 AS used FROM evidence_files WHERE inquiry_id = ${inquiry.id}`);
    if (used + input.size > MAX_APPLICANT_BYTES)
      throw new RefusedInput(
        413,
        `There is no room for this file: everything you send may be at most ${mib(MAX_APPLICANT_BYTES)} (${mib(used)} used).`,
        'size',
      );
    await tx.query(sql`
      INSERT INTO evidence_files (id, inquiry_id, name, size, item, state, started_at)
      VALUES (${id}, ${inquiry.id}, ${sanitiseFileName(input.name, FILE_NAME_MAX)}, ${input.size}, ${input.item},
        'uploading', ${now.toISOString()})`);
  });
  return { uploadId: id, chunkBytes: CHUNK_BYTES, chunks: chunkCount(input.size) };
}

/** Every part a file can have (15 MB in 4 MB parts: 4), so a file's parts are deleted without listing the store. */
const MAX_CHUNKS = chunkCount(MAX_FILE_BYTES);

async function deleteChunks(id: string): Promise<void> {
  // Deleting a part that was never stored is a no-op.
  await Promise.all(Array.from({ length: MAX_CHUNKS }, (_, n) => evidence().delete(chunkKey(id, n))));
}

/** Drops an upload that did not complete: its parts, then its row (and with it its reservation). */
async function discardUpload(id: string): Promise<void> {
  await deleteChunks(id);
  await db().query(sql`DELETE FROM evidence_files WHERE id = ${id} AND state = 'uploading'`);
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
  const upload = await readUpload(inquiry.id, uploadId);
  if (upload.state === 'complete') throw new RefusedInput(409, 'This file is already complete.');
  const chunks = chunkCount(upload.size);
  if (n >= chunks) throw new RefusedInput(400, `There is no chunk ${n}: this file has ${chunks}.`);
  if (n > upload.received) throw new RefusedInput(409, `Send chunk ${upload.received} first.`);
  const expected = chunkSize(upload.size, n);
  const bytes = await body(expected);
  if (!bytes || bytes.byteLength !== expected)
    throw new RefusedInput(400, `Chunk ${n} must be exactly ${expected} bytes.`);
  if (n === 0 && !sniffDocument(bytes)) {
    await discardUpload(uploadId);
    throw new RefusedInput(415, `${upload.name} was not accepted. ${ACCEPTED_FILES}`);
  }
  // The body reader hands a view of its own buffer; copied only if the view is part of a larger one.
  const exact = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes : bytes.slice();
  await evidence().set(chunkKey(uploadId, n), exact.buffer);
  // Counted only when it is the next part: a resent one (or the same one sent twice at once) counts once.
  const [counted] = await db().query<{ received: number }>(sql`
    UPDATE evidence_files SET received = ${n + 1}
    WHERE id = ${uploadId} AND state = 'uploading' AND received = ${n}
    RETURNING received`);
  if (counted) return { received: counted.received, chunks };
  const [current] = await db().query<{ received: number }>(
    sql`SELECT received FROM evidence_files WHERE id = ${uploadId}`,
  );
  if (!current) {
    // Removed (or given up) while this part travelled: the part goes too.
    await evidence().delete(chunkKey(uploadId, n));
    throw new RefusedInput(404, UNKNOWN_FILE);
  }
  return { received: current.received, chunks };
}

/** Completes an upload: every chunk there, the content an accepted type; the file joins the applicant's list. */
export async function completeUpload(
  { inquiry }: ApplicantSession,
  uploadId: string,
  now = new Date(),
): Promise<EvidenceFile> {
  const upload = await readUpload(inquiry.id, uploadId);
  if (upload.state === 'complete') return fileOf(upload);
  const chunks = chunkCount(upload.size);
  if (upload.received < chunks) throw new RefusedInput(409, `Chunk ${upload.received} is missing.`);
  // Each part looked up by its key (a listing of the store is not needed, and other uploads write beside it).
  const stored = await Promise.all(
    Array.from({ length: chunks }, (_, n) => evidence().getMetadata(chunkKey(uploadId, n))),
  );
  const head = await evidence().get(chunkKey(uploadId, 0), { type: 'arrayBuffer' });
  const kind = head ? sniffDocument(new Uint8Array(head)) : null;
  if (stored.includes(null) || !head || head.byteLength !== chunkSize(upload.size, 0) || !kind) {
    await discardUpload(uploadId);
    throw new RefusedInput(
      kind ? 409 : 415,
      kind ? 'The file arrived incomplete. Please send it again.' : ACCEPTED_FILES,
    );
  }
  // The row and its event in one statement: a completion sent twice at once lists and notes the file once.
  const [done] = await db().query<UploadRow>(sql`
    WITH done AS (
      UPDATE evidence_files SET state = 'complete', kind = ${kind}, uploaded_at = ${now.toISOString()}
      WHERE id = ${uploadId} AND state = 'uploading'
      RETURNING id, inquiry_id, name, size, item, state, received, kind, uploaded_at
    ), noted AS (
      INSERT INTO applicant_events (inquiry_id, at, type, detail)
      SELECT inquiry_id, ${now.toISOString()}::timestamptz, 'upload', name FROM done
    )
    SELECT * FROM done`);
  return fileOf(done ?? (await readUpload(inquiry.id, uploadId)));
}

/** The applicant removes a file they sent (or an upload they gave up). */
export async function removeUpload({ inquiry }: ApplicantSession, uploadId: string, now = new Date()): Promise<void> {
  await readUpload(inquiry.id, uploadId);
  await deleteChunks(uploadId);
  // A file they had sent leaves a line in the history; an upload given up does not.
  await db().query(sql`
    WITH gone AS (
      DELETE FROM evidence_files WHERE id = ${uploadId} AND inquiry_id = ${inquiry.id}
      RETURNING inquiry_id, name, state
    )
    INSERT INTO applicant_events (inquiry_id, at, type, detail)
    SELECT inquiry_id, ${now.toISOString()}::timestamptz, 'remove', name FROM gone WHERE state = 'complete'`);
}

/** A stored file as a stream of its chunks, read one at a time; null when the inquiry has no such file. */
export async function fileStream(
  inquiryId: string,
  fileId: string,
): Promise<{ file: EvidenceFile; contentType: string; body: ReadableStream<Uint8Array> } | null> {
  const [row] = await db().query<UploadRow>(sql`
    SELECT id, inquiry_id, name, size, item, state, received, kind, uploaded_at FROM evidence_files
    WHERE id = ${fileId} AND inquiry_id = ${inquiryId} AND state = 'complete'`);
  if (!row) return null;
  const file = fileOf(row);
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

/** Deletes the parts of these files, then their rows. */
async function deleteFiles(ids: string[]): Promise<void> {
  for (const id of ids) await deleteChunks(id);
  if (ids.length) await db().query(sql`DELETE FROM evidence_files WHERE id = ANY(${ids})`);
}

/** Every stored file and upload of an applicant, gone (parts and rows); answers how many there were. */
export async function deleteEvidenceOf(inquiryId: string): Promise<number> {
  const rows = await db().query<{ id: string }>(sql`SELECT id FROM evidence_files WHERE inquiry_id = ${inquiryId}`);
  await deleteFiles(rows.map((row) => row.id));
  return rows.length;
}

/* ---------- retention (scheduled) ---------- */

/** Rows taken at a time by the sweep: uploads, or inquiries whose files expire. */
const SWEEP_BATCH = 100;
/** Files whose parts are deleted at the same time (each file's parts are deleted together too). */
const SWEEP_AT_ONCE = 8;
/**
 * How long one run may start new work: a scheduled function has 30 seconds, and the exports' clean-up comes after.
 * What is left waits for the next run (each batch is finished, so a stopped run loses nothing).
 */
export const SWEEP_BUDGET_MS = 20_000;

/** Runs `work` on each item, at most `limit` at a time. */
async function eachAtMost<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i]);
    }),
  );
}

/**
 * The scheduled clean-up: uploads never completed are removed after STALE_UPLOAD_HOURS; every file of an
 * inquiry handled more than EVIDENCE_RETENTION_DAYS ago is deleted (the applicant notes when). Both are found
 * by query (the unfinished uploads' index, the handled inquiries joined with their files), a batch at a time,
 * until the work is done or `deadline` (a time in ms) has passed; `more` says work is left for the next run.
 */
export async function sweepEvidence(
  now = new Date(),
  deadline = Date.now() + SWEEP_BUDGET_MS,
): Promise<{ staleUploads: number; expiredFiles: number; more: boolean }> {
  const summary = { staleUploads: 0, expiredFiles: 0, more: false };
  const at = now.toISOString();
  const startedBefore = new Date(now.getTime() - STALE_UPLOAD_HOURS * 3_600_000).toISOString();
  const outOfTime = () => Date.now() >= deadline;
  for (;;) {
    if (outOfTime()) return { ...summary, more: true };
    const stale = await db().query<{ id: string }>(sql`
      SELECT id FROM evidence_files WHERE state = 'uploading' AND started_at < ${startedBefore}
      ORDER BY started_at LIMIT ${SWEEP_BATCH}`);
    await eachAtMost(stale, SWEEP_AT_ONCE, ({ id }) => discardUpload(id));
    summary.staleUploads += stale.length;
    if (stale.length < SWEEP_BATCH) break;
  }
  const handledBefore = new Date(now.getTime() - EVIDENCE_RETENTION_DAYS * DAY_MS).toISOString();
  for (;;) {
    if (outOfTime()) return { ...summary, more: true };
    const due = await db().query<{ inquiry_id: string }>(sql`
      SELECT DISTINCT f.inquiry_id FROM evidence_files f JOIN inquiries i ON i.id = f.inquiry_id
      WHERE f.state = 'complete' AND i.status = 'handled' AND i.handled_at <= ${handledBefore}
      LIMIT ${SWEEP_BATCH}`);
    await eachAtMost(due, SWEEP_AT_ONCE, async ({ inquiry_id: inquiryId }) => {
      const files = await db().query<{ id: string }>(
        sql`SELECT id FROM evidence_files WHERE inquiry_id = ${inquiryId} AND state = 'complete'`,
      );
      const ids = files.map((file) => file.id);
      await eachAtMost(ids, SWEEP_AT_ONCE, deleteChunks);
      await db().query(sql`
        WITH gone AS (
          DELETE FROM evidence_files WHERE id = ANY(${ids}) RETURNING id
        ), marked AS (
          UPDATE applicants SET files_expired_at = ${at} WHERE inquiry_id = ${inquiryId}
        )
        INSERT INTO applicant_events (inquiry_id, at, type, detail)
        SELECT ${inquiryId}::text, ${at}::timestamptz, 'files-expired', count(*)::text FROM gone
        HAVING count(*) > 0`);
      summary.expiredFiles += ids.length;
    });
    if (due.length < SWEEP_BATCH) break;
  }
  return summary;
}
