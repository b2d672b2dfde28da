/**
 * How an applicant's evidence goes away (APP 11 / APP 13), with a local blob server for the files' parts and
 * the migrated database for everything else: the applicant removes a file; the hourly sweep removes uploads
 * nobody completed and the files of inquiries handled more than EVIDENCE_RETENTION_DAYS ago; staff erase an
 * applicant. Each time the parts go from the evidence store and the rows from the tables, and nothing else.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import { call, chunk, newApplicant, ownView, pdf, remove, staffToken, start, upload } from './helpers/applicants';
import { fileStore } from '../../src/platform/blobs';
import { sweepEvidence } from '../../src/server/applicant-evidence';
import { queueApplicantMail } from '../../src/server/applicant-mail';
import { getInquiry } from '../../src/server/inquiries';
import type { MailTransport } from '../../src/server/mail-transports';
import { CHUNK_BYTES, EVIDENCE_RETENTION_DAYS, STALE_UPLOAD_HOURS } from '../../src/schemas/applicant';

let stores: Awaited<ReturnType<typeof startStores>>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const rows = async <T>(text: string, values: unknown[] = []) => (await stores.engine.query<T>(text, values)).rows;
/** The ids whose parts are in the evidence store. */
const partOwners = async () =>
  new Set((await fileStore('evidence').list()).blobs.map((blob) => blob.key.split('/')[1]));
const fileIds = async (inquiryId: string) =>
  (await rows<{ id: string }>('SELECT id FROM evidence_files WHERE inquiry_id = $1 ORDER BY id', [inquiryId])).map(
    (row) => row.id,
  );
const markHandled = (inquiryId: string, at: Date) =>
  stores.engine.query("UPDATE inquiries SET status = 'handled', handled_at = $2 WHERE id = $1", [inquiryId, at]);

beforeAll(async () => {
  process.env.JWT_SECRET = 'applicant-retention-secret-that-is-long-enough-0123';
  delete process.env.RESEND_API_KEY;
  stores = await startStores();
});
afterAll(() => stores?.stop());
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('the applicant removes a file', () => {
  it('a sent file goes with its parts and leaves a line in the history; an upload given up leaves none', async () => {
    const a = await newApplicant();
    const sent = (await upload(a.auth, 'payslip.pdf', pdf(CHUNK_BYTES + 100))).uploadId!;
    const { uploadId: half } = await (await start(a.auth, 'half.pdf', CHUNK_BYTES + 100)).json();
    expect((await chunk(a.auth, half, 0, pdf(CHUNK_BYTES))).status).toBe(200);
    expect((await remove(a.auth, sent)).status).toBe(204);
    expect((await remove(a.auth, half)).status).toBe(204);
    expect(await fileIds(a.inquiry.id)).toEqual([]);
    const owners = await partOwners();
    expect(owners.has(sent) || owners.has(half)).toBe(false);
    const view = await ownView(a.auth);
    expect(view.files).toEqual([]);
    expect(view.usedBytes).toBe(0);
    expect(view.events.map((e: { type: string; detail: string }) => `${e.type} ${e.detail}`)).toEqual([
      'upload payslip.pdf',
      'remove payslip.pdf',
    ]);
  });
});

describe('the retention sweep', () => {
  it('removes uploads left unfinished for STALE_UPLOAD_HOURS, parts and rows, and keeps fresh ones', async () => {
    const a = await newApplicant();
    const { uploadId: old } = await (await start(a.auth, 'old.pdf', 2000)).json();
    const { uploadId: fresh } = await (await start(a.auth, 'fresh.pdf', 2000)).json();
    expect((await chunk(a.auth, old, 0, pdf(2000))).status).toBe(200);
    const done = (await upload(a.auth, 'done.pdf', pdf(3000))).uploadId!;
    await stores.engine.query('UPDATE evidence_files SET started_at = $2 WHERE id = $1', [
      old,
      new Date(Date.now() - (STALE_UPLOAD_HOURS + 1) * HOUR),
    ]);
    const summary = await sweepEvidence();
    expect(summary.staleUploads).toBe(1);
    expect(await fileIds(a.inquiry.id)).toEqual([done, fresh].sort());
    const owners = await partOwners();
    expect(owners.has(old)).toBe(false);
    expect(owners.has(done)).toBe(true);
    // The reservation went with it.
    expect((await ownView(a.auth)).usedBytes).toBe(5000);
  });

  it('deletes the files of inquiries handled EVIDENCE_RETENTION_DAYS ago, and only those', async () => {
    const expired = await newApplicant();
    const recent = await newApplicant();
    const open = await newApplicant();
    const ids = new Map<string, string[]>();
    for (const a of [expired, recent, open]) {
      const sent = [];
      for (const name of ['one.pdf', 'two.pdf']) sent.push((await upload(a.auth, name, pdf(1500))).uploadId!);
      ids.set(a.inquiry.id, sent.sort());
    }
    const now = new Date();
    await markHandled(expired.inquiry.id, new Date(now.getTime() - (EVIDENCE_RETENTION_DAYS + 1) * DAY));
    await markHandled(recent.inquiry.id, new Date(now.getTime() - (EVIDENCE_RETENTION_DAYS - 1) * DAY));

    // A run already out of its time starts nothing and says work is left; the next run does it.
    expect(await sweepEvidence(now, Date.now())).toEqual({ staleUploads: 0, expiredFiles: 0, more: true });
    expect(await fileIds(expired.inquiry.id)).toEqual(ids.get(expired.inquiry.id));
    expect(await sweepEvidence(now)).toEqual({ staleUploads: 0, expiredFiles: 2, more: false });
    expect(await fileIds(expired.inquiry.id)).toEqual([]);
    expect(await fileIds(recent.inquiry.id)).toEqual(ids.get(recent.inquiry.id));
    expect(await fileIds(open.inquiry.id)).toEqual(ids.get(open.inquiry.id));
    const owners = await partOwners();
    for (const id of ids.get(expired.inquiry.id)!) expect(owners.has(id)).toBe(false);
    for (const id of [...ids.get(recent.inquiry.id)!, ...ids.get(open.inquiry.id)!]) expect(owners.has(id)).toBe(true);

    const admin = await staffToken('admin');
    const view = await (
      await call('/api/admin/applicants/:id', `/api/admin/applicants/${expired.inquiry.id}`, {
        headers: admin,
        params: { id: expired.inquiry.id },
      })
    ).json();
    expect(view.files).toEqual([]);
    expect(view.filesExpiredAt).toBe(now.toISOString());
    expect(view.events.at(-1)).toEqual({ at: now.toISOString(), type: 'files-expired', detail: '2' });
    // A second run finds nothing more to do.
    expect(await sweepEvidence(now)).toEqual({ staleUploads: 0, expiredFiles: 0, more: false });
  });
});

describe('staff erase an applicant', () => {
  it('the parts, the applicant, its links and waiting e-mails go; one anonymous line stays', async () => {
    const a = await newApplicant();
    const sent = (await upload(a.auth, 'id-card.pdf', pdf(2500))).uploadId!;
    const { uploadId: half } = await (await start(a.auth, 'half.pdf', 2500)).json();
    const failing: MailTransport = {
      name: 'resend',
      async send() {
        throw new Error('mail service down');
      },
    };
    await queueApplicantMail(
      a.inquiry.id,
      { kind: 'applicant-needs-more', item: 'Resume', note: 'Your resume from Acme Pty Ltd, please' },
      { transport: failing },
    );
    const admin = await staffToken('admin');
    const answer = await call('/api/admin/applicants/:id/erase', `/api/admin/applicants/${a.inquiry.id}/erase`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: a.inquiry.reference }),
      params: { id: a.inquiry.id },
    });
    expect(answer.status).toBe(200);

    const owners = await partOwners();
    expect(owners.has(sent) || owners.has(half)).toBe(false);
    for (const table of [
      'applicants',
      'applicant_links',
      'evidence_files',
      'applicant_events',
      'applicant_stages',
      'applicant_mail',
    ])
      expect(await rows(`SELECT 1 FROM ${table} WHERE inquiry_id = $1`, [a.inquiry.id]), table).toEqual([]);
    expect(
      await rows('SELECT by_username, files FROM applicant_erasures WHERE inquiry_id = $1', [a.inquiry.id]),
    ).toEqual([{ by_username: 'appl-admin', files: 2 }]);
    expect((await getInquiry(a.inquiry.id))?.erasedAt).toBeTruthy();
    // The link opens nothing any more.
    expect((await call('/api/applicant', '/api/applicant', { headers: a.auth })).status).toBe(401);
  });

  it('a failure part-way leaves the applicant and the personal details as they were, and erasing again finishes', async () => {
    const a = await newApplicant();
    // The anonymous line is the transaction's last statement: refused once, everything before it must roll back.
    await stores.engine.query(
      "ALTER TABLE applicant_erasures ADD CONSTRAINT test_refuse_once CHECK (by_username <> 'appl-admin') NOT VALID",
    );
    const { eraseApplicant } = await import('../../src/server/applicants');
    const by = { username: 'appl-admin', name: 'Appl Admin' };
    await expect(eraseApplicant(a.inquiry.id, by)).rejects.toThrow();
    expect(await rows('SELECT 1 FROM applicants WHERE inquiry_id = $1', [a.inquiry.id])).toHaveLength(1);
    const kept = await getInquiry(a.inquiry.id);
    expect(kept?.erasedAt).toBeUndefined();
    expect(kept?.contact.email).toBe(a.inquiry.contact.email);

    await stores.engine.query('ALTER TABLE applicant_erasures DROP CONSTRAINT test_refuse_once');
    expect(await eraseApplicant(a.inquiry.id, by)).toBe(true);
    expect(await rows('SELECT 1 FROM applicants WHERE inquiry_id = $1', [a.inquiry.id])).toEqual([]);
    expect((await getInquiry(a.inquiry.id))?.erasedAt).toBeTruthy();
  });
});
