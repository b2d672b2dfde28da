import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { dataStore, updateJSON } from './blobs.ts';
import { allInquiries, indexEntriesOfAllRecords } from './inquiries.ts';
import { csvHeader, csvRow } from './inquiry-csv.ts';
import { readSummary, totals } from './inquiry-index.ts';

/**
 * The export of every inquiry, too long for a function's answer (100,000 inquiries took two minutes): a
 * background function writes the CSV to the `exports` store in parts while it records its progress, and the admin
 * polls the status and downloads the file when it is done.
 *
 * Keys:  job/{id}           the export: who asked and when, its state, how many rows of how many are written
 *        file/{id}/{00000}  the file in parts of PART_ROWS rows (part 0 is the header row; the download adds the
 *                           byte-order mark, which a text read of a blob would drop)
 *
 * The id (16 random bytes) is made only by the start route, for a signed-in member of staff with the inquiries
 * permission; the background function runs an export only while it is queued, so a replayed call does nothing.
 * A finished file is kept for KEEP_MS, then removed (at the next start or read of any export).
 */
export const PART_ROWS = 5_000;
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
  updatedAt: Iso,
  finishedAt: v.optional(Iso),
  expiresAt: v.optional(Iso),
  error: v.optional(v.string()),
});
export type ExportJob = v.InferOutput<typeof JobSchema>;

const store = () => dataStore('exports');
const jobKey = (id: string) => `job/${id}`;
const partKey = (id: string, n: number) => `file/${id}/${String(n).padStart(5, '0')}`;

async function readJob(id: string): Promise<ExportJob | null> {
  const parsed = v.safeParse(JobSchema, await store().get(jobKey(id), { type: 'json' }));
  return parsed.success ? parsed.output : null;
}

/** Changes a job if `change` gives a new one (a conditional write); the job as it then is. */
async function changeJob(id: string, change: (job: ExportJob) => ExportJob | undefined): Promise<ExportJob | null> {
  const result = await updateJSON<unknown>(store(), jobKey(id), (current) => {
    const parsed = v.safeParse(JobSchema, current);
    return parsed.success ? change(parsed.output) : undefined;
  });
  const parsed = v.safeParse(JobSchema, result);
  return parsed.success ? parsed.output : null;
}

/** Removes an export's job and file. */
export async function removeExport(id: string): Promise<void> {
  const { blobs } = await store().list({ prefix: `file/${id}/` });
  await Promise.all(blobs.map((blob) => store().delete(blob.key)));
  await store().delete(jobKey(id));
}

const expired = (job: ExportJob, now: number) => job.expiresAt !== undefined && Date.parse(job.expiresAt) <= now;

/** Removes every export whose file is past its time, and every failed one a day old. */
export async function removeExpiredExports(now = Date.now()): Promise<number> {
  const { blobs } = await store().list({ prefix: 'job/' });
  let removed = 0;
  for (const blob of blobs) {
    const id = blob.key.slice('job/'.length);
    const job = await readJob(id);
    if (!job || expired(job, now) || (job.state === 'failed' && Date.parse(job.updatedAt) + KEEP_MS <= now)) {
      await removeExport(id);
      removed++;
    }
  }
  return removed;
}

/** Records a new export, queued for the background function. */
export async function queueExport(requestedBy: string, now = new Date()): Promise<ExportJob> {
  await removeExpiredExports(now.getTime());
  const summary = await readSummary(indexEntriesOfAllRecords);
  const at = now.toISOString();
  const job: ExportJob = {
    id: randomBytes(16).toString('hex'),
    state: 'queued',
    requestedBy,
    requestedAt: at,
    total: totals(summary).all,
    done: 0,
    parts: 0,
    bytes: 0,
    updatedAt: at,
  };
  await store().setJSON(jobKey(job.id), job, { onlyIfNew: true });
  return job;
}

/**
 * Writes the file of a queued export (the background function's work). Does nothing for an export that is not
 * queued: it is running, done, failed or unknown. Never throws: a failure is recorded on the job.
 */
export async function runExport(
  id: string,
  {
    concurrency = 32,
    partRows = PART_ROWS,
    onProgress,
  }: { concurrency?: number; partRows?: number; onProgress?: (job: ExportJob) => void } = {},
): Promise<ExportJob | null> {
  const claimed = await changeJob(id, (job) =>
    job.state === 'queued' ? { ...job, state: 'running', updatedAt: new Date().toISOString() } : undefined,
  );
  if (claimed?.state !== 'running' || claimed.done !== 0 || claimed.parts !== 0) return null;
  let parts = 0;
  let bytes = 0;
  let done = 0;
  const write = async (text: string) => {
    await store().set(partKey(id, parts), text);
    parts++;
    bytes += Buffer.byteLength(text);
  };
  try {
    await write(csvHeader());
    let pending: string[] = [];
    const flush = async () => {
      if (!pending.length) return;
      await write(pending.join(''));
      done += pending.length;
      pending = [];
      const at = new Date().toISOString();
      const job = await changeJob(id, (current) => ({ ...current, done, parts, bytes, updatedAt: at }));
      if (job) onProgress?.(job);
    };
    for await (const batch of allInquiries(500, undefined, concurrency)) {
      for (const record of batch) {
        pending.push(csvRow(record));
        if (pending.length >= partRows) await flush();
      }
    }
    await flush();
    const finished = new Date();
    return await changeJob(id, (job) => ({
      ...job,
      state: 'done',
      done,
      parts,
      bytes,
      // Rows the store gained or lost while the export ran: the file is the truth.
      total: done,
      updatedAt: finished.toISOString(),
      finishedAt: finished.toISOString(),
      expiresAt: new Date(finished.getTime() + KEEP_MS).toISOString(),
    }));
  } catch (cause) {
    console.error('The inquiry export failed:', cause instanceof Error ? cause.message : String(cause));
    return changeJob(id, (job) => ({
      ...job,
      state: 'failed',
      error: 'The export stopped before it was complete. Start it again.',
      updatedAt: new Date().toISOString(),
    }));
  }
}

export interface ExportStatus {
  id: string;
  state: ExportJob['state'];
  requestedBy: string;
  requestedAt: string;
  done: number;
  total: number;
  bytes: number;
  finishedAt?: string;
  expiresAt?: string;
  message?: string;
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
    ...(finishedAt ? { finishedAt } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    ...(stalled
      ? { message: 'The export stopped before it was complete. Start it again.' }
      : error
        ? { message: error }
        : {}),
  };
}

/** The finished file of an export, streamed part by part; null while it is not done, or when it has expired. */
export async function exportFile(
  id: string,
  now = Date.now(),
): Promise<{ job: ExportJob; body: ReadableStream<Uint8Array> } | null> {
  const job = await readJob(id);
  if (job?.state !== 'done' || expired(job, now)) return null;
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('\uFEFF'));
    },
    async pull(controller) {
      if (next >= job.parts) return controller.close();
      const text = await store().get(partKey(id, next++), { type: 'text' });
      if (text === null) return controller.error(new Error('A part of the export is missing'));
      controller.enqueue(encoder.encode(text));
    },
  });
  return { job, body };
}
