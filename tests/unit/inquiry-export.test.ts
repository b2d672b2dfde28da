import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { fileStore } from '../../src/platform/blobs';
import { db, sql } from '../../src/platform/database';
import { createInquiry } from '../../src/server/inquiries';
import { RANGE_EXPORT_LIMIT } from '../../src/schemas/inbox';
import { filesOf, queueExport, runExport, type ExportJob } from '../../src/server/inquiry-export';
import inbox from '../../netlify/functions/admin-inquiries.mts';
import exportsHandler from '../../netlify/functions/admin-inquiry-exports.mts';
import background from '../../netlify/functions/inquiry-export-background.mts';
import retention from '../../netlify/functions/evidence-retention.mts';

const DAY = 86_400_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const now = Date.now();
let blobs: Awaited<ReturnType<typeof startStores>>;
const tokens = { admin: '', editor: '' };
/** Received-at times by e-mail address, so a row names its inquiry. */
const AGES: Record<string, number> = { today: 0, ten: 10, edge: 89, before: 91, old: 200 };
let platform: Server;
const running: Promise<unknown>[] = [];

/** Moves an export's expiry into the past, as if its 24 hours were over. */
const expireJob = (id: string) =>
  db().query(sql`UPDATE export_jobs SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE id = ${id}`);

beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  blobs = await startStores();
  tokens.admin = await signedInStaff({ username: 'export-admin', firstName: 'Ada', lastName: 'Export' });
  tokens.editor = await signedInStaff({
    username: 'export-editor',
    firstName: 'Eve',
    lastName: 'Ditor',
    role: 'editor',
  });
  for (const [name, days] of Object.entries(AGES))
    await createInquiry(
      {
        kind: 'contact',
        source: 'contact',
        contact: { firstName: name, lastName: 'Lee', email: `${name}@example.com`, phone: '0400 000 000' },
        message: `Received ${days} days ago`,
      },
      new Date(now - days * DAY - 60_000),
    );
  // The platform in front of background functions: answers 202 at once and runs the function after.
  platform = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      response.statusCode = 202;
      response.end();
      const headers = new Headers(request.headers as Record<string, string>);
      running.push(
        background(
          new Request(`http://localhost${request.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) }),
        ),
      );
    });
  });
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('LOCAL_CDN_URL', `http://127.0.0.1:${(platform.address() as AddressInfo).port}`);
  vi.stubEnv('LOCAL_CDN_TOKEN', 'front-door-secret');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  platform.close();
  await Promise.all(running);
  await blobs.stop();
});

const headersOf = (who?: keyof typeof tokens) => (who ? { authorization: `Bearer ${tokens[who]}` } : undefined);
const exportRange = (query: string, who: keyof typeof tokens = 'admin') =>
  inbox(new Request(`http://localhost/api/admin/inquiries/export.csv${query}`, { headers: headersOf(who) }), {
    params: {},
  } as never);
const exportsCall = (path: string, method = 'GET', who?: keyof typeof tokens) =>
  exportsHandler(new Request(`http://localhost/api/admin/inquiry-exports${path}`, { method, headers: headersOf(who) }));
/** The names of the inquiries in a CSV, newest first. */
const namesIn = (csv: string) => [...csv.matchAll(/"([a-z]+)@example\.com"/g)].map((match) => match[1]);

describe('the inbox export by date range', () => {
  it('finding 14: bad dates get 400 with the reason, and no file', async () => {
    for (const query of [
      '?from=2026-02-30',
      '?from=26-11-01',
      '?to=tomorrow',
      `?from=${dayOf(now)}&to=${dayOf(now - DAY)}`,
      '?from=2026-13-01',
      '?from=../../etc',
    ]) {
      const answer = await exportRange(query);
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get('content-type'), query).toContain('application/json');
      expect((await answer.json()).message, query).toMatch(/YYYY-MM-DD|on or before the end date/);
    }
  });

  it('finding 14: without dates the export holds the last 90 days, today included', async () => {
    const answer = await exportRange('');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="inquiries-${dayOf(now - 89 * DAY)}-to-${dayOf(now)}.csv"`,
    );
    expect(namesIn(await answer.text())).toEqual(['today', 'ten', 'edge']);
  });

  it('finding 14: a range exports only the inquiries received on its days, both ends included', async () => {
    const edge = dayOf(now - 89 * DAY - 60_000);
    const before = dayOf(now - 91 * DAY - 60_000);
    const answer = await exportRange(`?from=${before}&to=${edge}`);
    expect(answer.status).toBe(200);
    expect(namesIn(await answer.text())).toEqual(['edge', 'before']);
    expect(
      namesIn(await (await exportRange(`?from=${dayOf(now - 300 * DAY)}&to=${dayOf(now - 150 * DAY)}`)).text()),
    ).toEqual(['old']);
    // An editor cannot export at all.
    expect((await exportRange('', 'editor')).status).toBe(403);
  });
});

describe('the background export of every inquiry', () => {
  it('finding 14: counts its progress part by part, then offers the whole file', async () => {
    const job = await queueExport('export-admin');
    expect(job).toMatchObject({ state: 'queued', done: 0, total: 5 });
    const seen: ExportJob[] = [];
    const finished = await runExport(job.id, { partRows: 2, onProgress: (progress) => seen.push(progress) });
    expect(seen.map((progress) => `${progress.done} of ${progress.total}`)).toEqual(['2 of 5', '4 of 5', '5 of 5']);
    expect(finished).toMatchObject({ state: 'done', done: 5 });
    // Run again (a replayed call): nothing happens.
    expect(await runExport(job.id)).toBeNull();
    const file = await exportsCall(`/${job.id}/file`, 'GET', 'admin');
    expect(file.status).toBe(200);
    expect(namesIn(await file.text())).toEqual(['today', 'ten', 'edge', 'before', 'old']);
  });

  it('offers a large export in files that each stay under the streamed answer limit, each with its header', async () => {
    const job = await queueExport('export-admin');
    const finished = await runExport(job.id, { partRows: 2 });
    // Three row parts (2, 2 and 1 rows) and the header part; files of at most two row parts' size plus the header.
    expect(finished?.partBytes).toHaveLength(4);
    const limit = finished!.partBytes[0] + finished!.partBytes[1] + finished!.partBytes[2];
    expect(filesOf(finished!, limit)).toEqual([[1, 2], [3]]);
    // Any split keeps every row once, in order, whatever the limit.
    for (const size of [1, limit, Number.MAX_SAFE_INTEGER]) expect(filesOf(finished!, size).flat()).toEqual([1, 2, 3]);
    // Through the function (the default limit): one file, and no second one.
    expect((await (await exportsCall(`/${job.id}`, 'GET', 'admin')).json()).files).toBe(1);
    expect((await exportsCall(`/${job.id}/file?part=2`, 'GET', 'admin')).status).toBe(404);
    expect((await exportsCall(`/${job.id}/file?part=0`, 'GET', 'admin')).status).toBe(400);
    expect((await exportsCall(`/${job.id}/file?part=x`, 'GET', 'admin')).status).toBe(400);
    const first = await exportsCall(`/${job.id}/file?part=1`, 'GET', 'admin');
    expect(namesIn(await first.text())).toEqual(['today', 'ten', 'edge', 'before', 'old']);
  });

  it('finding 14: answers 202 at once, runs in the background function and shows "done of total" until the file is ready', async () => {
    const started = await exportsCall('', 'POST', 'admin');
    expect(started.status).toBe(202);
    const { id, state } = await started.json();
    expect(state).toMatch(/queued|running|done/);
    await vi.waitFor(
      async () => {
        const status = await (await exportsCall(`/${id}`, 'GET', 'admin')).json();
        expect(status).toMatchObject({ state: 'done', done: 5, total: 5, requestedBy: 'export-admin' });
        expect(Date.parse(status.expiresAt) - Date.now()).toBeGreaterThan(23 * 60 * 60_000);
      },
      { timeout: 10_000, interval: 100 },
    );
    const file = await exportsCall(`/${id}/file`, 'GET', 'admin');
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename="inquiries-all-/);
    const bytes = Buffer.from(await file.arrayBuffer());
    // A byte-order mark (so spreadsheets read UTF-8), then the header row.
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const csv = bytes.subarray(3).toString('utf8');
    expect(csv.startsWith('"Received (UTC)"')).toBe(true);
    expect(namesIn(csv)).toHaveLength(5);
  });

  it('finding 14: only staff with the export permission may start, follow or fetch an export, and only until it expires', async () => {
    const job = await queueExport('export-admin');
    await runExport(job.id);
    for (const path of [`/${job.id}`, `/${job.id}/file`]) {
      expect((await exportsCall(path, 'GET')).status, path).toBe(401);
      expect((await exportsCall(path, 'GET', 'editor')).status, path).toBe(403);
    }
    expect((await exportsCall('', 'POST', 'editor')).status).toBe(403);
    // The background function itself does nothing for a call without a token allowed to export.
    const queued = await queueExport('export-admin');
    for (const who of [undefined, 'editor'] as const)
      await background(
        new Request('http://localhost/.netlify/functions/inquiry-export-background', {
          method: 'POST',
          headers: { ...headersOf(who), 'content-type': 'application/json' },
          body: JSON.stringify({ id: queued.id }),
        }),
      );
    expect(await (await exportsCall(`/${queued.id}`, 'GET', 'admin')).json()).toMatchObject({ state: 'queued' });
    // An unknown or malformed id is not there; a file past its time is gone, and removed from the store.
    expect((await exportsCall('/0123456789abcdef0123456789abcdef/file', 'GET', 'admin')).status).toBe(404);
    expect((await exportsCall('/..%2F..%2Fusers/file', 'GET', 'admin')).status).toBe(404);
    expect((await exportsCall(`/${queued.id}/file`, 'GET', 'admin')).status).toBe(409);
    await expireJob(job.id);
    expect((await exportsCall(`/${job.id}/file`, 'GET', 'admin')).status).toBe(404);
    expect((await exportsCall(`/${job.id}`, 'GET', 'admin')).status).toBe(404);
    expect((await fileStore('exports').list({ prefix: `file/${job.id}/` })).blobs).toEqual([]);
  });

  it('finding 14: the hourly sweep removes a file past its 24 hours even when nobody asks for it again', async () => {
    const job = await queueExport('export-admin');
    await runExport(job.id);
    const kept = await queueExport('export-admin');
    await runExport(kept.id);
    await expireJob(job.id);
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await retention();
    const left = (await fileStore('exports').list()).blobs.map((blob) => blob.key);
    expect(left.filter((key) => key.includes(job.id))).toEqual([]);
    expect(left.some((key) => key.includes(kept.id))).toBe(true);
    const jobs = await db().query<{ id: string }>(sql`SELECT id FROM export_jobs`);
    expect(jobs.map((row) => row.id)).not.toContain(job.id);
    expect(jobs.map((row) => row.id)).toContain(kept.id);
  });
});

describe("the range export stays inside a function's time", () => {
  it('finding 14: dates holding more inquiries than one export can take get 400 naming the way out', async () => {
    // One day with one more inquiry than the limit (counted by the database: no record is read to count).
    await db().query(sql`
      INSERT INTO inquiries (id, kind, source, created_at, first_name, last_name, email, phone, message)
      SELECT '20010115T000000000Z-' || lpad(to_hex(n), 8, '0'), 'contact', 'contact', '2001-01-15T00:00:00Z',
             'Many', 'Inquiries', 'many@example.com', '0400000000', 'One of many'
      FROM generate_series(0, ${RANGE_EXPORT_LIMIT}) AS n`);
    const answer = await exportRange('?from=2001-01-01&to=2001-01-31');
    expect(answer.status).toBe(400);
    expect((await answer.json()).message).toBe(
      'These dates hold 25,001 inquiries, more than the 25,000 one export can take. Choose fewer days, or use "Export every inquiry".',
    );
  }, 60_000);
});
