#!/usr/bin/env node
// Evidence retention at scale: --files (100,000) clearly synthetic evidence files (five per applicant) in a
// throwaway database, --due (a tenth) of them belonging to inquiries handled more than 90 days ago, and some
// uploads nobody finished (one in every 256 applicants); then the hourly sweep (src/server/applicant-evidence.ts
// sweepEvidence) runs as the scheduled function does, run after run, against a local blob server, until nothing is
// due. It prints each run's time (a scheduled function has 30 s; the sweep stops starting work after 20), the files
// it removed, the time of the query that finds what is due, and one erasure of an applicant on request.
// The parts are not stored first: deleting them costs one call per part either way.
//
//   node scripts/bench/retention.mjs [--files 100000] [--due 0.1] [--database-url postgres://...]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { throwawayBlobs, throwawayDatabase } from './throwaway.mjs';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '100000' },
    due: { type: 'string', default: '0.1' },
    'database-url': { type: 'string' },
  },
});
const FILES = Number(args.files);
const PER_APPLICANT = 5;
const APPLICANTS = Math.ceil(FILES / PER_APPLICANT);
const DUE_EVERY = Math.max(1, Math.round(1 / Number(args.due)));
const root = new URL('../..', import.meta.url).pathname;
const log = (line) => process.stderr.write(`${line}\n`);

const platform = await import(join(root, 'src/platform/database.ts'));
const { db, sql } = platform;
const database = await throwawayDatabase({ url: args['database-url'], log, database: platform });
const blobs = await throwawayBlobs();
const { sweepEvidence, SWEEP_BUDGET_MS } = await import(join(root, 'src/server/applicant-evidence.ts'));
const { eraseApplicant } = await import(join(root, 'src/server/applicants.ts'));

log(`Seeding ${APPLICANTS.toLocaleString('en-AU')} applicants with ${FILES.toLocaleString('en-AU')} evidence files...`);
const seedStarted = performance.now();
await db().query(sql`
  INSERT INTO inquiries (id, kind, source, created_at, status, handled_at, status_rev, first_name, last_name, email,
                         phone, message)
  SELECT '20250101T' || lpad(n::text, 9, '0') || 'Z-' || lpad(to_hex(n), 8, '0'), 'contact', 'contact',
         timestamptz '2025-01-01T00:00:00Z' + n * interval '1 second',
         CASE WHEN n % ${DUE_EVERY} = 0 THEN 'handled' ELSE 'new' END,
         CASE WHEN n % ${DUE_EVERY} = 0 THEN now() - interval '120 days' END,
         CASE WHEN n % ${DUE_EVERY} = 0 THEN 1 ELSE 0 END,
         'Bench', 'Applicant', 'bench' || n || '@example.invalid', '0400 000 000', 'Synthetic.'
  FROM generate_series(1, ${APPLICANTS}) AS n`);
await db().query(sql`
  INSERT INTO applicants (inquiry_id, created_at) SELECT id, created_at FROM inquiries`);
await db().query(sql`
  INSERT INTO evidence_files (id, inquiry_id, name, size, item, state, received, kind, started_at, uploaded_at)
  SELECT md5(a.inquiry_id || k), a.inquiry_id, 'file-' || k || '.pdf', 500000, 'general',
         CASE WHEN k = 1 AND right(a.inquiry_id, 2) = '00' THEN 'uploading' ELSE 'complete' END,
         1, CASE WHEN k = 1 AND right(a.inquiry_id, 2) = '00' THEN NULL ELSE 'pdf' END,
         now() - interval '2 days',
         CASE WHEN k = 1 AND right(a.inquiry_id, 2) = '00' THEN NULL ELSE now() - interval '2 days' END
  FROM applicants a, generate_series(1, ${PER_APPLICANT}) AS k`);
await db().query(sql`ANALYZE`);
const [{ due, stale }] = await db().query(sql`
  SELECT count(*) FILTER (WHERE f.state = 'complete' AND i.status = 'handled')::int AS due,
         count(*) FILTER (WHERE f.state = 'uploading')::int AS stale
  FROM evidence_files f JOIN inquiries i ON i.id = f.inquiry_id`);
log(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s: ${due} files due, ${stale} unfinished`);

// The query that finds the next batch of due inquiries, alone.
const findStarted = performance.now();
await db().query(sql`
  SELECT DISTINCT f.inquiry_id FROM evidence_files f JOIN inquiries i ON i.id = f.inquiry_id
  WHERE f.state = 'complete' AND i.status = 'handled' AND i.handled_at <= now() - interval '90 days' LIMIT 100`);
const findMs = performance.now() - findStarted;

const runs = [];
for (let run = 1; run <= 500; run++) {
  const started = performance.now();
  const summary = await sweepEvidence(new Date());
  runs.push({ ms: performance.now() - started, ...summary });
  log(`  run ${run}: ${summary.expiredFiles} files, ${summary.staleUploads} unfinished uploads, more: ${summary.more}`);
  if (!summary.more) break;
}
const [{ left }] = await db().query(sql`
  SELECT count(*)::int AS left FROM evidence_files f JOIN inquiries i ON i.id = f.inquiry_id
  WHERE (f.state = 'complete' AND i.status = 'handled') OR f.state = 'uploading'`);

const [{ id: someone }] = await db().query(sql`SELECT inquiry_id AS id FROM applicants ORDER BY inquiry_id LIMIT 1`);
// An inquiry as the site stores it has its two e-mails' states.
await db().query(sql`
  INSERT INTO inquiry_mail (inquiry_id, kind, state, attempts, idempotency_key, sent_at, via)
  SELECT ${someone}, kind, 'sent', 1, 'inquiry-' || ${someone} || '-' || kind, now(), 'outbox'
  FROM (VALUES ('staff'), ('ack')) AS m (kind)`);
const eraseStarted = performance.now();
await eraseApplicant(someone, { username: 'bench', name: 'Bench' });
const eraseMs = performance.now() - eraseStarted;

const slowest = Math.max(...runs.map((run) => run.ms));
const removed = runs.reduce((sum, run) => sum + run.expiredFiles + run.staleUploads, 0);
console.log(
  [
    `Retention bench, ${new Date().toISOString()}, Node ${process.version}: ${FILES.toLocaleString('en-AU')} evidence files in ${database.engineName}, a local blob server`,
    `(${due.toLocaleString('en-AU')} past retention, ${stale.toLocaleString('en-AU')} unfinished uploads)`,
    '',
    `Finding the next 100 inquiries whose files are due: ${findMs.toFixed(1)} ms`,
    `Sweep runs: ${runs.length}, ${removed.toLocaleString('en-AU')} files removed, the slowest run ${(slowest / 1000).toFixed(1)} s (a scheduled function has 30 s; each run stops starting work after ${SWEEP_BUDGET_MS / 1000} s)`,
    `  per run: ${runs.map((run) => `${(run.ms / 1000).toFixed(1)} s / ${run.expiredFiles + run.staleUploads} files`).join(', ')}`,
    `Left after the runs: ${left}`,
    `Erasing one applicant on request (files, rows, personal fields): ${eraseMs.toFixed(0)} ms`,
  ].join('\n'),
);
await blobs.close();
await database.close();
process.exit(left === 0 && slowest < 30_000 ? 0 : 1);
