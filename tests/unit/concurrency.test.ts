/**
 * Concurrent writers must never lose an update.
 *
 * Two kinds of writers exist: requests in the same function instance (serialised per key inside the
 * process by updateJSON) and requests in other instances or the scheduled mail retry (only the
 * conditional writes, onlyIfMatch / onlyIfNew, keep them apart). The second kind cannot be tested
 * honestly against the local blob emulation: its ETags are the file's modification time in
 * milliseconds and its check-then-write is not atomic, so two writes in the same millisecond look
 * alike. Cross-instance races therefore run against PlatformStore (helpers/platform-blobs.ts), an in-memory model of the
 * documented Netlify Blobs semantics (atomic conditional writes, a new ETag per write), with each
 * simulated instance getting its own store objects, and random delays inside every call. A naive
 * read-then-write is run on the same model first and shown to lose updates, so the model really races.
 * In-process races run against the real local blob server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { fakeContext, handlerFor, startInspectableBlobs, type LocalBlobs } from './helpers/hostile';
import { signedInStaff } from './helpers/staff';
import { storeContactInquiry } from './helpers/inquiries';
import { inInstance, jitter, platformModel } from './helpers/platform-blobs';
import { dataStore, updateJSON } from '../../src/server/blobs';
import { addView, viewsIn } from '../../src/server/counters';
import { monthKey } from '../../src/server/months';
import { createInquiry, getInquiry, listPendingMailIds, setInquiryStatus } from '../../src/server/inquiries';
import { listInquiries } from '../../src/server/inquiry-inbox';
import { retryPendingMail } from '../../src/server/mail';
import type { MailTransport } from '../../src/server/mail-transports';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import * as v from 'valibot';
import { countView, viewCount } from '../../src/server/blog-reads';
import { createBlog } from '../../src/server/blogs';
import { BlogInputSchema } from '../../src/schemas/blog';

/* ---------- A model of the platform's blob semantics, switchable per test (helpers/platform-blobs.ts) ---------- */

vi.mock('@netlify/blobs', async (importOriginal) =>
  (await import('./helpers/platform-blobs')).mockBlobsModule(await importOriginal()),
);
const platform = platformModel;

describe('across function instances (platform model)', () => {
  beforeEach(() => {
    platform.active = true;
    platform.reset(0xc0ffee);
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterAll(() => {
    platform.active = false;
  });

  const INSTANCES = 4;
  const PER_INSTANCE = 15;
  const everywhere = (work: (instance: number) => Promise<unknown>) =>
    Promise.all(
      Array.from({ length: INSTANCES }, (_, i) =>
        inInstance(`instance-${i}`, async () => {
          for (let n = 0; n < PER_INSTANCE; n++) await work(i);
        }),
      ),
    );

  it('the model really races: a plain read-then-write loses updates', async () => {
    await everywhere(async () => {
      const store = dataStore('counters');
      const current = ((await store.get('naive', { type: 'json' })) as { count: number } | null)?.count ?? 0;
      await store.setJSON('naive', { count: current + 1 });
    });
    const final = (await dataStore('counters').get('naive', { type: 'json' })) as { count: number };
    expect(final.count).toBeLessThan(INSTANCES * PER_INSTANCE);
  });

  it('view counts from several instances at once are all kept (addView / updateJSON)', async () => {
    const at = new Date('2026-11-20T02:00:00Z');
    await everywhere(() => addView(at));
    expect(await viewsIn(monthKey(at))).toBe(INSTANCES * PER_INSTANCE);
  });

  it('also where reads carry no ETag and updateJSON falls back to listing (as on the local emulation)', async () => {
    await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        inInstance(i === 0 ? 'emulation-like' : `instance-${i}`, async () => {
          for (let n = 0; n < 20; n++)
            await updateJSON<{ count: number }>(dataStore('counters'), 'mixed', (c) => ({
              count: (c?.count ?? 0) + 1,
            }));
        }),
      ),
    );
    expect(((await dataStore('counters').get('mixed', { type: 'json' })) as { count: number }).count).toBe(60);
  });

  describe('finding 8: view counts are lost under parallel beacons', () => {
    // Real store calls take tens of milliseconds, so many writers of one key keep colliding for a while.
    beforeEach(() => {
      platform.latency = 15;
    });

    it('40 parallel beacons, each in its own instance: 40 counted on the post and in the month total', async () => {
      const at = new Date('2026-11-20T02:00:00Z');
      const blog = await inInstance('editor', () =>
        createBlog(
          v.parse(BlogInputSchema, {
            title: 'Parallel beacons',
            excerpt: 'Counted once each',
            content: '<p>Hi</p>',
            isPublished: true,
          }),
          'editor',
          at,
        ),
      );
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => inInstance(`beacon-${i}`, () => countView(blog.slug, at))),
      );
      expect(answers.every((n) => typeof n === 'number')).toBe(true);
      expect((answers as number[]).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(await viewCount(blog._id)).toBe(40);
      expect(await viewsIn(monthKey(at))).toBe(40);
    });

    it('the month total keeps every view when 80 instances count at once', async () => {
      const at = new Date('2026-10-05T02:00:00Z');
      await Promise.all(Array.from({ length: 80 }, (_, i) => inInstance(`viewer-${i}`, () => addView(at))));
      expect(await viewsIn(monthKey(at))).toBe(80);
    });
  });

  it('staff changing inquiries while the mail retry sends them: both changes survive', async () => {
    const long = new Date(Date.now() - 60 * 60_000); // stored an hour ago; its sender died, so the hold has run out
    const ids = await inInstance('web', async () => {
      const created = [];
      for (let i = 0; i < 4; i++)
        created.push((await storeContactInquiry({ firstName: `P${i}`, email: `p${i}@example.com` }, { at: long })).id);
      return created;
    });
    const sent: string[] = [];
    // Staff writes of the inquiry records themselves (a toggle also writes the inbox index, which races nothing here).
    const staffWrites = () =>
      platform.writes.filter((w) => w.writer.includes('@staff-') && w.key.startsWith('inquiry/')).length;
    let retryDone = false;
    let staffStopped = false;
    // Each message stays on its way until staff have written twice more, so the two really interleave
    // however the machine schedules them.
    const slowTransport: MailTransport = {
      name: 'outbox',
      async send(_mail, key) {
        const target = staffWrites() + 2;
        while (staffWrites() < target && !staffStopped) await jitter();
        sent.push(key);
        return { id: `test:${key}` };
      },
    };
    // Two staff members keep toggling the inquiries while the retry job works through them. Every write
    // must build on the version it replaced: the retry job never changes a status, staff never change
    // a delivery record. (A write from a stale read would undo the other's change, and show here.)
    const staff = (instance: string) =>
      inInstance(instance, async () => {
        for (let round = 0; round < 400 && !retryDone; round++) {
          for (const id of ids) await setInquiryStatus(id, platform.random() < 0.5 ? 'handled' : 'new');
        }
      });
    const staffDone = Promise.all([staff('staff-a'), staff('staff-b')]).finally(() => {
      staffStopped = true;
    });
    const summary = await inInstance('mail-retry', () => retryPendingMail({ transport: slowTransport })).finally(() => {
      retryDone = true;
    });
    await staffDone;

    expect(summary.sent).toBe(8);
    expect(new Set(sent).size).toBe(8); // every message once, none twice
    const recordWrites = platform.writes.filter((w) => w.key.startsWith('inquiry/') && w.before);
    const byStaff = recordWrites.filter((w) => w.writer.includes('@staff-'));
    const byRetry = recordWrites.filter((w) => w.writer.endsWith('@mail-retry'));
    // Staff really raced the retry job (each toggle also records the status in the inbox index, so fewer fit in).
    expect(byStaff.length).toBeGreaterThan(byRetry.length);
    expect(byRetry.length).toBe(8); // each inquiry: hold the messages, then record the outcome
    for (const write of byRetry) {
      const [before, after] = [JSON.parse(write.before!), JSON.parse(write.after)];
      expect({ status: after.status, handledAt: after.handledAt }, `retry write on ${write.key}`).toEqual({
        status: before.status,
        handledAt: before.handledAt,
      });
    }
    for (const write of byStaff) {
      const [before, after] = [JSON.parse(write.before!), JSON.parse(write.after)];
      expect(after.mail, `staff write on ${write.key}`).toEqual(before.mail);
    }
    for (const id of ids) {
      const record = (await getInquiry(id))!;
      expect(record.handledAt === null, id).toBe(record.status === 'new');
      expect(record.mail.staff, id).toMatchObject({ state: 'sent', attempts: 1 });
      expect(record.mail.ack, id).toMatchObject({ state: 'sent', attempts: 1 });
    }
    expect(await listPendingMailIds()).toEqual([]);
  });

  it('finding 9: the inbox index and its counts agree with the records after racing creates and status changes', async () => {
    const at = new Date('2026-11-20T02:00:00Z');
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        inInstance(`form-${i}`, () =>
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
      ),
    );
    const ids = created.map((r) => r.id);
    await Promise.all(
      ['staff-a', 'staff-b', 'staff-c'].map((who) =>
        inInstance(who, async () => {
          for (let round = 0; round < 6; round++)
            for (const id of ids) await setInquiryStatus(id, platform.random() < 0.5 ? 'handled' : 'new');
        }),
      ),
    );
    const page = await inInstance('inbox', () => listInquiries({ status: 'all', limit: 100 }));
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
    const long = new Date(Date.now() - 60 * 60_000);
    const ids = await inInstance('web', async () => {
      const created = [];
      for (let i = 0; i < 5; i++) {
        const contact = { firstName: `Q${i}`, email: `q${i}@example.com` };
        created.push((await storeContactInquiry(contact, { source: 'home', at: long })).id);
      }
      return created;
    });
    const sent: string[] = [];
    const transport: MailTransport = {
      name: 'outbox',
      async send(_mail, key) {
        await jitter();
        sent.push(key);
        return { id: key };
      },
    };
    await Promise.all([
      inInstance('cron-1', () => retryPendingMail({ transport })),
      inInstance('cron-2', () => retryPendingMail({ transport })),
    ]);
    expect(sent.sort()).toEqual([...new Set(sent)].sort());
    expect(sent).toHaveLength(ids.length * 2);
  });
});

describe('inside one function instance (real local blob server)', () => {
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
