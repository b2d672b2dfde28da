import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Context } from '@netlify/functions';
import { startStores } from './helpers/stores';
import { carpentryQuote } from '../fixtures/inquiries';
import { signedInStaff, tokenFor } from './helpers/staff';
import { addNote } from '../../src/server/inquiry-inbox';
import { createInquiry, getInquiry, newInquiryId, setInquiryStatus, updateInquiry } from '../../src/server/inquiries';
import { editUser } from '../../src/server/users';
import handler from '../../netlify/functions/admin-inquiries.mts';
import dashboard from '../../netlify/functions/dashboard-stats.mts';

let blobs: Awaited<ReturnType<typeof startStores>>;
let token = '';
const ids: string[] = [];

beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  blobs = await startStores();
  token = await signedInStaff({ username: 'inbox-admin', firstName: 'Ira', lastName: 'Inbox' });
  const contact = (n: number) => ({
    firstName: `Pat${n}`,
    lastName: 'Lee',
    email: `pat${n}@example.com`,
    phone: '0400 000 000',
  });
  ids.push(
    (
      await createInquiry(
        { kind: 'contact', source: 'contact', contact: contact(1), message: '=HYPERLINK("http://evil.example")' },
        new Date('2026-11-01T00:00:00Z'),
      )
    ).id,
  );
  ids.push(
    (
      await createInquiry(
        { kind: 'contact', source: 'home', contact: contact(2), message: 'Call me, please' },
        new Date('2026-11-02T00:00:00Z'),
      )
    ).id,
  );
  ids.push(
    (
      await createInquiry(
        {
          kind: 'quote',
          source: 'quote',
          contact: contact(3),
          quote: carpentryQuote('12 years'),
        },
        new Date('2026-11-03T00:00:00Z'),
      )
    ).id,
  );
});
afterAll(() => blobs.stop());

const call = (path: string, init: RequestInit = {}, params: Record<string, string> = {}, withToken = true) =>
  handler(
    new Request(`http://localhost${path}`, {
      ...init,
      headers: { ...(withToken ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
    }),
    { params } as unknown as Context,
  );

describe('staff inbox API', () => {
  it('answers 401 to anyone without a valid token', async () => {
    expect((await call('/api/admin/inquiries', {}, {}, false)).status).toBe(401);
    expect((await call('/api/admin/inquiries/export.csv', {}, {}, false)).status).toBe(401);
    expect(
      (
        await call(
          `/api/admin/inquiries/${ids[0]}`,
          { method: 'PATCH', body: '{"status":"handled"}', headers: { 'content-type': 'application/json' } },
          { id: ids[0] },
          false,
        )
      ).status,
    ).toBe(401);
    expect((await getInquiry(ids[0]))!.status).toBe('new');
  });

  it('lists newest first with counts, filters by status and pages', async () => {
    const all = await (await call('/api/admin/inquiries?status=all')).json();
    expect(all.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    expect(all.counts).toEqual({ all: 3, new: 3, handled: 0, due: 0, overdue: 0 });
    const page = await (await call('/api/admin/inquiries?status=all&limit=1&offset=1')).json();
    expect(page.items.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    expect(page.total).toBe(3);
    expect((await call('/api/admin/inquiries?status=maybe')).status).toBe(400);
    expect((await call('/api/admin/inquiries?limit=5000')).status).toBe(400);
  });

  it('marks an inquiry handled and back; refuses bad bodies and unknown ids', async () => {
    const patch = (id: string, body: string) =>
      call(
        `/api/admin/inquiries/${id}`,
        { method: 'PATCH', body, headers: { 'content-type': 'application/json' } },
        { id },
      );
    const handled = await patch(ids[1], '{"status":"handled"}');
    expect(handled.status).toBe(200);
    expect(await handled.json()).toMatchObject({ id: ids[1], status: 'handled', handledAt: expect.any(String) });
    const onlyNew = await (await call('/api/admin/inquiries?status=new')).json();
    expect(onlyNew.items.map((i: { id: string }) => i.id)).not.toContain(ids[1]);
    expect(onlyNew.counts).toMatchObject({ new: 2, handled: 1 });

    expect((await patch(ids[1], '{"status":"deleted"}')).status).toBe(400);
    expect((await patch(ids[1], '{"status":')).status).toBe(400);
    expect((await patch('20990101T000000000Z-00000000', '{"status":"handled"}')).status).toBe(404);
    expect((await patch('../../users/staff', '{"status":"handled"}')).status).toBe(404);
    expect((await patch(ids[1], '{"status":"new"}')).status).toBe(200);
    expect((await getInquiry(ids[1]))!).toMatchObject({ status: 'new', handledAt: null });
  });

  it('exports every inquiry as CSV with formula cells neutralised', async () => {
    const response = await call('/api/admin/inquiries/export.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toMatch(
      /attachment; filename="inquiries-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const csv = await response.text();
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv).toContain('CPC30220 Certificate III in Carpentry');
  });
});

describe('inbox search', () => {
  const search = async (query: string) => {
    const response = await call(`/api/admin/inquiries?${query}`);
    expect(response.status, query).toBe(200);
    return (await response.json()) as { items: { id: string }[]; total: number; counts: Record<string, number> };
  };
  const idsOf = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

  it('finds by e-mail address, by name in any order and case, and by qualification code or title words', async () => {
    expect(idsOf(await search('q=pat2%40example.com'))).toEqual([ids[1]]);
    expect(idsOf(await search('q=LEE%20pat3'))).toEqual([ids[2]]);
    expect(idsOf(await search('q=cpc30220'))).toEqual([ids[2]]);
    expect(idsOf(await search('q=carpentry'))).toEqual([ids[2]]);
    expect(idsOf(await search('q=certificate%20carpentry%20pat3'))).toEqual([ids[2]]);
    // Every word must match somewhere: the carpentry request is not Pat1's.
    expect((await search('q=carpentry%20pat1')).total).toBe(0);
    // The message is not searched, only who wrote and what they asked about.
    expect((await search('q=HYPERLINK')).total).toBe(0);
  });

  it('works with the status filter and paging, counting only the matches', async () => {
    const all = await search('q=example.com&status=all&limit=2');
    expect(all.total).toBe(3);
    expect(idsOf(all)).toEqual([ids[2], ids[1]]);
    expect(idsOf(await search('q=example.com&status=all&limit=2&offset=2'))).toEqual([ids[0]]);
    const patch = await call(
      `/api/admin/inquiries/${ids[0]}`,
      { method: 'PATCH', body: '{"status":"handled"}', headers: { 'content-type': 'application/json' } },
      { id: ids[0] },
    );
    expect(patch.status).toBe(200);
    const handled = await search('q=pat&status=handled');
    expect(idsOf(handled)).toEqual([ids[0]]);
    expect(handled.counts).toEqual({ all: 3, new: 2, handled: 1, due: 0, overdue: 0 });
    expect((await search('q=pat1&status=new')).total).toBe(0);
    await call(
      `/api/admin/inquiries/${ids[0]}`,
      { method: 'PATCH', body: '{"status":"new"}', headers: { 'content-type': 'application/json' } },
      { id: ids[0] },
    );
  });

  it.each([
    ['a search over 100 characters', `q=${'a'.repeat(101)}`],
    ['control characters', 'q=pat%00lee'],
  ])('refuses %s with 400', async (_, query) => {
    const response = await call(`/api/admin/inquiries?${query}`);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/search/i);
  });
});

describe('notes and assignment', () => {
  const json = { 'content-type': 'application/json' };
  const note = (id: string, body: string, auth = true) =>
    call(`/api/admin/inquiries/${id}/notes`, { method: 'POST', body, headers: json }, { id }, auth);
  const patch = (id: string, body: string) =>
    call(`/api/admin/inquiries/${id}`, { method: 'PATCH', body, headers: json }, { id });

  beforeAll(async () => {
    await signedInStaff({ username: 'inbox-colleague', firstName: 'Cole', lastName: 'League', role: 'admin' });
    await signedInStaff({ username: 'blog-editor', firstName: 'Eddie', lastName: 'Tor', role: 'editor' });
  });

  it('offers only staff who can open the inbox for assignment, and refuses an editor', async () => {
    const page = await (await call('/api/admin/inquiries')).json();
    const usernames = page.staff.map((person: { username: string }) => person.username);
    expect(usernames).toContain('inbox-colleague');
    expect(usernames).not.toContain('blog-editor');
    const before = await getInquiry(ids[1]);
    const response = await patch(ids[1], '{"assignee":"blog-editor"}');
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('That staff member cannot open the inbox.');
    expect(await getInquiry(ids[1])).toEqual(before);
  });

  it('offers neither a deactivated account nor an unaccepted invitation, and refuses to assign to them', async () => {
    await signedInStaff({ username: 'gone-colleague', firstName: 'Gone', lastName: 'Away', role: 'admin' });
    await signedInStaff({ username: 'new-colleague', firstName: 'New', lastName: 'Comer', role: 'admin' });
    await editUser('gone-colleague', () => ({ active: false }));
    // As an invitation nobody has taken up yet: no password.
    await editUser('new-colleague', () => ({ passwordHash: undefined, invitedAt: Date.now() }));

    const page = await (await call('/api/admin/inquiries')).json();
    const usernames = page.staff.map((person: { username: string }) => person.username);
    expect(usernames).toContain('inbox-colleague');
    expect(usernames).not.toContain('gone-colleague');
    expect(usernames).not.toContain('new-colleague');
    const before = await getInquiry(ids[1]);
    for (const assignee of ['gone-colleague', 'new-colleague']) {
      const response = await patch(ids[1], JSON.stringify({ assignee }));
      expect(response.status, assignee).toBe(400);
      expect((await response.json()).message).toBe(
        'That staff member cannot take inquiries: their account is deactivated or their invitation is not accepted yet.',
      );
    }
    expect(await getInquiry(ids[1])).toEqual(before);
    expect((await patch(ids[1], '{"assignee":"inbox-colleague"}')).status).toBe(200);
  });

  it('adds a note with its author and time, kept with the inquiry and shown in the list', async () => {
    const response = await note(ids[1], JSON.stringify({ text: '  Called back, sending the form.  ' }));
    expect(response.status).toBe(201);
    const record = await response.json();
    expect(record.notes).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{12}$/),
        text: 'Called back, sending the form.',
        author: { username: 'inbox-admin', name: 'Ira Inbox' },
        at: expect.any(String),
      },
    ]);
    expect(Date.now() - Date.parse(record.notes[0].at)).toBeLessThan(60_000);
    const listed = await (await call('/api/admin/inquiries?q=pat2')).json();
    expect(listed.items[0].notes).toHaveLength(1);
    expect((await getInquiry(ids[1]))!.notes![0].text).toBe('Called back, sending the form.');
  });

  it.each([
    ['an empty note', '{"text":"   "}', 400],
    ['a note over 2000 characters', JSON.stringify({ text: 'x'.repeat(2001) }), 400],
    ['a note that is not text', '{"text":42}', 400],
    ['a body that is not JSON', '{"text":', 400],
    ['a body over 8 KB', JSON.stringify({ text: 'x'.repeat(9000) }), 413],
  ])('refuses %s and changes nothing', async (_, body, status) => {
    const before = await getInquiry(ids[0]);
    expect((await note(ids[0], body)).status).toBe(status);
    expect(await getInquiry(ids[0])).toEqual(before);
  });

  it('answers 404 for notes on an unknown inquiry and 401 without a token', async () => {
    expect((await note('20990101T000000000Z-00000000', '{"text":"hi"}')).status).toBe(404);
    expect((await note('nope', '{"text":"hi"}')).status).toBe(404);
    expect((await note(ids[0], '{"text":"hi"}', false)).status).toBe(401);
    expect((await getInquiry(ids[0]))!.notes).toBeUndefined();
  });

  it('never loses a note when several staff add one at the same moment', async () => {
    const texts = Array.from({ length: 6 }, (_, n) => `Simultaneous note ${n}`);
    const answers = await Promise.all(texts.map((text) => note(ids[2], JSON.stringify({ text }))));
    expect(answers.map((answer) => answer.status)).toEqual(texts.map(() => 201));
    const stored = (await getInquiry(ids[2]))!.notes!.map((entry) => entry.text);
    expect(stored.sort()).toEqual([...texts].sort());
  });

  it('keeps a note added while another writer is changing the record', async () => {
    // The status change holds the record for a while after reading it; the note waits for it, then lands.
    const slowly = updateInquiry(
      ids[0],
      (current) =>
        new Promise((resolve) =>
          setTimeout(
            () =>
              resolve({
                ...current,
                status: 'handled',
                handledAt: new Date().toISOString(),
                statusRev: (current.statusRev ?? 0) + 1,
              }),
            30,
          ),
        ),
    );
    const note = addNote(ids[0], 'Written in between', { username: 'inbox-colleague', name: 'Cole League' });
    await Promise.all([slowly, note]);
    const record = (await getInquiry(ids[0]))!;
    expect(record.status).toBe('handled');
    expect(record.notes!.map((entry) => entry.text)).toEqual(['Written in between']);
    await setInquiryStatus(ids[0], 'new');
  });

  it('assigns to a staff member with who and when, and takes the assignment away again', async () => {
    const assigned = await patch(ids[0], '{"assignee":"Inbox-Colleague"}');
    expect(assigned.status).toBe(200);
    expect((await assigned.json()).assignment).toEqual({
      to: { username: 'inbox-colleague', name: 'Cole League' },
      by: { username: 'inbox-admin', name: 'Ira Inbox' },
      at: expect.any(String),
    });
    const page = await (await call('/api/admin/inquiries?q=pat1')).json();
    expect(page.items[0].assignment.to.username).toBe('inbox-colleague');
    expect(page.staff).toEqual(
      expect.arrayContaining([
        { username: 'inbox-colleague', name: 'Cole League' },
        { username: 'inbox-admin', name: 'Ira Inbox' },
      ]),
    );

    const both = await (await patch(ids[0], '{"assignee":null,"status":"handled"}')).json();
    expect(both.assignment).toMatchObject({ to: null, by: { username: 'inbox-admin' } });
    expect(both.status).toBe('handled');
    await setInquiryStatus(ids[0], 'new');
  });

  it.each([
    ['an unknown staff member', '{"assignee":"nobody-here"}', 400],
    ['a malformed username', '{"assignee":"../users"}', 400],
    ['an assignee that is not text', '{"assignee":7}', 400],
    ['an empty change', '{}', 400],
    ['an unknown field only', '{"owner":"inbox-admin"}', 400],
  ])('refuses %s and changes nothing', async (_, body, status) => {
    const before = await getInquiry(ids[1]);
    const response = await patch(ids[1], body);
    expect(response.status).toBe(status);
    expect((await response.json()).message).toBeTruthy();
    expect(await getInquiry(ids[1])).toEqual(before);
  });
});

describe('stored records that do not parse', () => {
  it('are left out of the list and named, never a 500; a change to one answers 409 and writes nothing', async () => {
    const broken = newInquiryId(new Date('2026-11-04T00:00:00Z'));
    // Within every constraint of the table, but a quote without its answers: not a record the schema accepts.
    await blobs.engine.query(
      `INSERT INTO inquiries (id, kind, source, created_at, first_name, last_name, email, phone, quote, search_text)
       VALUES ($1, 'quote', 'quote', '2026-11-04T00:00:00Z', 'Broken', 'Record', 'broken@example.com', '0400000000',
               '{}', 'broken record')`,
      [broken],
    );
    const stored = async () =>
      (await blobs.engine.query('SELECT row_to_json(i)::text AS row FROM inquiries i WHERE id = $1', [broken])).rows;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const page = await call('/api/admin/inquiries?status=all&limit=2');
    expect(page.status).toBe(200);
    const body = await page.json();
    expect(body.unreadable).toEqual([broken]);
    expect(body.items.map((item: { id: string }) => item.id)).toEqual([ids[2]]);
    const before = await stored();
    const note = await call(
      `/api/admin/inquiries/${broken}/notes`,
      { method: 'POST', body: '{"text":"hi"}', headers: { 'content-type': 'application/json' } },
      { id: broken },
    );
    expect(note.status).toBe(409);
    expect(await stored()).toEqual(before);
    await blobs.engine.query('DELETE FROM inquiries WHERE id = $1', [broken]);
    vi.restoreAllMocks();
  });
});

describe('new inquiries since the last visit (dashboard)', () => {
  it('counts what arrived since this staff member last opened the inbox', async () => {
    const newcomer = await signedInStaff({ username: 'inbox-newcomer', firstName: 'Nia', lastName: 'New' });
    const stats = async () => {
      const response = await dashboard(
        new Request('http://localhost/api/admin/dashboard-stats', { headers: { authorization: `Bearer ${newcomer}` } }),
      );
      expect(response.status).toBe(200);
      return (await response.json()).inbox as { count: number; lastVisitAt: string | null };
    };
    const everything = (await (await call('/api/admin/inquiries?limit=1')).json()).counts.all;
    expect(await stats()).toEqual({ count: everything, lastVisitAt: null });

    const visit = await handler(
      new Request('http://localhost/api/admin/inquiries', { headers: { authorization: `Bearer ${newcomer}` } }),
      { params: {} } as unknown as Context,
    );
    expect(visit.status).toBe(200);
    const seen = await stats();
    expect(seen.count).toBe(0);
    expect(seen.lastVisitAt).not.toBeNull();

    const contact = { firstName: 'Late', lastName: 'Comer', email: 'late@example.com', phone: '0400 000 000' };
    await createInquiry({ kind: 'contact', source: 'contact', contact, message: 'One' });
    await createInquiry({ kind: 'contact', source: 'home', contact, message: 'Two' });
    expect((await stats()).count).toBe(2);
    // Another staff member's visit does not change this one's count.
    await call('/api/admin/inquiries');
    expect((await stats()).count).toBe(2);
  });

  it('is not given to roles without the inbox', async () => {
    const editor = await tokenFor('blog-editor');
    const response = await dashboard(
      new Request('http://localhost/api/admin/dashboard-stats', { headers: { authorization: `Bearer ${editor}` } }),
    );
    expect(response.status).toBe(403);
  });
});
