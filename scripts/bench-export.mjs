// Times the inbox's CSV exports against a seeded store: the date-range export (the last 90 days, streamed) and
// the background export of every inquiry (written to the exports store in parts, then downloaded). Seeds N
// synthetic inquiries spread over two years into a throwaway folder's local blob store, runs the exports' own
// code in this process against a local blob server (as a function would), prints the figures, removes the folder.
// Usage: npx jiti scripts/bench-export.mjs [count=100000]   (jiti loads the TypeScript sources)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { seedInquiries } from './bench/inbox.mjs';
import { inquiriesCsvStream } from '../src/server/inquiry-csv.ts';
import { exportFile, queueExport, runExport } from '../src/server/inquiry-export.ts';

const count = Number(process.argv[2] ?? 100_000);
const dir = await mkdtemp(join(tmpdir(), 'rpl-bench-export-'));
const seconds = (since) => Math.round((performance.now() - since) / 100) / 10;

/** Reads a stream to its end: bytes and rows (CRLF line ends, minus the header). */
async function drain(stream) {
  const reader = stream.getReader();
  let bytes = 0;
  let lines = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes += next.value.byteLength;
    for (const byte of next.value) if (byte === 10) lines++;
  }
  return { bytes, rows: lines - 1 };
}

const token = 'bench-export';
const server = new BlobsServer({ directory: join(dir, '.netlify', 'blobs-serve'), token });
try {
  const seeded = await seedInquiries(dir, count);
  console.log(
    `Seeded ${count.toLocaleString('en-AU')} inquiries over ${seeded.months} months in ${seeded.seconds.toFixed(1)} s`,
  );
  const { port } = await server.start();
  const edgeURL = `http://localhost:${port}`;
  setEnvironmentContext({ siteID: 'unlinked', token, edgeURL, uncachedEdgeURL: edgeURL });

  // The range export's default: today and the 89 days before (src/schemas/inbox.ts).
  const day = (time) => new Date(time).toISOString().slice(0, 10);
  const range = { from: day(Date.now() - 89 * 86_400_000), to: day(Date.now()) };
  let started = performance.now();
  const ranged = await drain(inquiriesCsvStream(range));
  const rangeSeconds = seconds(started);
  console.log(
    `Range export (${range.from} to ${range.to}): ${ranged.rows.toLocaleString('en-AU')} rows, ${(ranged.bytes / 1e6).toFixed(1)} MB in ${rangeSeconds} s`,
  );

  started = performance.now();
  const job = await queueExport('bench');
  let shown = 0;
  const done = await runExport(job.id, {
    onProgress: (progress) => {
      if (progress.done - shown < 20_000 && progress.done !== progress.total) return;
      shown = progress.done;
      console.log(
        `  background: ${progress.done.toLocaleString('en-AU')} of ${progress.total.toLocaleString('en-AU')} after ${seconds(started)} s`,
      );
    },
  });
  const backgroundSeconds = seconds(started);
  if (done?.state !== 'done') throw new Error(`the background export ended ${done?.state ?? 'unknown'}`);
  started = performance.now();
  const file = await exportFile(job.id);
  const downloaded = await drain(file.body);
  const downloadSeconds = seconds(started);
  console.log(
    `Background export of everything: ${done.done.toLocaleString('en-AU')} rows in ${done.parts} parts, ${(done.bytes / 1e6).toFixed(1)} MB in ${backgroundSeconds} s; download of the file ${downloadSeconds} s (${downloaded.rows.toLocaleString('en-AU')} rows)`,
  );
  console.log(
    JSON.stringify({
      count,
      range: { ...range, rows: ranged.rows, bytes: ranged.bytes, seconds: rangeSeconds },
      background: { rows: done.done, parts: done.parts, bytes: done.bytes, seconds: backgroundSeconds },
      download: { rows: downloaded.rows, seconds: downloadSeconds },
    }),
  );
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
