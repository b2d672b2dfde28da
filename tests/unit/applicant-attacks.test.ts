/**
 * Attacks on the private applicant page and its evidence (issue 25, items 4 to 6), against the real
 * handlers, a real local blob server (the files' parts) and the migrated database (everything else): someone
 * else's link, an expired, revoked or guessed one, path tricks in file ids, an HTML file renamed .pdf, a 16 MB
 * file, and an editor asking for files. Each is refused with a clear message, stores nothing and leaks nothing.
 * Many uploads at once against the 200 MB cap: tests/unit/applicant-concurrency.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changedStores, snapshotBlobs, startInspectableBlobs, type LocalBlobs } from './helpers/hostile';
import { startDatabase, type TestDatabase } from './helpers/database';
import {
  call,
  chunk,
  complete,
  download,
  newApplicant,
  pdf,
  quoteInquiry,
  remove,
  staffToken,
  start,
  upload,
} from './helpers/applicants';
import { fileStore } from '../../src/platform/blobs';
import { getApplicant, INVALID_LINK } from '../../src/server/applicant-records';
import { issueApplicantLink, revokeLinks } from '../../src/server/applicant-links';
import { CHUNK_BYTES } from '../../src/schemas/applicant';

let blobs: LocalBlobs;
let database: TestDatabase;
const MB = 1024 * 1024;

async function evidenceKeys(): Promise<string[]> {
  return (await fileStore('evidence').list()).blobs.map((blob) => blob.key);
}

/** Every applicant row the tests can change, as text: equal before and after means nothing was written. */
async function applicantRows(): Promise<string> {
  const tables = ['applicants', 'applicant_links', 'evidence_files', 'applicant_events', 'applicant_reviews'];
  const all = await Promise.all(
    tables.map(async (table) => (await database.engine.query(`SELECT * FROM ${table} ORDER BY 1, 2`)).rows),
  );
  return JSON.stringify(all);
}

beforeAll(async () => {
  process.env.JWT_SECRET = 'applicant-attacks-secret-that-is-long-enough-0123';
  delete process.env.RESEND_API_KEY;
  [blobs, database] = await Promise.all([startInspectableBlobs(), startDatabase()]);
});
afterAll(() => Promise.all([blobs?.stop(), database?.stop()]));
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('issue 25: the applicant link', () => {
  it('finding: without a valid link GET /api/applicant and POST /api/applicant/evidence answer 401', async () => {
    const none = await call('/api/applicant', '/api/applicant');
    expect(none.status).toBe(401);
    expect((await none.json()).message).toBe('Open this page from the link in your e-mail.');
    const guessed = { authorization: `Bearer ${randomBytes(32).toString('base64url')}` };
    for (const auth of [guessed, { authorization: 'Bearer ../../token/abc' }, { authorization: 'Bearer x' }]) {
      const before = await snapshotBlobs(blobs.directory);
      const rowsBefore = await applicantRows();
      const read = await call('/api/applicant', '/api/applicant', { headers: auth });
      expect(read.status).toBe(401);
      const body = await read.json();
      expect(Object.keys(body)).toEqual(['message']);
      expect((await start(auth, 'a.pdf', 100)).status).toBe(401);
      expect(changedStores(before, await snapshotBlobs(blobs.directory))).toEqual([]);
      expect(await applicantRows()).toBe(rowsBefore);
    }
  });

  it("finding: a link opens its own applicant only; another applicant's files are unknown to it", async () => {
    const a = await newApplicant();
    const b = await newApplicant();
    const mine = await call('/api/applicant', '/api/applicant', { headers: a.auth });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect((await mine.json()).reference).toBe(a.inquiry.reference);
    const { uploadId } = await upload(b.auth, 'b-secret.pdf', pdf(1000));
    expect(uploadId).toBeDefined();
    const before = await snapshotBlobs(blobs.directory);
    const rowsBefore = await applicantRows();
    for (const answer of [
      await chunk(a.auth, uploadId!, 0, pdf(1000)),
      await complete(a.auth, uploadId!),
      await remove(a.auth, uploadId!),
    ]) {
      expect(answer.status).toBe(404);
      expect((await answer.json()).message).toBe('There is no such file.');
    }
    expect(changedStores(before, await snapshotBlobs(blobs.directory))).toEqual([]);
    expect(await applicantRows()).toBe(rowsBefore);
    const theirs = await (await call('/api/applicant', '/api/applicant', { headers: a.auth })).json();
    expect(JSON.stringify(theirs)).not.toContain('b-secret');
  });

  it('finding: an expired link and a revoked link are refused with the same clear message', async () => {
    const old = await quoteInquiry('old@example.com', 'Old');
    const expired = (await issueApplicantLink(old.id, new Date(Date.now() - 31 * 24 * 3600_000)))!.split('#token=')[1];
    const answer = await call('/api/applicant', '/api/applicant', { headers: { authorization: `Bearer ${expired}` } });
    expect(answer.status).toBe(401);
    expect((await answer.json()).message).toBe(INVALID_LINK);

    const live = await newApplicant();
    expect((await call('/api/applicant', '/api/applicant', { headers: live.auth })).status).toBe(200);
    await revokeLinks(live.inquiry.id);
    const revoked = await call('/api/applicant', '/api/applicant', { headers: live.auth });
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).message).toBe(INVALID_LINK);
    expect((await start(live.auth, 'a.pdf', 100)).status).toBe(401);
  });
});

describe('issue 25: evidence uploads', () => {
  it('finding: path tricks in file ids reach no file, for the applicant or for staff', async () => {
    const a = await newApplicant();
    const { uploadId } = await upload(a.auth, 'mine.pdf', pdf(500));
    const admin = await staffToken('admin');
    const before = await snapshotBlobs(blobs.directory);
    const rowsBefore = await applicantRows();
    for (const trick of [
      '..',
      '../upload',
      `../${uploadId}`,
      `${uploadId}/../x`,
      `chunk/${uploadId}/0`,
      '%2e%2e',
      uploadId!.toUpperCase(),
    ]) {
      const sent = await chunk(a.auth, trick, 0, pdf(500));
      expect([404, 400]).toContain(sent.status);
      expect((await sent.json()).message).toMatch(/no such file|Not a chunk/);
      // (An address with '..' is normalised to another route by the URL itself: still never a file.)
      const got = await download(admin, a.inquiry.id, trick);
      expect(got.headers.get('content-type')).toMatch(/^application\/json/);
      expect(got.headers.get('content-disposition')).toBeNull();
      expect(await got.text()).not.toContain('%PDF');
    }
    expect(changedStores(before, await snapshotBlobs(blobs.directory))).toEqual([]);
    expect(await applicantRows()).toBe(rowsBefore);
  });

  it('finding: an HTML file renamed .pdf is refused for its content and nothing of it is kept', async () => {
    const a = await newApplicant();
    const html = new TextEncoder().encode('<!doctype html><script>alert(1)</script>');
    const keysBefore = await evidenceKeys();
    const result = await upload(a.auth, 'invoice.pdf', html);
    expect(result.refused?.status).toBe(415);
    expect((await result.refused!.json()).message).toBe(
      'invoice.pdf was not accepted. Only PDF, JPEG, PNG, HEIC, Word (DOCX) and OpenDocument (ODT) files are accepted.',
    );
    expect(await evidenceKeys()).toEqual(keysBefore);
    const record = await getApplicant(a.inquiry.id);
    expect(record?.files).toEqual([]);
    expect(record?.pending).toEqual([]);
    const rows = await database.engine.query('SELECT id FROM evidence_files WHERE inquiry_id = $1', [a.inquiry.id]);
    expect(rows.rows).toEqual([]);
  });

  it('finding: a 16 MB file is refused before anything is stored', async () => {
    const a = await newApplicant();
    const before = await snapshotBlobs(blobs.directory);
    const rowsBefore = await applicantRows();
    const answer = await start(a.auth, 'big.pdf', 16 * MB);
    expect(answer.status).toBe(413);
    expect((await answer.json()).message).toBe('This file is too large: each file may be at most 15 MB.');
    expect(changedStores(before, await snapshotBlobs(blobs.directory))).toEqual([]);
    expect(await applicantRows()).toBe(rowsBefore);
    // Lying about the size does not help: a chunk larger than announced is refused.
    const started = await (await start(a.auth, 'small.pdf', 1000)).json();
    const oversize = await chunk(a.auth, started.uploadId, 0, pdf(5 * MB));
    expect(oversize.status).toBe(400);
    expect((await oversize.json()).message).toBe('Chunk 0 must be exactly 1000 bytes.');
  });

  it('finding: a resent chunk is harmless and a chunk out of order is refused', async () => {
    const a = await newApplicant();
    const bytes = pdf(CHUNK_BYTES + 10);
    const { uploadId } = await (await start(a.auth, 'two.pdf', bytes.byteLength)).json();
    const skip = await chunk(a.auth, uploadId, 1, bytes.subarray(CHUNK_BYTES));
    expect(skip.status).toBe(409);
    expect((await skip.json()).message).toBe('Send chunk 0 first.');
    expect((await chunk(a.auth, uploadId, 0, bytes.subarray(0, CHUNK_BYTES))).status).toBe(200);
    expect(await (await chunk(a.auth, uploadId, 0, bytes.subarray(0, CHUNK_BYTES))).json()).toEqual({
      received: 1,
      chunks: 2,
    });
    const early = await complete(a.auth, uploadId);
    expect(early.status).toBe(409);
    expect((await chunk(a.auth, uploadId, 1, bytes.subarray(CHUNK_BYTES))).status).toBe(200);
    expect((await complete(a.auth, uploadId)).status).toBe(200);
    const got = await download(await staffToken('admin'), a.inquiry.id, uploadId);
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="two.pdf"; filename*=UTF-8''two.pdf`);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('issue 25: the staff side', () => {
  it('finding: an editor asking for an applicant or a file gets 403 and no byte of it', async () => {
    const a = await newApplicant();
    const { uploadId } = await upload(a.auth, 'private.pdf', pdf(800));
    const editor = await staffToken('editor');
    const file = await download(editor, a.inquiry.id, uploadId!);
    expect(file.status).toBe(403);
    const text = await file.text();
    expect(JSON.parse(text).message).toMatch(/^Your role \(editor\) does not allow this/);
    expect(text).not.toContain('%PDF');
    const view = await call('/api/admin/applicants/:id', `/api/admin/applicants/${a.inquiry.id}`, {
      headers: editor,
      params: { id: a.inquiry.id },
    });
    expect(view.status).toBe(403);
    // The applicant's own link opens no staff route.
    const withLink = await download(a.auth, a.inquiry.id, uploadId!);
    expect(withLink.status).toBe(401);
  });
});
