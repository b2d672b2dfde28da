import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '@netlify/functions';
import { startBlobs } from './helpers/blobs';
import { createInquiry, getInquiry } from '../../src/server/inquiries';
import { createUser, getUser } from '../../src/server/users';
import { issueToken } from '../../src/server/tokens';
import handler from '../../netlify/functions/admin-inquiries.mts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let token = '';
const ids: string[] = [];

beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  blobs = await startBlobs();
  await createUser({ username: 'inbox-admin', firstName: 'Ira', lastName: 'Inbox', role: 'admin', password: 'a long enough password' });
  token = await issueToken((await getUser('inbox-admin'))!);
  const contact = (n: number) => ({ firstName: `Pat${n}`, lastName: 'Lee', email: `pat${n}@example.com`, phone: '0400 000 000' });
  ids.push((await createInquiry({ kind: 'contact', source: 'contact', contact: contact(1), message: '=HYPERLINK("http://evil.example")' }, new Date('2026-11-01T00:00:00Z'))).id);
  ids.push((await createInquiry({ kind: 'contact', source: 'home', contact: contact(2), message: 'Call me, please' }, new Date('2026-11-02T00:00:00Z'))).id);
  ids.push(
    (
      await createInquiry(
        {
          kind: 'quote',
          source: 'quote',
          contact: contact(3),
          quote: {
            mobileNumber: '', preferredContact: 'Any time', state: 'NSW', selectedCategories: ['civil-construction'], selectedCourses: ['CPC30220'],
            categories: [{ slug: 'civil-construction', name: 'Civil Construction' }],
            courses: [{ code: 'CPC30220', title: 'Certificate III in Carpentry', level: 'Certificate III', category: 'civil-construction' }],
            experience: '12 years', goals: '', additionalInfo: '',
          },
        },
        new Date('2026-11-03T00:00:00Z'),
      )
    ).id,
  );
});
afterAll(() => blobs.stop());

const call = (path: string, init: RequestInit = {}, params: Record<string, string> = {}, withToken = true) =>
  handler(
    new Request(`http://localhost${path}`, { ...init, headers: { ...(withToken ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) } }),
    { params } as unknown as Context,
  );

describe('staff inbox API', () => {
  it('answers 401 to anyone without a valid token', async () => {
    expect((await call('/api/admin/inquiries', {}, {}, false)).status).toBe(401);
    expect((await call('/api/admin/inquiries/export.csv', {}, {}, false)).status).toBe(401);
    expect((await call(`/api/admin/inquiries/${ids[0]}`, { method: 'PATCH', body: '{"status":"handled"}', headers: { 'content-type': 'application/json' } }, { id: ids[0] }, false)).status).toBe(401);
    expect((await getInquiry(ids[0]))!.status).toBe('new');
  });

  it('lists newest first with counts, filters by status and pages', async () => {
    const all = await (await call('/api/admin/inquiries?status=all')).json();
    expect(all.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    expect(all.counts).toEqual({ all: 3, new: 3, handled: 0 });
    const page = await (await call('/api/admin/inquiries?status=all&limit=1&offset=1')).json();
    expect(page.items.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    expect(page.total).toBe(3);
    expect((await call('/api/admin/inquiries?status=maybe')).status).toBe(400);
    expect((await call('/api/admin/inquiries?limit=5000')).status).toBe(400);
  });

  it('marks an inquiry handled and back; refuses bad bodies and unknown ids', async () => {
    const patch = (id: string, body: string) =>
      call(`/api/admin/inquiries/${id}`, { method: 'PATCH', body, headers: { 'content-type': 'application/json' } }, { id });
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
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="inquiries-\d{4}-\d{2}-\d{2}\.csv"/);
    const csv = await response.text();
    const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv).toContain('CPC30220 Certificate III in Carpentry');
  });
});
