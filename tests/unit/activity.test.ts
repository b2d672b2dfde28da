/**
 * Issue 26, item 4: an activity log. Against the real handlers, a fresh database and a local blob server: who saved settings,
 * catalogue entries, posts, users and inquiries, when, with the fields that changed (old and new values;
 * e-mail addresses, phone numbers, names and note texts only as "changed"), newest first, filtered by person
 * and kind, paged, administrators only, kept a year; and a save never fails because its log entry could not
 * be written.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  changedStores,
  fakeContext,
  handlerFor,
  snapshotBlobs,
  startInspectableBlobs,
  type LocalBlobs,
} from './helpers/hostile';
import { startDatabase, type TestDatabase } from './helpers/database';
import { signedInStaff, writeMark } from './helpers/staff';
import { storeContactInquiry } from './helpers/inquiries';
import { categoryEdit, courseEdit } from './helpers/catalogue-requests';
import { publishDuePosts } from '../../src/server/blogs';
import type { defaultSiteSettings } from '../../src/lib/site-settings';
import { diff, pruneActivity, recordActivity, RETENTION_DAYS } from '../../src/server/activity';
import { db, sql } from '../../src/platform/database';
import { readSettings } from '../../src/server/settings';
import type { ActivityPage } from '../../src/schemas/activity';
import retention from '../../netlify/functions/activity-retention.mts';
import { config as retentionConfig } from '../../netlify/functions/activity-retention.mts';

/**
 * Makes every write to the activity table fail (the log is down; the saves must still land), with a trigger in
 * the database itself; `false` takes it away.
 */
async function breakActivityLog(broken: boolean) {
  if (!broken) {
    await db().query(sql`DROP TRIGGER IF EXISTS refuse_activity ON activity`);
    return;
  }
  await db().query(sql`
    CREATE OR REPLACE FUNCTION refuse_activity() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'activity log unavailable'; END $$`);
  await db().query(sql`
    CREATE TRIGGER refuse_activity BEFORE INSERT ON activity FOR EACH ROW EXECUTE FUNCTION refuse_activity()`);
}

let blobs: LocalBlobs;
let database: TestDatabase;
let admin: string;
let editor: string;

beforeAll(async () => {
  process.env.JWT_SECRET = 'activity-test-secret-that-is-long-enough-0123456789';
  delete process.env.RESEND_API_KEY;
  [blobs, database] = await Promise.all([startInspectableBlobs(), startDatabase()]);
  admin = await signedInStaff({ username: 'log-admin', firstName: 'Alex', lastName: 'Admin' });
  editor = await signedInStaff({ username: 'log-editor', firstName: 'Eddie', lastName: 'Editor', role: 'editor' });
});
afterAll(() => Promise.all([blobs?.stop(), database?.stop()]));
beforeEach(async () => {
  await breakActivityLog(false);
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await db().query(sql`DELETE FROM activity`);
});

async function send(
  route: string,
  path: string,
  {
    method = 'GET',
    token,
    body,
    params = {},
  }: { method?: string; token?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const request = new Request(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = (await handlerFor(route)!.handler(request, fakeContext(params))) as Response;
  return { status: response.status, body: await response.json() };
}

const activity = async (query = '', token = admin) =>
  send('/api/admin/activity', `/api/admin/activity${query}`, { token }) as Promise<{
    status: number;
    body: ActivityPage & { message?: string };
  }>;

/** Every stored log entry as text, to prove what is never kept. */
async function storedLog(): Promise<string> {
  const rows = await db().query<{ row: string }>(sql`SELECT a::text AS row FROM activity a`);
  return rows.map(({ row }) => row).join('\n');
}

async function saveSettings(change: (settings: typeof defaultSiteSettings) => typeof defaultSiteSettings) {
  const { version, updatedAt, updatedBy, ...current } = await readSettings();
  return send('/api/admin/site-settings', '/api/admin/site-settings', {
    method: 'POST',
    token: admin,
    body: { ...change(current as typeof defaultSiteSettings), version },
  });
}

describe('activity log: diff and masking', () => {
  it('diff names each changed field with its old and new value, nested paths and lists included', () => {
    const before = { contactInfo: { hours: 'Mon-Fri 9-5', email: 'a@example.com' }, tags: ['a'], version: 1 };
    const after = { contactInfo: { hours: 'Mon-Sat 9-5', email: 'b@example.com' }, tags: ['a', 'b'], version: 2 };
    expect(diff(before, after, ['email'])).toEqual([
      { field: 'contactInfo.hours', from: 'Mon-Fri 9-5', to: 'Mon-Sat 9-5' },
      { field: 'contactInfo.email', from: null, to: null, masked: true },
      { field: 'tags', from: 'a', to: 'a, b' },
    ]);
    expect(diff({ same: 1 }, { same: 1 })).toEqual([]);
  });
});

describe('activity log: what the saves record', () => {
  it('finding 4: a settings save is listed with who saved it and the old and new values; contact details masked', async () => {
    const before = await readSettings();
    const saved = await saveSettings((s) => ({
      ...s,
      contactInfo: { ...s.contactInfo, email: 'front-desk@example.com', phone: '0299998888' },
      socialMedia: { ...s.socialMedia, facebook: 'https://facebook.com/rpl-activity-test' },
    }));
    expect(saved.status).toBe(200);
    const { status, body } = await activity();
    expect(status).toBe(200);
    expect(body.items).toHaveLength(1);
    const [entry] = body.items;
    expect(entry).toMatchObject({
      actor: { username: 'log-admin', name: 'Alex Admin' },
      kind: 'settings',
      action: 'updated',
      target: { label: 'Site settings' },
    });
    expect(entry.changes).toContainEqual({
      field: 'socialMedia.facebook',
      from: before.socialMedia.facebook || null,
      to: 'https://facebook.com/rpl-activity-test',
    });
    expect(entry.changes).toContainEqual({ field: 'contactInfo.email', from: null, to: null, masked: true });
    expect(entry.changes).toContainEqual({ field: 'contactInfo.phone', from: null, to: null, masked: true });
    const stored = await storedLog();
    expect(stored).not.toContain('front-desk@example.com');
    expect(stored).not.toContain('0299998888');
    expect(body.people).toEqual([{ username: 'log-admin', name: 'Alex Admin' }]);
  });

  it('finding 4: inviting a person logs the role but never their e-mail address or name', async () => {
    const invited = await send('/api/admin/users', '/api/admin/users', {
      method: 'POST',
      token: admin,
      body: { email: 'new.person@example.com', firstName: 'Priya', lastName: 'Visitor', role: 'editor' },
    });
    expect(invited.status).toBe(201);
    const [entry] = (await activity('?kind=user')).body.items;
    expect(entry).toMatchObject({ kind: 'user', action: 'invited', target: { id: invited.body.username } });
    expect(entry.changes).toContainEqual({ field: 'role', from: null, to: 'editor' });
    expect(entry.changes).toContainEqual({ field: 'email', from: null, to: null, masked: true });
    const stored = await storedLog();
    for (const secret of ['new.person@example.com', 'Priya', 'Visitor']) expect(stored).not.toContain(secret);

    const changed = await send('/api/admin/users/:username', `/api/admin/users/${invited.body.username}`, {
      method: 'PATCH',
      token: admin,
      body: { role: 'admin' },
      params: { username: invited.body.username },
    });
    expect(changed.status).toBe(200);
    const [roleChange] = (await activity('?kind=user')).body.items;
    expect(roleChange).toMatchObject({
      action: 'role changed',
      changes: [{ field: 'role', from: 'editor', to: 'admin' }],
    });
    // The same role again changes nothing, and nothing is logged.
    const again = await send('/api/admin/users/:username', `/api/admin/users/${invited.body.username}`, {
      method: 'PATCH',
      token: admin,
      body: { role: 'admin' },
      params: { username: invited.body.username },
    });
    expect(again.status).toBe(200);
    expect((await activity('?kind=user')).body.total).toBe(2);
  });

  it('finding 4: inquiry status changes show old and new; a note is logged without its text or the visitor', async () => {
    const inquiry = await storeContactInquiry();
    const path = `/api/admin/inquiries/${inquiry.id}`;
    const handled = await send('/api/admin/inquiries/:id', path, {
      method: 'PATCH',
      token: admin,
      body: { status: 'handled' },
      params: { id: inquiry.id },
    });
    expect(handled.status).toBe(200);
    const note = await send('/api/admin/inquiries/:id/notes', `${path}/notes`, {
      method: 'POST',
      token: admin,
      body: { text: 'Called Jane on 0412 345 678 about her tickets' },
      params: { id: inquiry.id },
    });
    expect(note.status).toBe(201);
    const { items } = (await activity('?kind=inquiry')).body;
    expect(items.map((item) => item.action)).toEqual(['note added', 'status changed']);
    expect(items[1].changes).toEqual([{ field: 'status', from: 'new', to: 'handled' }]);
    expect(items[0].changes).toEqual([{ field: 'note', from: null, to: null, masked: true }]);
    const stored = await storedLog();
    for (const secret of ['Called Jane', '0412 345 678', 'jane@example.com', 'Citizen'])
      expect(stored).not.toContain(secret);
  });

  it('finding 4: posts are logged when created, published, updated and deleted', async () => {
    const created = await send('/api/blogs', '/api/blogs', {
      method: 'POST',
      token: editor,
      body: { title: 'Activity post', excerpt: 'First', content: '<p>Body</p>' },
    });
    expect(created.status).toBe(201);
    const id = created.body.blog._id as string;
    const blog = created.body.blog;
    const published = await send('/api/blogs/:slug', `/api/blogs/${id}`, {
      method: 'PUT',
      token: editor,
      body: { title: blog.title, excerpt: 'Second', content: blog.content, isPublished: true, version: blog.version },
      params: { slug: id },
    });
    expect(published.status).toBe(200);
    expect(
      (await send('/api/blogs/:slug', `/api/blogs/${id}`, { method: 'DELETE', token: editor, params: { slug: id } }))
        .status,
    ).toBe(200);
    const { items } = (await activity('?kind=post')).body;
    expect(items.map((item) => [item.action, item.actor.username, item.target.label])).toEqual([
      ['deleted', 'log-editor', 'Activity post'],
      ['published', 'log-editor', 'Activity post'],
      ['created', 'log-editor', 'Activity post'],
    ]);
    expect(items[1].changes).toContainEqual({ field: 'excerpt', from: 'First', to: 'Second' });
    expect(items[1].changes).toContainEqual({ field: 'isPublished', from: 'false', to: 'true' });
  });

  it('finding 4: a post the schedule publishes is logged as published by the publishing schedule', async () => {
    const publishAt = new Date(Date.now() + 60 * 60_000).toISOString();
    const created = await send('/api/blogs', '/api/blogs', {
      method: 'POST',
      token: editor,
      body: { title: 'Scheduled for the log', excerpt: 'E', content: '<p>C</p>', isPublished: false, publishAt },
    });
    expect(created.status).toBe(201);
    expect(await publishDuePosts(new Date(Date.parse(publishAt) + 1000))).toEqual([created.body.blog.slug]);
    const { items, people } = (await activity('?person=~schedule')).body;
    expect(people).toContainEqual({ username: 'log-editor', name: 'Eddie Editor' });
    expect(items.map((item) => [item.action, item.actor.name, item.target.label])).toEqual([
      ['published', 'Publishing schedule', 'Scheduled for the log'],
    ]);
    expect(items[0].changes).toContainEqual({ field: 'isPublished', from: 'false', to: 'true' });
    expect(people).toContainEqual({ username: '~schedule', name: 'Publishing schedule' });
  });

  it('finding 4: a course save is logged with the old and new text of the changed detail', async () => {
    const edit = courseEdit('CPC30220');
    const about = 'Staff wording of the carpentry summary, for the activity log.';
    const saved = await send('/api/admin/catalogue/courses/:code', '/api/admin/catalogue/courses/CPC30220', {
      method: 'PUT',
      token: admin,
      body: { version: 0, edit: { ...edit, details: { ...edit.details, about } } },
      params: { code: 'CPC30220' },
    });
    expect(saved.status).toBe(200);
    const [entry] = (await activity('?kind=catalogue')).body.items;
    expect(entry).toMatchObject({ action: 'course updated', target: { id: 'course/CPC30220' } });
    const changed = entry.changes.find((change) => change.field === 'edit.details.about');
    expect(changed?.to).toBe(about);
    expect(changed?.from?.slice(0, 40)).toBe((edit.details.about as string).slice(0, 40));
    // Long values are kept shortened, lists too.
    for (const change of entry.changes) expect(`${change.from}${change.to}`.length).toBeLessThanOrEqual(2 * 160);
  });

  it('finding 4: a category save is logged with the old and new description', async () => {
    const description = 'Fitness and allied health, as staff describe it for the activity log.';
    const saved = await send(
      '/api/admin/catalogue/categories/:slug',
      '/api/admin/catalogue/categories/health-fitness',
      {
        method: 'PUT',
        token: admin,
        body: { ...categoryEdit, edit: { ...categoryEdit.edit, description } },
        params: { slug: 'health-fitness' },
      },
    );
    expect(saved.status).toBe(200);
    const [entry] = (await activity('?kind=catalogue')).body.items;
    expect(entry).toMatchObject({ action: 'category updated', target: { id: 'category/health-fitness' } });
    expect(entry.changes).toContainEqual(expect.objectContaining({ field: 'description', to: description }));
  });

  it('finding 4: a save still lands (and answers 200) when its log entry cannot be written', async () => {
    await breakActivityLog(true);
    const saved = await saveSettings((s) => ({
      ...s,
      contactInfo: { ...s.contactInfo, businessHours: 'Log down, save kept' },
    }));
    expect(saved.status).toBe(200);
    expect((await readSettings()).contactInfo.businessHours).toBe('Log down, save kept');
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('Could not record activity'));
    await breakActivityLog(false);
    expect((await activity()).body.items).toEqual([]);
  });
});

describe('activity log: the API', () => {
  const actor = (username: string) => ({ username, name: username });
  const entry = (username: string, kind: 'post' | 'settings', at: Date) =>
    recordActivity(
      { actor: actor(username), kind, action: 'updated', target: { id: 'x', label: `${kind} at ${at.toISOString()}` } },
      at,
    );

  it('finding 4: newest first across months, filtered by person and kind, paged', async () => {
    await entry('ann', 'post', new Date('2026-09-30T23:00:00Z'));
    await entry('bob', 'settings', new Date('2026-10-01T01:00:00Z'));
    await entry('ann', 'settings', new Date('2026-10-02T01:00:00Z'));
    await entry('bob', 'post', new Date('2026-08-15T01:00:00Z'));
    const all = (await activity()).body;
    expect(all.items.map((item) => item.at)).toEqual([
      '2026-10-02T01:00:00.000Z',
      '2026-10-01T01:00:00.000Z',
      '2026-09-30T23:00:00.000Z',
      '2026-08-15T01:00:00.000Z',
    ]);
    expect(all.total).toBe(4);
    expect(all.people.map((p) => p.username)).toEqual(['ann', 'bob']);
    const anns = (await activity('?person=ann')).body;
    expect(anns.items.map((item) => [item.actor.username, item.kind])).toEqual([
      ['ann', 'settings'],
      ['ann', 'post'],
    ]);
    const posts = (await activity('?kind=post&offset=1&limit=1')).body;
    expect(posts).toMatchObject({ total: 2, offset: 1, limit: 1 });
    expect(posts.items.map((item) => item.actor.username)).toEqual(['bob']);
  });

  it('finding 4: entries of the same millisecond are listed in the order they were made, newest first', async () => {
    const at = new Date('2026-10-05T08:00:00Z');
    for (const label of ['first', 'second', 'third'])
      await recordActivity({ actor: actor('ann'), kind: 'post', action: 'updated', target: { id: 'x', label } }, at);
    const { items, total } = (await activity('?limit=2')).body;
    expect(total).toBe(3);
    expect(items.map((item) => item.target.label)).toEqual(['third', 'second']);
    expect((await activity('?offset=2')).body.items.map((item) => item.target.label)).toEqual(['first']);
  });

  it('finding 4: administrators only: 401 without a session, 403 for an editor, 400 for a bad filter', async () => {
    await entry('ann', 'post', new Date());
    const before = { files: await snapshotBlobs(blobs.directory), mark: await writeMark() };
    expect((await send('/api/admin/activity', '/api/admin/activity')).status).toBe(401);
    const refused = await activity('', editor);
    expect(refused.status).toBe(403);
    expect(refused.body.items).toBeUndefined();
    for (const query of ['?kind=everything', '?person=__proto__', '?limit=1000', '?offset=-1', '?person=A%20B']) {
      const answer = await activity(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.message).toBeTruthy();
    }
    expect((await send('/api/admin/activity', '/api/admin/activity', { method: 'POST', token: admin })).status).toBe(
      405,
    );
    expect(changedStores(before.files, await snapshotBlobs(blobs.directory))).toEqual([]);
    expect(await writeMark(), 'nothing written to the database').toBe(before.mark);
  });
});

describe('activity log: kept a year', () => {
  it(`finding 4: the daily activity-retention function removes entries older than ${RETENTION_DAYS} days and keeps the rest`, async () => {
    const now = Date.now();
    const day = 24 * 60 * 60_000;
    await entry('old', new Date(now - (RETENTION_DAYS + 1) * day));
    await entry('older', new Date(now - 400 * day));
    await entry('recent', new Date(now - (RETENTION_DAYS - 1) * day));
    await entry('today', new Date(now));
    expect(retentionConfig.schedule).toMatch(/^\d+ \d+ \* \* \*$/);
    await retention();
    const { items } = (await activity()).body;
    expect(items.map((item) => item.actor.username)).toEqual(['today', 'recent']);
    expect(await pruneActivity()).toBe(0);
  });

  function entry(username: string, at: Date) {
    return recordActivity(
      { actor: { username, name: username }, kind: 'post', action: 'updated', target: { id: 'x', label: 'x' } },
      at,
    );
  }
});
