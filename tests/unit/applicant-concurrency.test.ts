/**
 * What the database guarantees an applicant when many requests land at once (uploads from several tabs,
 * two staff members on one applicant, a retry run overlapping another), through the real function handlers:
 * the 200 MB cap is never passed and every completed file is listed; reviews of different items are all kept;
 * the stage history stays consistent; links, link e-mails and queued e-mails are each counted once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startStores } from './helpers/stores';
import {
  call,
  chunk,
  download,
  newApplicant,
  ownView,
  pdf,
  quoteInquiry,
  staffToken,
  sendParts,
  start,
  type Headers,
} from './helpers/applicants';
import { setDatabase, type Database, type Queryable } from '../../src/platform/database';
import { fileStore } from '../../src/platform/blobs';
import { issueApplicantLink } from '../../src/server/applicant-links';
import { queueApplicantMail, retryApplicantMail } from '../../src/server/applicant-mail';
import { MAX_TOKENS } from '../../src/server/applicant-records';
import type { MailTransport } from '../../src/server/mail-transports';
import { CHUNK_BYTES, MAX_APPLICANT_BYTES, MAX_FILE_BYTES } from '../../src/schemas/applicant';

let stores: Awaited<ReturnType<typeof startStores>>;

/**
 * The test database answers each statement a few milliseconds later, as a busy server over a network would:
 * the in-process engine is so fast that requests would hardly ever overlap between two statements, and a
 * read-then-write outside a transaction would pass unnoticed.
 */
function slowed(inner: Database): Database {
  const later = () => new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8));
  const wrap = (q: Queryable): Queryable => ({
    async query(statement) {
      await later();
      return q.query(statement);
    },
  });
  return { ...wrap(inner), transaction: (work) => inner.transaction((tx) => work(wrap(tx))) };
}
const KB = 1024;

const rows = async <T>(text: string, values: unknown[] = []) => (await stores.engine.query<T>(text, values)).rows;

const staffView = async (auth: Headers, id: string) =>
  (await call('/api/admin/applicants/:id', `/api/admin/applicants/${id}`, { headers: auth, params: { id } })).json();

beforeAll(async () => {
  process.env.JWT_SECRET = 'applicant-concurrency-secret-that-is-long-enough-0123';
  delete process.env.RESEND_API_KEY;
  stores = await startStores();
  setDatabase(slowed(stores.db));
});
afterAll(() => stores?.stop());
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('uploads at once', () => {
  it('30 uploads at once: the cap holds, no room is refused wrongly, every completed file is listed and intact', async () => {
    const a = await newApplicant();
    // Twelve 15 MB uploads under way already: 180 MB reserved, 20 MB left.
    for (let i = 0; i < 12; i++) expect((await start(a.auth, `big-${i}.pdf`, MAX_FILE_BYTES)).status).toBe(201);
    const reserved = 12 * MAX_FILE_BYTES;
    // About 32 MB in all, so the cap is reached part way; one of them travels in two parts.
    const files = Array.from({ length: 30 }, (_, i) =>
      pdf(i === 5 ? CHUNK_BYTES + 1000 : 300 * KB + i * 45 * KB, i + 1),
    );
    // Every start at once (where the reservations race), then each file's parts and completion, all at once too.
    const starts = await Promise.all(files.map((bytes, i) => start(a.auth, `file-${i}.pdf`, bytes.byteLength)));
    const results = await Promise.all(files.map((bytes, i) => sendParts(a.auth, starts[i], bytes)));

    const accepted = results.flatMap((r, i) => (r.uploadId ? [{ id: r.uploadId, bytes: files[i] }] : []));
    const refused = results.flatMap((r, i) => (r.refused ? [{ answer: r.refused, size: files[i].byteLength }] : []));
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const used = reserved + accepted.reduce((sum, f) => sum + f.bytes.byteLength, 0);
    expect(used).toBeLessThanOrEqual(MAX_APPLICANT_BYTES);
    for (const { answer, size } of refused) {
      expect(answer.status).toBe(413);
      expect((await answer.json()).message).toMatch(
        /^There is no room for this file: everything you send may be at most 200 MB \(\d+ MB used\)\.$/,
      );
      // Refused only when it really did not fit: nothing reserved was given back, so it still does not.
      expect(used + size).toBeGreaterThan(MAX_APPLICANT_BYTES);
    }

    const view = await ownView(a.auth);
    expect(view.usedBytes).toBe(used);
    expect(view.files.map((f: { id: string }) => f.id).sort()).toEqual(accepted.map((f) => f.id).sort());
    expect(view.events.filter((e: { type: string }) => e.type === 'upload')).toHaveLength(accepted.length);
    const stored = await rows<{ state: string; n: number }>(
      'SELECT state, count(*)::int AS n FROM evidence_files WHERE inquiry_id = $1 GROUP BY state ORDER BY state',
      [a.inquiry.id],
    );
    expect(stored).toEqual([
      { state: 'complete', n: accepted.length },
      { state: 'uploading', n: 12 },
    ]);

    const admin = await staffToken('admin');
    for (const { id, bytes } of accepted) {
      const got = await download(admin, a.inquiry.id, id);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    }
    // Refused uploads left no part behind: every part belongs to an accepted file.
    const owners = new Set((await fileStore('evidence').list()).blobs.map((blob) => blob.key.split('/')[1]));
    expect([...owners].sort()).toEqual(accepted.map((f) => f.id).sort());
  }, 120_000);

  it('the same part sent twice at once is counted once', async () => {
    const a = await newApplicant();
    const bytes = pdf(CHUNK_BYTES + 10);
    const { uploadId } = await (await start(a.auth, 'twice.pdf', bytes.byteLength)).json();
    const head = bytes.subarray(0, CHUNK_BYTES);
    const answers = await Promise.all([chunk(a.auth, uploadId, 0, head), chunk(a.auth, uploadId, 0, head)]);
    for (const answer of answers) expect(await answer.json()).toEqual({ received: 1, chunks: 2 });
    const [row] = await rows<{ received: number }>('SELECT received FROM evidence_files WHERE id = $1', [uploadId]);
    expect(row.received).toBe(1);
  }, 60_000);
});

describe('staff at once', () => {
  it('reviews of different items made at once are all kept', async () => {
    const a = await newApplicant();
    const admin = await staffToken('admin');
    const { checklist } = await staffView(admin, a.inquiry.id);
    expect(checklist.length).toBeGreaterThanOrEqual(3);
    const answers = await Promise.all(
      checklist.map((item: { id: string }, i: number) =>
        call('/api/admin/applicants/:id/items/:itemId', `/api/admin/applicants/${a.inquiry.id}/items/${item.id}`, {
          method: 'PUT',
          headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'accepted', note: `checked ${i}` }),
          params: { id: a.inquiry.id, itemId: item.id },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const view = await staffView(admin, a.inquiry.id);
    expect(view.checklist.map((item: { review?: { note: string } }) => item.review?.note)).toEqual(
      checklist.map((_: unknown, i: number) => `checked ${i}`),
    );
    expect(view.events.filter((e: { type: string }) => e.type === 'review')).toHaveLength(checklist.length);
    // The applicant sees them too.
    const own = await ownView(a.auth);
    expect(own.checklist.every((item: { review?: { status: string } }) => item.review?.status === 'accepted')).toBe(
      true,
    );
  }, 60_000);

  it('stage changes made at once leave one consistent history', async () => {
    const a = await newApplicant();
    const admin = await staffToken('admin');
    // Two staff members, each asking for their stage eight times (a double click, a page sent again).
    const wanted = Array.from({ length: 16 }, (_, i) => (i % 2 ? 'assessment' : 'gathering'));
    const answers = await Promise.all(
      wanted.map((stage) =>
        call('/api/admin/applicants/:id', `/api/admin/applicants/${a.inquiry.id}`, {
          method: 'PATCH',
          headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify({ stage }),
          params: { id: a.inquiry.id },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const view = await staffView(admin, a.inquiry.id);
    const history: { stage: string; at: string }[] = view.stages;
    expect(history[0].stage).toBe('received');
    // Every line is a change from the one before, the last one is where the application stands, and each
    // change has its event.
    for (let i = 1; i < history.length; i++) expect(history[i].stage).not.toBe(history[i - 1].stage);
    expect(history.at(-1)!.stage).toBe(view.stage);
    expect(wanted).toContain(view.stage);
    expect(history.length).toBeGreaterThan(1);
    expect(history.length).toBeLessThanOrEqual(wanted.length + 1);
    expect(view.events.filter((e: { type: string }) => e.type === 'stage')).toHaveLength(history.length - 1);
    expect((await ownView(a.auth)).stages).toEqual(history);
  }, 60_000);
});

describe('links and e-mails at once', () => {
  it('links issued at once: at most MAX_TOKENS are kept, and exactly those open the page', async () => {
    const inquiry = await quoteInquiry();
    const links = await Promise.all(Array.from({ length: 15 }, () => issueApplicantLink(inquiry.id)));
    const [{ n }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM applicant_links WHERE inquiry_id = $1', [
      inquiry.id,
    ]);
    expect(n).toBe(MAX_TOKENS);
    const opened = await Promise.all(
      links.map(async (link) => {
        const answer = await call('/api/applicant', '/api/applicant', {
          headers: { authorization: `Bearer ${link!.split('#token=')[1]}` },
        });
        return answer.status;
      }),
    );
    expect(opened.filter((status) => status === 200)).toHaveLength(MAX_TOKENS);
    expect(opened.filter((status) => status === 401)).toHaveLength(15 - MAX_TOKENS);
  }, 60_000);

  it('renewal requests at once send one link e-mail', async () => {
    const a = await newApplicant();
    const ask = () =>
      call('/api/applicant/link', '/api/applicant/link', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: a.inquiry.contact.email, reference: a.inquiry.reference }),
      });
    const answers = await Promise.all(Array.from({ length: 6 }, ask));
    for (const answer of answers) expect(answer.status).toBe(202);
    // Each link e-mail carries a fresh link: the one from the start and one more.
    const [{ n }] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM applicant_links WHERE inquiry_id = $1', [
      a.inquiry.id,
    ]);
    expect(n).toBe(2);
  }, 60_000);

  it('two retry runs at once send each waiting e-mail once', async () => {
    const a = await newApplicant();
    const failing: MailTransport = {
      name: 'resend',
      async send() {
        throw new Error('mail service down');
      },
    };
    const queuedAt = new Date();
    for (let i = 0; i < 8; i++)
      await queueApplicantMail(
        a.inquiry.id,
        { kind: 'applicant-needs-more', item: `item ${i}`, note: 'more please' },
        { transport: failing, now: queuedAt },
      );
    const sent: string[] = [];
    const counting: MailTransport = {
      name: 'resend',
      async send(_mail, key) {
        sent.push(key);
        // A send takes a moment, so the two runs overlap.
        await new Promise((resolve) => setImmediate(resolve));
        return { id: key };
      },
    };
    const later = new Date(queuedAt.getTime() + 60 * 60_000);
    const [one, two] = await Promise.all([
      retryApplicantMail({ transport: counting, now: later }),
      retryApplicantMail({ transport: counting, now: later }),
    ]);
    expect(one.sent + two.sent).toBe(8);
    expect(sent).toHaveLength(8);
    expect(new Set(sent).size).toBe(8);
    expect(await rows('SELECT id FROM applicant_mail WHERE inquiry_id = $1', [a.inquiry.id])).toEqual([]);
  }, 60_000);
});
