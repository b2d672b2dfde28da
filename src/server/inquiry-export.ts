import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { fileStore } from '../platform/blobs.ts';
import { db, iso, isoOf, join, raw, sql } from '../platform/database.ts';
import { allInquiries, statusCounts } from './inquiries.ts';
import { csvHeader, csvRow } from './inquiry-csv.ts';

/**
 * The export of every inquiry, too long for a function's answer (100,000 inquiries took two minutes): a
 * background function writes the CSV to the `exports` blob store in parts while it records its progress, and the
 * admin polls the status and downloads the file when it is done.
 *
 * The job is a row of `export_jobs` (who asked and when, its state, how many rows of how many are written); the
 * file is in Blobs as `file/{id}/{00000}`, in parts of PART_ROWS rows (part 0 is the header row; the download adds
 * the byte-order mark, which a text read of a blob would drop).
 *
 * The id (16 random bytes) is made only by the start route, for a signed-in member of staff with the inquiries
 * permission; the background function runs an export only while it is queued, so a replayed call does nothing.
 * A finished file is kept for KEEP_MS, then removed (at the next start or read of any export).
 */
export const PART_ROWS = 5_000;
/** A part ends at PART_ROWS rows or at this size, whichever comes first (a long message makes a long row). */
export const PART_BYTES = 4 * 1024 * 1024;
/**
 * The download of every inquiry comes in files of at most this size (whole parts, each a CSV with its own header):
 * a function may stream at most 20 MB, so 1,000,000 inquiries (about 300 MB) are about twenty files.
 */
export const FILE_BYTES = 15 * 1024 * 1024;
export const KEEP_MS = 24 * 60 * 60_000;
/** Past this without progress, a running export is taken as dead (a background function runs at most 15 minutes). */
export const STALLED_MS = 16 * 60_000;

const Iso = v.pipe(v.string(), v.isoTimestamp());
const JobSchema = v.object({
  id: v.string(),
  state: v.picklist(['queued', 'running', 'done', 'failed']),
  requestedBy: v.string(),
  requestedAt: Iso,
  /** Inquiries in the store when the export was asked for (the rows written may differ by the ones since). */
  total: v.number(),
  done: v.number(),
  parts: v.number(),
  bytes: v.number(),
  /** The size of each part (part 0: the header row). */
  partBytes: v.array(v.number()),
  updatedAt: Iso,
  finishedAt: v.optional(Iso),
  expiresAt: v.optional(Iso),
  error: v.optional(v.string()),
});
export type ExportJob = v.InferOutput<typeof JobSchema>;

const store = () => fileStore('exports');
const partKey = (id: string, n: number) => `file/${id}/${String(n).padStart(5, '0')}`;

interface JobRow {
  id: string;
  state: ExportJob['state'];
  requested_by: string;
  requested_at: unknown;
  total: number;
  done: number;
  parts: number;
  bytes: number;
  part_bytes: number[];
  updated_at: unknown;
  finished_at: unknown;
  expires_at: unknown;
  error: string | null;
}
const JOB_COLUMNS = raw(
  'id, state, requested_by, requested_at, total, done, parts, bytes::float8 AS bytes, part_bytes, updated_at, finished_at, expires_at, error',
);

function jobFrom(row: JobRow): ExportJob {
  return v.parse(JobSchema, {
    id: row.id,
    state: row.state,
    requestedBy: row.requested_by,
    requestedAt: isoOf(row.requested_at),
    total: row.total,
    done: row.done,
    parts: row.parts,
    bytes: row.bytes,
    partBytes: row.part_bytes,
    updatedAt: isoOf(row.updated_at),
    ...(row.finished_at ? { finishedAt: iso(row.finished_at) } : {}),
    ...(row.expires_at ? { expiresAt: iso(row.expires_at) } : {}),
    ...(row.error ? { error: row.error } : {}),
  });
}

async function readJob(id: string): Promise<ExportJob | null> {
  if (!/^[a-f0-9]{32}$/.test(id)) return null;
  const [row] = await db().query<JobRow>(sql`SELECT ${JOB_COLUMNS} FROM export_jobs WHERE id = ${id}`);
  return row ? jobFrom(row) : null;
}

/**
 * Removes an export's job and file. The parts are deleted by number (the job counts them; one more, in case the
 * export stopped between writing a part and counting it), so the store is never listed.
 */
export async function removeExport(id: string): Promise<void> {
  const [job] = await db().query<{ parts: number }>(sql`SELECT parts FROM export_jobs WHERE id = ${id}`);
  const parts = (job?.parts ?? 0) + 1;
  await Promise.all(Array.from({ length: parts }, (_, n) => store().delete(partKey(id, n))));
  await db().query(sql`DELETE FROM export_jobs WHERE id = ${id}`);
}

/** Removes every export whose file is past its time, and every failed one a day old. */
export async function removeExpiredExports(now = Date.now()): Promise<number> {
  const at = new Date(now).toISOString();
  const dayAgo = new Date(now - KEEP_MS).toISOString();
  const rows = await db().query<{ id: string }>(sql`
    SELECT id FROM export_jobs WHERE expires_at <= ${at} OR (state = 'failed' AND updated_at <= ${dayAgo})`);
  for (const { id } of rows) await removeExport(id);
  return rows.length;
}

const expired = (job: ExportJob, now: number) => job.expiresAt !== undefined && Date.parse(job.expiresAt) <= now;

/** Records a new export, queued for the background function. */
export async function queueExport(requestedBy: string, now = new Date()): Promise<ExportJob> {
  await removeExpiredExports(now.getTime());
  const at = now.toISOString();
  const id = randomBytes(16).toString('hex');
  const [row] = await db().query<JobRow>(sql`
    INSERT INTO export_jobs (id, state, requested_by, requested_at, total, updated_at)
    VALUES (${id}, 'queued', ${requestedBy}, ${at}, ${(await statusCounts()).all}, ${at})
    RETURNING ${JOB_COLUMNS}`);
  return jobFrom(row);
}

/** Records progress of a job in the given state (null when it is in another state or gone). */
async function recordProgress(
  id: string,
  inState: ExportJob['state'],
  change: Partial<
    Pick<ExportJob, 'state' | 'done' | 'parts' | 'bytes' | 'total' | 'finishedAt' | 'expiresAt' | 'error'>
  > & { addPart?: number },
): Promise<ExportJob | null> {
  const sets = [
    sql`updated_at = ${new Date().toISOString()}`,
    ...(change.state !== undefined ? [sql`state = ${change.state}`] : []),
    ...(change.done !== undefined ? [sql`done = ${change.done}`] : []),
    ...(change.parts !== undefined ? [sql`parts = ${change.parts}`] : []),
    ...(change.bytes !== undefined ? [sql`bytes = ${change.bytes}`] : []),
    ...(change.total !== undefined ? [sql`total = ${change.total}`] : []),
    ...(change.finishedAt !== undefined ? [sql`finished_at = ${change.finishedAt}`] : []),
    ...(change.expiresAt !== undefined ? [sql`expires_at = ${change.expiresAt}`] : []),
    ...(change.error !== undefined ? [sql`error = ${change.error}`] : []),
    ...(change.addPart !== undefined ? [sql`part_bytes = array_append(part_bytes, ${change.addPart}::int)`] : []),
  ];
  const [row] = await db().query<JobRow>(
    sql`UPDATE export_jobs SET ${join(sets)} WHERE id = ${id} AND state = ${inState} RETURNING ${JOB_COLUMNS}`,
  );
  return row ? jobFrom(row) : null;
}

/**
 * Writes the file of a queued export (the background function's work). Does nothing for an export that is not
 * queued: it is running, done, failed or unknown. Never throws: a failure is recorded on the job.
 */
export async function runExport(
  id: string,
  {
    batchRows = 1000,
    partRows = PART_ROWS,
    onProgress,
  }: { batchRows?: number; partRows?: number; onProgress?: (job: ExportJob) => void } = {},
): Promise<ExportJob | null> {
  // Claimed by one conditional statement: a replayed or second call finds it running and does nothing.
  const claimed = await recordProgress(id, 'queued', { state: 'running' });
  if (!claimed) return null;
  let parts = 0;
  let bytes = 0;
  let done = 0;
  /** Writes the next part; answers its size. */
  const write = async (text: string) => {
    await store().set(partKey(id, parts), text);
    parts++;
    const size = Buffer.byteLength(text);
    bytes += size;
    return size;
  };
  try {
    await recordProgress(id, 'running', { addPart: await write(csvHeader()), parts, bytes });
    let pending: string[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (!pending.length) return;
      const size = await write(pending.join(''));
      done += pending.length;
      pending = [];
      pendingBytes = 0;
      const job = await recordProgress(id, 'running', { done, parts, bytes, addPart: size });
      if (job) onProgress?.(job);
    };
    for await (const batch of allInquiries(batchRows)) {
      for (const record of batch) {
        const row = csvRow(record);
        pending.push(row);
        pendingBytes += row.length;
        if (pending.length >= partRows || pendingBytes >= PART_BYTES) await flush();
      }
    }
    await flush();
    const finished = new Date();
    return await recordProgress(id, 'running', {
      state: 'done',
      done,
      parts,
      bytes,
      // Rows the table gained or lost while the export ran: the file is the truth.
      total: done,
      finishedAt: finished.toISOString(),
      expiresAt: new Date(finished.getTime() + KEEP_MS).toISOString(),
    });
  } catch (cause) {
    console.error('The inquiry export failed:', cause instanceof Error ? cause.message : String(cause));
    return recordProgress(id, 'running', {
      state: 'failed',
      error: 'The export stopped before it was complete. Start it again.',
    });
  }
}

export interface ExportStatus {
  id: string;
  state: ExportJob['state'];
  requestedBy: string;
  requestedAt: string;
  done: number;
  total: number;
  /** How many files the finished export downloads in (each under a function's streamed answer limit). */
  files?: number;
  bytes: number;
  finishedAt?: string;
  expiresAt?: string;
  message?: string;
}

/**
 * The files the download of a finished export comes in: consecutive row parts (never the header part), each file
 * at most `limit` bytes with its header (one part larger than that on its own still makes a file of its own).
 */
export function filesOf(job: Pick<ExportJob, 'partBytes'>, limit = FILE_BYTES): number[][] {
  const header = job.partBytes[0] ?? 0;
  const files: number[][] = [];
  let size = Number.POSITIVE_INFINITY;
  for (let part = 1; part < job.partBytes.length; part++) {
    if (size + job.partBytes[part] > limit) {
      files.push([]);
      size = header;
    }
    files[files.length - 1].push(part);
    size += job.partBytes[part];
  }
  return files.length ? files : [[]];
}

/** An export as the admin sees it; null when there is none, or its file has expired (then it is removed). */
export async function exportStatus(id: string, now = Date.now()): Promise<ExportStatus | null> {
  const job = await readJob(id);
  if (!job) return null;
  if (expired(job, now)) {
    await removeExport(id);
    return null;
  }
  const { state, requestedBy, requestedAt, done, total, bytes, finishedAt, expiresAt, error } = job;
  const stalled = (state === 'running' || state === 'queued') && Date.parse(job.updatedAt) + STALLED_MS < now;
  return {
    id,
    state: stalled ? 'failed' : state,
    requestedBy,
    requestedAt,
    done,
    total,
    bytes,
    ...(state === 'done' ? { files: filesOf(job).length } : {}),
    ...(finishedAt ? { finishedAt } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    ...(stalled
      ? { message: 'The export stopped before it was complete. Start it again.' }
      : error
        ? { message: error }
        : {}),
  };
}

/**
 * One file of a finished export (1 for the first), streamed part by part: a byte-order mark, the header row, then
 * its rows. Null while the export is not done, when it has expired, or when it has no such file.
 */
export async function exportFile(
  id: string,
  file = 1,
  now = Date.now(),
): Promise<{ job: ExportJob; file: number; files: number; body: ReadableStream<Uint8Array> } | null> {
  const job = await readJob(id);
  if (job?.state !== 'done' || expired(job, now)) return null;
  const files = filesOf(job);
  const parts = files[file - 1];
  if (!parts) return null;
  const encoder = new TextEncoder();
  const queue = [0, ...parts];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('\uFEFF'));
    },
    async pull(controller) {
      const next = queue.shift();
      if (next === undefined) return controller.close();
      const text = await store().get(partKey(id, next), { type: 'text' });
      if (text === null) return controller.error(new Error('A part of the export is missing'));
      controller.enqueue(encoder.encode(text));
    },
  });
  return { job, file, files: files.length, body };
}
