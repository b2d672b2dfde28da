// @vitest-environment jsdom
/**
 * A list the admin shows is read again after a save, even when the save is answered before the list's first read
 * has come back. The Users screen is the example: the e2e users test once invited a person while the list was still
 * loading, the invitation was stored and confirmed, and the new account never appeared (src/admin/query-client.ts).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import AdminApp from '../../src/admin/AdminApp';
import { writeSession } from '../../src/admin/session';
import type { StaffListItem } from '../../src/schemas/staff';

const account = (username: string, firstName: string, lastName: string, status: StaffListItem['status']) => ({
  username,
  firstName,
  lastName,
  email: `${username}@example.com`,
  role: 'editor',
  status,
  lastSignInAt: null,
  createdAt: '2026-11-27T00:00:00.000Z',
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  localStorage.clear();
  writeSession({
    token: 'header.payload.signature',
    user: { username: 'admin-user', firstName: 'Sam', lastName: 'Staff', role: 'admin' },
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('an invitation answered while the Users list is still loading shows its new account', async () => {
  // The server: what the list answers is read when the request arrives, as the users function does.
  const stored = [account('admin-user', 'Sam', 'Staff', 'active')];
  let releaseFirstRead = () => {};
  let reads = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path === '/api/auth/verify') return json({ valid: true });
      if (path === '/api/admin/users' && (init?.method ?? 'GET') === 'GET') {
        reads += 1;
        const snapshot = { users: [...stored] };
        // The first read is slow: it answers only after the invitation below has been stored and confirmed.
        if (reads === 1) await new Promise<void>((resolve) => (releaseFirstRead = resolve));
        return json(snapshot);
      }
      if (path === '/api/admin/users' && init?.method === 'POST') {
        const body = JSON.parse(String(init.body));
        const created = account('ivy', body.firstName, body.lastName, 'invited');
        stored.push(created);
        return json(created, 201);
      }
      return json({ message: 'not in this test' }, 404);
    }),
  );

  render(<AdminApp page="users" />);
  fireEvent.change(await screen.findByLabelText('E-mail'), { target: { value: 'ivy@example.com' } });
  fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Ivy' } });
  fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Invitee' } });
  fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
  expect(await screen.findByText(/^Invitation sent to ivy@example.com/)).toBeTruthy();

  releaseFirstRead();
  expect(await screen.findByRole('rowheader', { name: /Ivy Invitee/ })).toBeTruthy();
  expect(screen.getByRole('table').querySelector('caption')?.textContent).toBe('2 accounts');
  expect(reads).toBe(2);
});
