/**
 * Concurrent writers must never lose an update.
 *
 * Records live in the database; the code reaches it, as in production, through a pool of node-postgres
 * connections, here to the local database server (scripts/local/database.mjs) that `npm start` uses too. That
 * server runs each connection's statement or transaction alone, but statements of different connections
 * interleave: the first test shows a plain read-then-write from several connections losing updates there, so the
 * others, which race real work through the site's own code and function handlers, would show a lost update if the
 * code had one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { fakeContext, handlerFor, startInspectableBlobs, type LocalBlobs } from './helpers/hostile';
import { signedInStaff } from './helpers/staff';
import { storeContactInquiry } from './helpers/inquiries';
import { inquiriesWithOpenMail } from './helpers/outbox';
import { addView, viewsIn } from '../../src/server/counters';
import { monthKey } from '../../src/server/months';
import { createInquiry, getInquiry, setInquiryStatus } from '../../src/server/inquiries';
import { listInquiries } from '../../src/server/inquiry-inbox';
import { retryPendingMail } from '../../src/server/mail';
import type { MailTransport } from '../../src/server/mail-transports';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { db, sql } from '../../src/platform/database';

/** Lets the other connections' work go on for a moment. */
const yieldToOthers = () => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 3));

describe('across connections (the served local database)', () => {
  let stores: LocalBlobs;
  beforeAll(async () => {
    stores = await startInspectableBlobs();
  });
  afterAll(() => stores?.stop());
  beforeEach(() => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('the database really interleaves connections: a plain read-then-write loses updates', async () => {
    await db().query(sql`CREATE TABLE IF NOT EXISTS race_probe (id int PRIMARY KEY, n int NOT NULL)`);
    await db().query(sql`INSERT INTO race_probe VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET n = 0`);
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        const [{ n }] = await db().query<{ n: number }>(sql`SELECT n FROM race_probe WHERE id = 1`);
        await yieldToOthers();
        await db().query(sql`UPDATE race_probe SET n = ${n + 1} WHERE id = 1`);
      }),
    );
    const [{ n }] = await db().query<{ n: number }>(sql`SELECT n FROM race_probe WHERE id = 1`);
    expect(n).toBeLessThan(40);
    await db().query(sql`DROP TABLE race_probe`);
  });

  it('staff changing inquiries while the mail retry sends them: both changes survive', async () => {
    const long = new Date(Date.now() - 60 * 60_000); // stored an hour ago; its sender died, so the hold has run out
    const ids: string[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await storeContactInquiry({ firstName: `P${i}`, email: `p${i}@example.com` }, { at: long })).id);
    const sent: string[] = [];
    let staffWrites = 0;
    let staffStopped = false;
    // Each message stays on its way until staff have written twice more, so the two really interleave.
    const slowTransport: MailTransport = {
      name: 'outbox',
      async send(_mail, key) {
        const target = staffWrites + 2;
        while (staffWrites < target && !staffStopped) await yieldToOthers();
        sent.push(key);
        return { id: `test:${key}` };
      },
    };
    let retryDone = false;
    // Two staff members keep toggling the inquiries while the retry job works through them: the retry job never
    // changes a status and staff never change a delivery, so a write from a stale read would show below.
    const staff = async () => {
      for (let round = 0; round < 400 && !retryDone; round++)
        for (const id of ids) {
          await setInquiryStatus(id, Math.random() < 0.5 ? 'handled' : 'new');
          staffWrites++;
        }
    };
    const staffDone = Promise.all([staff(), staff()]).finally(() => {
      staffStopped = true;
    });
    const summary = await retryPendingMail({ transport: slowTransport }).finally(() => {
      retryDone = true;
    });
    await staffDone;

    expect(summary.sent).toBe(8);
    expect(new Set(sent).size).toBe(8); // every message once, none twice
    expect(staffWrites).toBeGreaterThan(8);
    for (const id of ids) {
      const record = (await getInquiry(id))!;
      expect(record.handledAt === null, id).toBe(record.status === 'new');
      expect(record.mail.staff, id).toMatchObject({ state: 'sent', attempts: 1 });
      expect(record.mail.ack, id).toMatchObject({ state: 'sent', attempts: 1 });
    }
    expect(await inquiriesWithOpenMail()).toEqual([]);
  });

  it('finding 9: the inbox counts agree with the rows after racing creates and status changes', async () => {
    await db().query(sql`DELETE FROM inquiries`);
    const at = new Date('2026-11-20T02:00:00Z');
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createInquiry(
          {
            kind: 'contact',
            source: 'contact',
            contact: { firstName: `R${i}`, lastName: 'Lee', email: `r${i}@example.com`, phone: '0400 000 000' },
            message: 'Hi',
          },
          at,
        ),
      ),
    );
    const ids = created.map((r) => r.id);
    await Promise.all(
      [1, 2, 3].map(async () => {
        for (let round = 0; round < 6; round++)
          await Promise.all(ids.map((id) => setInquiryStatus(id, Math.random() < 0.5 ? 'handled' : 'new')));
      }),
    );
    const page = await listInquiries({ status: 'all', limit: 100 });
    const records = await Promise.all(ids.map((id) => getInquiry(id)));
    const handledNow = records.filter((r) => r!.status === 'handled').length;
    expect(page.counts).toEqual({ all: 12, new: 12 - handledNow, handled: handledNow, due: 0, overdue: 0 });
    expect(page.items.map((i) => i.id)).toEqual([...ids].sort().reverse());
    const onlyNew = await listInquiries({ status: 'new', limit: 100 });
    expect(onlyNew.items.map((i) => i.id).sort()).toEqual(
      records
        .filter((r) => r!.status === 'new')
        .map((r) => r!.id)
        .sort(),
    );
  });

  it('two retry runs at once never send the same message twice', async () => {
    await db().query(sql`DELETE FROM inquiries`);
    const long = new Date(Date.now() - 60 * 60_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await storeContactInquiry({ firstName: `Q${i}`, email: `q${i}@example.com` }, { source: 'home', at: long }))
          .id,
      );
    const sent: string[] = [];
    const transport: MailTransport = {
      name: 'outbox',
      async send(_mail, key) {
        await yieldToOthers();
        sent.push(key);
        return { id: key };
      },
    };
    await Promise.all([retryPendingMail({ transport }), retryPendingMail({ transport })]);
    expect(sent.sort()).toEqual([...new Set(sent)].sort());
    expect(sent).toHaveLength(ids.length * 2);
  });
});

describe('through the function handlers, many requests at once', () => {
  let blobs: LocalBlobs;
  let token = '';
  beforeAll(async () => {
    process.env.JWT_SECRET = 'concurrency-secret-that-is-long-enough-0123456789';
    delete process.env.RESEND_API_KEY;
    blobs = await startInspectableBlobs();
    token = await signedInStaff({ username: 'race-admin', firstName: 'Ray', lastName: 'Ce' });
  });
  afterAll(() => blobs?.stop());
  beforeEach(() => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  const request = (route: string, init: RequestInit & { params?: Record<string, string> } = {}) => {
    const path = route.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(init.params?.[name] ?? ''));
    return handlerFor(route)!.handler(
      new Request(`http://localhost${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
      }),
      fakeContext(init.params ?? {}) as Context,
    ) as Promise<Response>;
  };

  it('60 view counts at once are all kept', async () => {
    const at = new Date('2026-03-10T00:00:00Z');
    await Promise.all(Array.from({ length: 60 }, () => addView(at)));
    expect(await viewsIn(monthKey(at))).toBe(60);
  });

  it('concurrent settings saves from the same version: exactly one lands whole, the others get 409 and change nothing', async () => {
    const saves = Array.from({ length: 10 }, (_, i) => ({
      contactInfo: {
        ...defaultSiteSettings.contactInfo,
        phone: `02 9000 00${String(i).padStart(2, '0')}`,
        email: `office${i}@example.com`,
        address: `${i} Save Street, Sydney NSW 2000`,
      },
      socialMedia: { ...defaultSiteSettings.socialMedia, facebook: `https://facebook.com/rpl${i}` },
    }));
    const { version } = (await (await request('/api/admin/site-settings')).json()) as { version: number };
    const answers = await Promise.all(
      saves.map((body) =>
        request('/api/admin/site-settings', { method: 'POST', body: JSON.stringify({ ...body, version }) }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(saves.length - 1);
    const stored = (await (await request('/api/admin/site-settings')).json()) as (typeof saves)[number];
    const winner = saves.findIndex((s) => s.contactInfo.email === stored.contactInfo.email);
    expect(winner).toBeGreaterThanOrEqual(0);
    expect(answers[winner]?.status).toBe(200);
    expect({ contactInfo: stored.contactInfo, socialMedia: stored.socialMedia }).toEqual(saves[winner]);
    const publicAnswer = await (await request('/api/public/site-settings')).json();
    expect(publicAnswer).toMatchObject({
      contactInfo: saves[winner].contactInfo,
      socialMedia: saves[winner].socialMedia,
    });
  });

  const blogReady = Boolean(
    handlerFor('/api/blogs') && handlerFor('/api/blogs/:slug') && handlerFor('/api/blogs/:slug/view'),
  );

  it('the blog functions exist', () => expect(blogReady).toBe(true));

  it('concurrent view beacons on one post are all counted (blog)', async () => {
    const created = await request('/api/blogs', {
      method: 'POST',
      body: JSON.stringify({
        title: 'Race post',
        excerpt: 'Views at once',
        content: '<p>Hello</p>',
        isPublished: true,
      }),
    });
    expect(created.status).toBeLessThan(300);
    const { blog } = await created.json();
    const at = monthKey(new Date());
    const before = await viewsIn(at);
    const beacons = await Promise.all(
      Array.from({ length: 40 }, () =>
        request('/api/blogs/:slug/view', { method: 'POST', params: { slug: blog.slug } }),
      ),
    );
    expect(beacons.map((b) => b.status)).toEqual(beacons.map(() => 200));
    const counts = await Promise.all(beacons.map(async (b) => (await b.json()).views as number));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await viewsIn(at)).toBe(before + 40);
    const read = await (await request('/api/blogs/:slug', { params: { slug: blog.slug } })).json();
    expect(read.views).toBe(40);
  });

  it('two editors saving the same version of a post: one wins, the other gets 409 (blog)', async () => {
    const created = await request('/api/blogs', {
      method: 'POST',
      body: JSON.stringify({ title: 'Edit race', excerpt: 'x', content: '<p>v1</p>' }),
    });
    const { blog } = await created.json();
    expect(blog.version, 'the admin shape carries the version the editor loaded').toEqual(expect.any(Number));
    const edit = (n: number) =>
      request('/api/blogs/:slug', {
        method: 'PUT',
        params: { slug: blog._id },
        body: JSON.stringify({
          title: `Edit race ${n}`,
          excerpt: 'x',
          content: `<p>editor ${n}</p>`,
          version: blog.version,
        }),
      });
    const answers = await Promise.all([1, 2, 3, 4].map(edit));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
  });
});
