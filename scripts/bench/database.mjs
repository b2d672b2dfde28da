#!/usr/bin/env node
// The records at scale: seeds clearly synthetic inquiries (bench{n}@example.invalid) into a throwaway database
// with the project's migrations, then times what staff ask of them, through the site's own code and the driver
// production uses (node-postgres):
//   - inbox pages (all, new, handled, a deep page, the follow-up filter), budget 50 ms;
//   - searches (a surname, part of an address, a phone number, a reference, a qualification's title, a word of
//     the experience text), budget 200 ms;
//   - the dashboard's counts (by status, new since a visit, follow-ups due, call-backs today), budget 50 ms;
//   - the export of every inquiry: the cursor's rows a second, and what that makes of all of them against a
//     background function's 15 minutes.
//
//   - with --full-export, the export of every inquiry as the background function writes it (src/server/
//     inquiry-export.ts runExport: the cursor, CSV parts to a local blob server, progress on the job row), timed
//     whole, and the download files it makes (each within a streamed answer's 20 MB).
//
//   node scripts/bench/database.mjs [--inquiries 1000000] [--runs 5] [--full-export] [--database-url postgres://...]
//
// Without --database-url the engine is PGlite (Postgres compiled to WebAssembly, what `npm start` and the unit
// tests use) served on the loopback address as `npm start` serves it; with it, any Postgres (the database must be
// empty: the migrations are applied to it). Netlify Database is native Postgres: these figures are an upper bound
// for its query work, not counting the network between a function and the database.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { throwawayBlobs, throwawayDatabase } from './throwaway.mjs';

const { values: args } = parseArgs({
  options: {
    inquiries: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    'database-url': { type: 'string' },
    'full-export': { type: 'boolean', default: false },
  },
});
const COUNT = Number(args.inquiries);
const RUNS = Math.max(1, Number(args.runs));
const BUDGET = { page: 50, search: 200, counts: 50 };
const root = new URL('../..', import.meta.url).pathname;
const log = (line) => process.stderr.write(`${line}\n`);

const platform = await import(join(root, 'src/platform/database.ts'));
const { db, sql } = platform;
const { listInquiries, newSinceLastVisit } = await import(join(root, 'src/server/inquiry-inbox.ts'));
const { statusCounts, allInquiries } = await import(join(root, 'src/server/inquiries.ts'));
const { followUpsDue } = await import(join(root, 'src/server/follow-ups.ts'));
const { callbacksDue } = await import(join(root, 'src/server/callbacks.ts'));
const { csvRow } = await import(join(root, 'src/server/inquiry-csv.ts'));

/* ---------- the database ---------- */

const database = await throwawayDatabase({ url: args['database-url'], log, database: platform });
const { engineName } = database;

/* ---------- seeding ---------- */

const SURNAMES = ['Nguyen', 'Smith', 'Singh', 'Chen', 'Williams', 'Brown', 'Patel', 'Kelly', 'Wilson', 'Taylor'];
const FIRST = ['Sam', 'Alex', 'Jo', 'Priya', 'Tom', 'Mei', 'Liam', 'Ava', 'Noah', 'Zoe', 'Raj', 'Kim'];
const COURSES = [
  ['CPC30220', 'Certificate III in Carpentry'],
  ['UEE30820', 'Certificate III in Electrotechnology Electrician'],
  ['SIT40521', 'Certificate IV in Kitchen Management'],
  ['CHC33021', 'Certificate III in Individual Support'],
  ['RII30820', 'Certificate III in Civil Construction Plant Operations'],
  ['BSB50420', 'Diploma of Leadership and Management'],
];
const EXPERIENCE = [
  'ten years framing houses and fitting out kitchens',
  'chef in a busy hotel kitchen running the line',
  'aged care worker on night shifts for six years',
  'operated excavators and rollers on road crews',
  'team leader in a warehouse with twenty staff',
  'wiring new homes as a trade assistant',
];
const SPAN_DAYS = 3 * 365;

async function seed(count) {
  const started = performance.now();
  // The trigram index is built once after the rows are in, as a migration of an existing table would.
  await db().query(sql`DROP INDEX inquiries_search`);
  const batch = 100_000;
  for (let from = 0; from < count; from += batch) {
    const to = Math.min(count, from + batch) - 1;
    await db().query(sql`
      WITH base AS (
        SELECT n,
               timestamptz '2024-01-01T00:00:00Z' + (n::float8 / ${count} * ${SPAN_DAYS}) * interval '1 day' AS at,
               (${FIRST}::text[])[1 + n % ${FIRST.length}] AS first_name,
               (${SURNAMES}::text[])[1 + (n / 7) % ${SURNAMES.length}] || CASE WHEN n % 97 = 0 THEN 'son' ELSE '' END AS last_name,
               'bench' || n || '@example.invalid' AS email,
               '04' || lpad(((n::bigint * 7919) % 100000000)::text, 8, '0') AS phone,
               -- Distinct for every n below 31^6: a bijection of n spelled in the reference alphabet.
               'RPL-' || (SELECT string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ',
                           1 + ((n::bigint * 7919 + 13) / (31::bigint ^ k)::bigint % 31)::int, 1), '' ORDER BY k)
                          FROM generate_series(0, 5) AS k) AS reference,
               n % 3 = 0 AS is_quote,
               (${COURSES.map(([code]) => code)}::text[])[1 + n % ${COURSES.length}] AS code,
               (${EXPERIENCE}::text[])[1 + n % ${EXPERIENCE.length}] AS experience
        FROM generate_series(${from}::int, ${to}::int) AS n
      )
      INSERT INTO inquiries (id, reference, kind, source, created_at, status, handled_at, status_rev, first_name,
                             last_name, email, phone, consent_partner_rto, consent_marketing, message, quote,
                             follow_up_date, follow_up_by_username, follow_up_by_name, follow_up_at, follow_up_rev,
                             callback_day, callback_window, callback_requested_at, search_text, course_codes)
      SELECT to_char(at AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISSMS"Z"') || '-' || lpad(to_hex(n), 8, '0'),
             reference,
             CASE WHEN is_quote THEN 'quote' ELSE 'contact' END,
             CASE WHEN is_quote THEN 'quote' WHEN n % 3 = 1 THEN 'contact' ELSE 'home' END,
             at,
             CASE WHEN n % 4 = 0 THEN 'new' ELSE 'handled' END,
             CASE WHEN n % 4 = 0 THEN NULL ELSE at + interval '2 days' END,
             CASE WHEN n % 4 = 0 THEN 0 ELSE 1 END,
             first_name, last_name, email, phone, n % 2 = 0, n % 5 = 0,
             CASE WHEN is_quote THEN NULL ELSE 'Synthetic message number ' || n END,
             CASE WHEN is_quote THEN jsonb_build_object(
               'state', 'VIC', 'preferredContact', 'Any time', 'experience', experience, 'goals', '',
               'additionalInfo', '', 'mobileNumber', '', 'notSure', false,
               'selectedCategories', jsonb_build_array('construction'), 'selectedCourses', jsonb_build_array(code),
               'categories', jsonb_build_array(jsonb_build_object('slug', 'construction', 'name', 'Construction')),
               'courses', jsonb_build_array(jsonb_build_object('code', code, 'title', 'A qualification',
                                                               'level', 'Certificate III', 'category', 'construction')))
             END,
             CASE WHEN n % 500 = 0 THEN (at + interval '14 days')::date END,
             CASE WHEN n % 500 = 0 THEN 'bench-staff' END,
             CASE WHEN n % 500 = 0 THEN 'Bench Staff' END,
             CASE WHEN n % 500 = 0 THEN at END,
             CASE WHEN n % 500 = 0 THEN 1 ELSE 0 END,
             CASE WHEN n % 700 = 0 THEN (at + interval '1 day')::date END,
             CASE WHEN n % 700 = 0 THEN '9:00 am – 11:00 am' END,
             CASE WHEN n % 700 = 0 THEN at END,
             lower(first_name || ' ' || last_name || E'\n' || email || E'\n' || reference || ' ' || phone || E'\n' ||
                   CASE WHEN is_quote THEN code || E'\n' || experience ELSE E'\n' END),
             CASE WHEN is_quote THEN ARRAY[code] ELSE '{}'::text[] END
      FROM base`);
    log(`  seeded ${(to + 1).toLocaleString('en-AU')} inquiries`);
  }
  await db().query(sql`
    INSERT INTO inquiry_mail (inquiry_id, kind, state, attempts, idempotency_key, sent_at, via)
    SELECT i.id, m.kind, 'sent', 1, 'inquiry-' || i.id || '-' || m.kind, i.created_at, 'outbox'
    FROM inquiries i CROSS JOIN (VALUES ('staff'), ('ack')) AS m (kind)`);
  const indexStarted = performance.now();
  await db().query(sql`CREATE INDEX inquiries_search ON inquiries USING gin (search_text gin_trgm_ops)`);
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  await db().query(sql`ANALYZE`);
  return { seconds: (performance.now() - started) / 1000, indexSeconds };
}

/* ---------- timing ---------- */

async function timed(work) {
  await work(); // warm-up
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
}

const rows = [];
const failures = [];
async function row(group, name, budget, work) {
  const { median, max } = await timed(work);
  rows.push([group, name, median, max, budget]);
  if (median > budget) failures.push(`${group}, ${name}: ${median.toFixed(1)} ms > ${budget} ms`);
}

log(`Seeding ${COUNT.toLocaleString('en-AU')} synthetic inquiries into ${engineName}...`);
const seeded = await seed(COUNT);
const last = (await db().query(sql`SELECT reference, phone FROM inquiries ORDER BY id DESC LIMIT 1`))[0];
const [{ visit }] = await db().query(sql`SELECT (max(created_at) - interval '7 days')::text AS visit FROM inquiries`);
await db().query(
  sql`INSERT INTO staff (username, first_name, last_name, role) VALUES ('bench-staff', 'Bench', 'Staff', 'admin')`,
);
await db().query(sql`INSERT INTO inbox_visits (username, at) VALUES ('bench-staff', ${visit})`);
const today = new Date(Date.parse(`${visit.slice(0, 10)}T00:00:00Z`) + 7 * 86_400_000);

log('Timing the inbox...');
await row('Inbox page', 'all, first 50', BUDGET.page, () => listInquiries({ status: 'all' }));
await row('Inbox page', 'new, first 50', BUDGET.page, () => listInquiries({ status: 'new' }));
await row('Inbox page', 'handled, first 50', BUDGET.page, () => listInquiries({ status: 'handled' }));
await row('Inbox page', 'all, offset 5,000', BUDGET.page, () => listInquiries({ status: 'all', offset: 5000 }));
await row('Inbox page', 'follow-ups overdue', BUDGET.page, () => listInquiries({ status: 'overdue' }));
for (const [name, q] of [
  ['a surname (1 in 10)', 'Nguyen'],
  ['a rare surname', 'Taylorson'],
  ['part of an address', 'bench12345@'],
  ['a phone number', last.phone.replace(/(\d{4})(\d{3})(\d{3})/, '$1 $2 $3')],
  ['a reference', last.reference],
  ['words of a title', 'kitchen management'],
  ['a word of the experience', 'excavators'],
  ['two names', 'priya singh'],
])
  await row('Search', `${name}: "${q}"`, BUDGET.search, () => listInquiries({ q }));
log('Timing the dashboard...');
await row('Dashboard', 'counts by status', BUDGET.counts, () => statusCounts());
await row('Dashboard', 'new since a visit a week ago', BUDGET.counts, () => newSinceLastVisit('bench-staff'));
await row('Dashboard', 'follow-ups due and overdue', BUDGET.counts, () => followUpsDue(today));
await row('Dashboard', "today's call-backs", BUDGET.counts, () => callbacksDue(today));

log('Timing the export cursor...');
const exportRows = Math.min(COUNT, 50_000);
const exportStarted = performance.now();
let exported = 0;
let bytes = 0;
for await (const batch of allInquiries(1000)) {
  for (const record of batch) bytes += Buffer.byteLength(csvRow(record));
  exported += batch.length;
  if (exported >= exportRows) break;
}
const exportSeconds = (performance.now() - exportStarted) / 1000;
const perSecond = exported / exportSeconds;
const allMinutes = COUNT / perSecond / 60;
const allBytes = (bytes / exported) * COUNT;

/* ---------- the whole export, as the background function writes it ---------- */

let fullExport = null;
if (args['full-export']) {
  log('Writing the export of every inquiry (runExport, parts to a local blob server)...');
  const { queueExport, runExport, filesOf, FILE_BYTES } = await import(join(root, 'src/server/inquiry-export.ts'));
  const blobs = await throwawayBlobs();
  const job = await queueExport('bench-staff');
  const started = performance.now();
  const finished = await runExport(job.id);
  const seconds = (performance.now() - started) / 1000;
  const files = finished ? filesOf(finished) : [];
  const fileBytes = files.map((parts) => parts.reduce((sum, part) => sum + finished.partBytes[part], 0));
  fullExport = {
    state: finished?.state,
    rows: finished?.done ?? 0,
    seconds,
    parts: finished?.partBytes.length ?? 0,
    bytes: finished?.bytes ?? 0,
    files: files.length,
    largestFile: Math.max(0, ...fileBytes),
    withinLimit: fileBytes.every((size) => size <= FILE_BYTES),
  };
  await blobs.close();
}

/* ---------- report ---------- */

const ms = (value) => value.toFixed(1).padStart(8);
const lines = [
  `Records bench, ${new Date().toISOString()}, Node ${process.version}: ${COUNT.toLocaleString('en-AU')} inquiries in ${engineName}`,
  `(seeded in ${seeded.seconds.toFixed(0)} s, the search index built in ${seeded.indexSeconds.toFixed(0)} s; median and max of ${RUNS} runs after a warm-up, through node-postgres)`,
  '',
  `${'What'.padEnd(58)}${'median ms'.padStart(10)}${'max ms'.padStart(9)}${'budget'.padStart(8)}`,
  ...rows.map(
    ([group, name, median, max, budget]) =>
      `${`${group}: ${name}`.slice(0, 57).padEnd(58)}${ms(median)}  ${ms(max)}${String(budget).padStart(8)}`,
  ),
  '',
  `Export cursor: ${exported.toLocaleString('en-AU')} rows in ${exportSeconds.toFixed(1)} s (${Math.round(perSecond).toLocaleString('en-AU')} rows/s, CSV rows made too);`,
  `every inquiry: about ${allMinutes.toFixed(1)} minutes and ${(allBytes / 1e6).toFixed(0)} MB in ${Math.ceil(COUNT / 5000)} parts of 5,000 rows (a background function may run 15 minutes).`,
];
if (fullExport)
  lines.push(
    `Full export (runExport, as the background function): ${fullExport.state}, ${fullExport.rows.toLocaleString('en-AU')} rows in ${fullExport.seconds.toFixed(0)} s (${(fullExport.seconds / 60).toFixed(1)} of 15 minutes), ${(fullExport.bytes / 1e6).toFixed(0)} MB in ${fullExport.parts} parts;`,
    `downloaded as ${fullExport.files} file${fullExport.files === 1 ? '' : 's'}, the largest ${(fullExport.largestFile / 1024 / 1024).toFixed(1)} MiB (${fullExport.withinLimit ? 'each within' : 'NOT within'} the 15 MiB a file may have, under a streamed answer's 20 MB).`,
  );
if (
  fullExport &&
  (fullExport.state !== 'done' || fullExport.rows !== COUNT || !fullExport.withinLimit || fullExport.seconds > 15 * 60)
)
  failures.push('full export: not done within 15 minutes and the download limits');
console.log(lines.join('\n'));
if (failures.length) console.log(`\nOver budget:\n  ${failures.join('\n  ')}`);
await database.close();
process.exit(failures.length ? 1 : 0);
