/**
 * Issue: staff accounts were command-line only, everyone shared one account and its Logout signed out
 * every device. Against the real handlers, a fresh database (the accounts) and a local blob server (the
 * outbox): invitations with a one-time set-password link, role changes, deactivation and deletion (never the
 * last admin, never yourself, also when two requests race), every person's own name, password and sessions,
 * and Logout ending this device only.
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
import { changedTables, snapshotTables } from './helpers/staff';
import { createUser, getUser, recordSession, touchSession } from '../../src/server/users';
import { outboxMessages } from './helpers/outbox';
import { db, sql } from '../../src/platform/database';
import {
  acceptInvite,
  changeStaff,
  deleteStaff,
  INVITE_NOT_SENT,
  inviteStaff,
  deleteStaffFromCli,
  EMAIL_TAKEN,
  INVITE_LIFETIME_MS,
  LAST_ADMIN,
  NOT_YOURSELF_DEACTIVATE,
  NOT_YOURSELF_DELETE,
  WRONG_PASSWORD,
} from '../../src/server/staff-accounts';
import { INVITE_INVALID } from '../../src/schemas/staff';
import { ACCOUNT_DEACTIVATED, INVALID_CREDENTIALS } from '../../netlify/functions/auth-login.mts';

const PASSWORD = 'a long enough password';
let blobs: LocalBlobs;
let database: TestDatabase;
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${n++}`;

beforeAll(async () => {
  process.env.JWT_SECRET = 'staff-accounts-secret-that-is-long-enough-012345';
  delete process.env.RESEND_API_KEY;
  [blobs, database] = await Promise.all([startInspectableBlobs(), startDatabase()]);
});
afterAll(() => Promise.all([blobs?.stop(), database?.stop()]));
// Every sign-in and password change runs scrypt; on a busy machine a test of several takes a few seconds.
vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

/** Calls the function answering `route` as a client would. */
async function send(
  route: string,
  path: string,
  {
    method = 'GET',
    token,
    body,
    params = {},
    userAgent,
  }: {
    method?: string;
    token?: string;
    body?: unknown;
    params?: Record<string, string>;
    userAgent?: string;
  } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (userAgent) headers['user-agent'] = userAgent;
  const request = new Request(`http://localhost${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = (await handlerFor(route)!.handler(request, fakeContext(params))) as Response;
  return { status: response.status, body: await response.json() };
}

async function signIn(username: string, password = PASSWORD, userAgent?: string) {
  const answer = await send('/api/auth/login', '/api/auth/login', {
    method: 'POST',
    body: { username, password },
    userAgent,
  });
  return answer;
}

async function account(role: 'admin' | 'editor' = 'admin') {
  const username = unique(role);
  await createUser({ username, firstName: 'Sam', lastName: 'Staff', role, password: PASSWORD });
  const answer = await signIn(username);
  expect(answer.status).toBe(200);
  return { username, token: answer.body.token as string };
}

/** The invitation link's token from the e-mail in the local outbox. */
async function invitationTokenFor(email: string): Promise<string> {
  for (const mail of await outboxMessages()) {
    if (!mail.idempotencyKey.startsWith('staff-invite-')) continue;
    const match = /\/admin\/accept-invite#token=([A-Za-z0-9_-]{43})/.exec(mail.text);
    if (mail.to === email && match) return match[1];
  }
  throw new Error(`No invitation mail to ${email}`);
}

const invite = (token: string, body: unknown) =>
  send('/api/admin/users', '/api/admin/users', { method: 'POST', token, body });
const accept = (token: string, password: string) =>
  send('/api/auth/accept-invite', '/api/auth/accept-invite', { method: 'POST', body: { token, password } });
const changeUser = (token: string, username: string, body: unknown) =>
  send('/api/admin/users/:username', `/api/admin/users/${username}`, {
    method: 'PATCH',
    token,
    body,
    params: { username },
  });
const deleteUser = (token: string, username: string) =>
  send('/api/admin/users/:username', `/api/admin/users/${username}`, { method: 'DELETE', token, params: { username } });

/** Only accounts of this test may exist when the last-admin rule is under test. */
async function onlyAccounts(...usernames: string[]) {
  await db().query(sql`DELETE FROM staff WHERE NOT (username = ANY(${usernames}))`);
}

/**
 * The records (database rows) and files (blob folder) as they are now, to prove a request changed nothing. (Rows,
 * not a write mark: a refused change of a role still locks the administrators' rows to decide.)
 */
async function snapshot() {
  return { files: await snapshotBlobs(blobs.directory), tables: await snapshotTables() };
}
async function changesSince(before: Awaited<ReturnType<typeof snapshot>>) {
  return [
    ...changedStores(before.files, await snapshotBlobs(blobs.directory)),
    ...changedTables(before.tables, await snapshotTables()),
  ];
}
const activeAdmins = async () =>
  (
    await db().query<{ username: string }>(
      sql`SELECT username FROM staff WHERE role = 'admin' AND active AND password_hash IS NOT NULL`,
    )
  ).map((row) => row.username);

describe('issue: accounts in the admin (invitations)', () => {
  it('finding 1: an invited person sets their own password once through the e-mailed link, then signs in', async () => {
    const admin = await account();
    const email = `${unique('jo')}@example.com`;
    const invited = await invite(admin.token, { email, firstName: 'Jo', lastName: 'Newcomer', role: 'editor' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email, role: 'editor', status: 'invited', lastSignInAt: null });
    const username = invited.body.username as string;

    // Listed without any secret; cannot sign in before choosing a password.
    const list = await send('/api/admin/users', '/api/admin/users', { token: admin.token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toMatch(/passwordHash|scrypt|sessions/);
    expect(list.body.users.find((u: { username: string }) => u.username === username).status).toBe('invited');
    expect((await signIn(username, 'whatever long password')).status).toBe(401);

    const link = await invitationTokenFor(email);
    // A password the rules refuse leaves the link unused.
    const short = await accept(link, 'short');
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Passwords must be at least 12 characters');

    const accepted = await accept(link, 'my own chosen password');
    expect(accepted.status).toBe(200);
    expect(accepted.body.username).toBe(username);
    // Single use.
    const again = await accept(link, 'another chosen password');
    expect(again).toEqual({ status: 400, body: { message: INVITE_INVALID } });

    const session = await signIn(username, 'my own chosen password');
    expect(session.status).toBe(200);
    expect(session.body.user.role).toBe('editor');
    const listed = await send('/api/admin/users', '/api/admin/users', { token: admin.token });
    const item = listed.body.users.find((u: { username: string }) => u.username === username);
    expect(item.status).toBe('active');
    expect(item.lastSignInAt).not.toBeNull();
  });

  it('finding 1: an invitation link expires after 48 hours and an unknown one does nothing', async () => {
    const admin = await account();
    const email = `${unique('late')}@example.com`;
    const invited = await invite(admin.token, { email, firstName: 'Lee', lastName: 'Late', role: 'admin' });
    const link = await invitationTokenFor(email);
    expect(await acceptInvite(link, 'my own chosen password', Date.now() + INVITE_LIFETIME_MS + 1000)).toBeNull();
    expect((await getUser(invited.body.username))?.passwordHash).toBeUndefined();

    const before = await snapshot();
    const unknown = await accept('A'.repeat(43), 'my own chosen password');
    expect(unknown).toEqual({ status: 400, body: { message: INVITE_INVALID } });
    expect(await changesSince(before)).toEqual([]);
  });

  it('finding 1: an e-mail address already on an account is refused (409) and nothing is written', async () => {
    const admin = await account();
    const email = `${unique('twice')}@example.com`;
    expect((await invite(admin.token, { email, firstName: 'A', lastName: 'B', role: 'editor' })).status).toBe(201);
    const before = await snapshot();
    const second = await invite(admin.token, { email, firstName: 'A', lastName: 'B', role: 'editor' });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(EMAIL_TAKEN);
    const bad = await invite(admin.token, { email: 'not-an-address', firstName: 'A', lastName: 'B', role: 'root' });
    expect(bad.status).toBe(400);
    expect(await changesSince(before)).toEqual([]);
  });
});

describe('issue: invitations when the mail fails', () => {
  it('finding 1: an invitation whose e-mail cannot be sent is taken back (503, no account, no link)', async () => {
    const email = `${unique('nomail')}@example.com`;
    const files = await snapshotBlobs(blobs.directory);
    const links = async () => (await db().query(sql`SELECT token_hash FROM staff_links`)).length;
    const linksBefore = await links();
    const failing = {
      name: 'outbox' as const,
      send: () => Promise.reject(new Error('mail service down')),
    };
    await expect(inviteStaff({ email, firstName: 'No', lastName: 'Mail', role: 'editor' }, failing)).rejects.toThrow(
      INVITE_NOT_SENT,
    );
    expect(changedStores(files, await snapshotBlobs(blobs.directory))).toEqual([]);
    expect(await db().query(sql`SELECT username FROM staff WHERE email = ${email}`)).toEqual([]);
    expect(await links()).toBe(linksBefore);
  });
});

describe('issue: role changes, deactivation and deletion', () => {
  it('finding 2: a deactivated account cannot sign in and its tokens stop working at once; reactivation lets it in', async () => {
    const admin = await account();
    const editor = await account('editor');
    const off = await changeUser(admin.token, editor.username, { active: false });
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('deactivated');
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: editor.token })).status).toBe(401);
    const refused = await signIn(editor.username);
    expect(refused).toEqual({ status: 401, body: { message: ACCOUNT_DEACTIVATED } });
    // A wrong password learns nothing about the account's state.
    expect((await signIn(editor.username, 'wrong but long password')).body.message).toBe(INVALID_CREDENTIALS);

    expect((await changeUser(admin.token, editor.username, { active: true })).body.status).toBe('active');
    expect((await signIn(editor.username)).status).toBe(200);
  });

  it('finding 2: a role change takes effect on the next request', async () => {
    const admin = await account();
    const editor = await account('editor');
    expect((await send('/api/admin/users', '/api/admin/users', { token: editor.token })).status).toBe(403);
    expect((await changeUser(admin.token, editor.username, { role: 'admin' })).body.role).toBe('admin');
    expect((await send('/api/admin/users', '/api/admin/users', { token: editor.token })).status).toBe(200);
  });

  it('finding 3: the last active admin cannot be demoted, deactivated or deleted, nobody deletes or deactivates themselves (409, nothing written)', async () => {
    const admin = await account();
    await onlyAccounts(admin.username);
    const second = await account();
    await changeUser(admin.token, second.username, { active: false });

    // The one active admin, acting on themselves through the API.
    const before = await snapshot();
    const demote = await changeUser(admin.token, admin.username, { role: 'editor' });
    expect(demote).toEqual({ status: 409, body: { message: LAST_ADMIN } });
    const deactivate = await changeUser(admin.token, admin.username, { active: false });
    expect(deactivate).toEqual({ status: 409, body: { message: NOT_YOURSELF_DEACTIVATE } });
    const remove = await deleteUser(admin.token, admin.username);
    expect(remove).toEqual({ status: 409, body: { message: NOT_YOURSELF_DELETE } });
    // The command line has no "yourself", but keeps the last admin too.
    await expect(deleteStaffFromCli(admin.username)).rejects.toThrow(LAST_ADMIN);
    expect(await changesSince(before)).toEqual([]);

    // With a second active admin, both are possible.
    await changeUser(admin.token, second.username, { active: true });
    const again = await signIn(second.username);
    expect((await changeUser(again.body.token, admin.username, { role: 'editor' })).status).toBe(200);
    expect((await changeUser(again.body.token, second.username, { role: 'editor' })).body.message).toBe(LAST_ADMIN);
    expect((await deleteUser(again.body.token, admin.username)).status).toBe(200);
    expect(await getUser(admin.username)).toBeNull();
    expect((await deleteUser(again.body.token, admin.username)).status).toBe(404);
  });

  it('finding 4: the command line deletes an account that is not the last admin', async () => {
    const editor = await account('editor');
    expect((await deleteStaffFromCli(editor.username)).username).toBe(editor.username);
    expect(await getUser(editor.username)).toBeNull();
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: editor.token })).status).toBe(401);
  });
});

describe('issue: own account and sessions per device', () => {
  it('finding 5: Logout ends this device only; sign out everywhere ends every session', async () => {
    const username = unique('devices');
    await createUser({ username, firstName: 'Dev', lastName: 'Ices', role: 'editor', password: PASSWORD });
    const phone = (await signIn(username, PASSWORD, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/605.1')).body
      .token as string;
    const laptop = (await signIn(username, PASSWORD, 'Mozilla/5.0 (Windows NT 10.0) Chrome/140.0 Safari/537.36')).body
      .token as string;
    const tablet = (await signIn(username)).body.token as string;

    const listed = await send('/api/admin/me/sessions', '/api/admin/me/sessions', { token: laptop });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions.map((s: { device: string }) => s.device).sort()).toEqual([
      'Chrome on Windows',
      'Safari on iOS',
      'Unknown device',
    ]);
    expect(listed.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    expect((await send('/api/auth/logout', '/api/auth/logout', { method: 'POST', token: phone })).status).toBe(200);
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: phone })).status).toBe(401);
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: laptop })).status).toBe(200);

    // Ending another session from the list.
    const others = await send('/api/admin/me/sessions', '/api/admin/me/sessions', { token: laptop });
    const tabletSession = others.body.sessions.find((s: { current: boolean }) => !s.current);
    const end = await send('/api/admin/me/sessions/:id', `/api/admin/me/sessions/${tabletSession.id}`, {
      method: 'DELETE',
      token: laptop,
      params: { id: tabletSession.id },
    });
    expect(end.status).toBe(200);
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: tablet })).status).toBe(401);
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: laptop })).status).toBe(200);

    const fresh = (await signIn(username)).body.token as string;
    const everywhere = await send('/api/auth/logout-everywhere', '/api/auth/logout-everywhere', {
      method: 'POST',
      token: fresh,
    });
    expect(everywhere.status).toBe(200);
    for (const token of [laptop, fresh])
      expect((await send('/api/auth/verify', '/api/auth/verify', { token })).status).toBe(401);
  });

  it('finding 5: a session is seen again when an admin page opens (verify), written at most every 5 minutes', async () => {
    const editor = await account('editor');
    const seen = async () =>
      (await send('/api/admin/me/sessions', '/api/admin/me/sessions', { token: editor.token })).body.sessions[0]
        .lastSeenAt as string;
    const start = Date.now();
    const first = await seen();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(start + 6 * 60_000);
      expect((await send('/api/auth/verify', '/api/auth/verify', { token: editor.token })).status).toBe(200);
      const second = await seen();
      expect(Date.parse(second) - Date.parse(first)).toBeGreaterThanOrEqual(6 * 60_000 - 1000);

      // A minute later: the page still verifies, nothing is written.
      vi.setSystemTime(start + 7 * 60_000);
      const before = await snapshot();
      expect((await send('/api/auth/verify', '/api/auth/verify', { token: editor.token })).status).toBe(200);
      expect(await changesSince(before)).toEqual([]);
      expect(await seen()).toBe(second);
    } finally {
      vi.useRealTimers();
    }
  });

  it('finding 6: every user changes their own display name and password (wrong current password: 400, nothing written)', async () => {
    const editor = await account('editor');
    const other = (await signIn(editor.username)).body.token as string;
    const renamed = await send('/api/admin/me', '/api/admin/me', {
      method: 'PATCH',
      token: editor.token,
      body: { firstName: '  Robin ', lastName: 'Renamed' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user).toMatchObject({ firstName: 'Robin', lastName: 'Renamed', role: 'editor' });
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: editor.token })).body.user.firstName).toBe(
      'Robin',
    );

    // A name the database could not keep as given (a NUL is dropped, leaving nothing) is refused, not a 500.
    for (const firstName of ['\u0000', 'Ro\u0007bin']) {
      const refused = await send('/api/admin/me', '/api/admin/me', {
        method: 'PATCH',
        token: editor.token,
        body: { firstName, lastName: 'Renamed' },
      });
      expect(refused.status, JSON.stringify(firstName)).toBe(400);
    }

    const before = await snapshot();
    const wrong = await send('/api/admin/me/password', '/api/admin/me/password', {
      method: 'POST',
      token: editor.token,
      body: { current: 'not my password at all', next: 'my brand new password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(WRONG_PASSWORD);
    const weak = await send('/api/admin/me/password', '/api/admin/me/password', {
      method: 'POST',
      token: editor.token,
      body: { current: PASSWORD, next: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(await changesSince(before)).toEqual([]);

    const changed = await send('/api/admin/me/password', '/api/admin/me/password', {
      method: 'POST',
      token: editor.token,
      body: { current: PASSWORD, next: 'my brand new password' },
    });
    expect(changed.status).toBe(200);
    // This device stays signed in; the other one is signed out; the new password works.
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: editor.token })).status).toBe(200);
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: other })).status).toBe(401);
    expect((await signIn(editor.username, PASSWORD)).status).toBe(401);
    expect((await signIn(editor.username, 'my brand new password')).status).toBe(200);
  });

  it('finding 6: bad input to the own-account routes gets a clear 4xx and changes nothing', async () => {
    const editor = await account('editor');
    const admin = await account();
    const before = await snapshot();
    const empty = await send('/api/admin/me', '/api/admin/me', {
      method: 'PATCH',
      token: editor.token,
      body: { firstName: '', lastName: 'X' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('First name is required');
    const notUuid = await send('/api/admin/me/sessions/:id', '/api/admin/me/sessions/__proto__', {
      method: 'DELETE',
      token: editor.token,
      params: { id: '__proto__' },
    });
    expect(notUuid.status).toBe(404);
    const unknownUser = await changeUser(admin.token, 'constructor', { role: 'admin' });
    expect(unknownUser.status).toBe(404);
    expect(await changesSince(before)).toEqual([]);
  });
});

describe('requests that race (one database, any number of function instances)', () => {
  /** Two active administrators and nobody else; their accounts as their requests see them. */
  async function twoAdmins() {
    const first = await account();
    const second = await account();
    await onlyAccounts(first.username, second.username);
    return { first, second, me: [(await getUser(first.username))!, (await getUser(second.username))!] as const };
  }
  const outcomes = (results: PromiseSettledResult<unknown>[]) =>
    results.map((result) => (result.status === 'fulfilled' ? 'done' : (result.reason as Error).message)).sort();

  it.each([
    ['demote', { role: 'editor' as const }],
    ['deactivate', { active: false }],
  ])(
    'finding 3: the last two admins who %s each other at the same moment: one change lands, the other is refused',
    async (_, change) => {
      const { first, second, me } = await twoAdmins();
      const results = await Promise.allSettled([
        changeStaff(me[0], second.username, change),
        changeStaff(me[1], first.username, change),
      ]);
      expect(outcomes(results)).toEqual(['done', LAST_ADMIN].sort());
      expect(await activeAdmins()).toHaveLength(1);
    },
  );

  it('finding 3: the last two admins deleting each other (one from the admin, one from the command line) at once: one remains', async () => {
    const { first, second, me } = await twoAdmins();
    const results = await Promise.allSettled([deleteStaff(me[0], second.username), deleteStaffFromCli(first.username)]);
    expect(outcomes(results)).toEqual(['done', LAST_ADMIN].sort());
    expect(await activeAdmins()).toHaveLength(1);
  });

  it('finding 3: through the handlers too: of two admins demoting each other at once exactly one succeeds', async () => {
    const { first, second } = await twoAdmins();
    const answers = await Promise.all([
      changeUser(first.token, second.username, { role: 'editor' }),
      changeUser(second.token, first.username, { role: 'editor' }),
    ]);
    // The loser is refused: the last admin (409), or, if the other change landed before its request was
    // authorised, as an editor now (403).
    expect(answers.map((answer) => answer.status).filter((status) => status === 200)).toHaveLength(1);
    expect(answers.every((answer) => [200, 403, 409].includes(answer.status))).toBe(true);
    expect(await activeAdmins()).toHaveLength(1);
  });

  it('finding 1: two invitations for one address at the same moment make one account; the other gets 409', async () => {
    const admin = await account();
    const email = `${unique('race')}@example.com`;
    const answers = await Promise.all(
      ['editor', 'admin'].map((role) => invite(admin.token, { email, firstName: 'Ra', lastName: 'Ce', role })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.message).toBe(EMAIL_TAKEN);
    const accounts = await db().query(sql`SELECT username FROM staff WHERE lower(email) = ${email}`);
    expect(accounts).toHaveLength(1);
    // The same address typed in capitals is the same address.
    const shouted = await invite(admin.token, {
      email: email.toUpperCase(),
      firstName: 'Ra',
      lastName: 'Ce',
      role: 'editor',
    });
    expect(shouted).toMatchObject({ status: 409, body: { message: EMAIL_TAKEN } });
  });

  it('finding 5: sign-ins, a logout and a "last seen" note on one account at the same moment all land', async () => {
    const username = unique('busy');
    await createUser({ username, firstName: 'Busy', lastName: 'Account', role: 'editor', password: PASSWORD });
    const leaving = (await signIn(username)).body.token as string;
    const seen = crypto.randomUUID();
    await recordSession(username, seen, 'Seen device', Date.now() - 10 * 60_000);
    const user = (await getUser(username))!;
    const now = Date.now();
    const signInFrom = async (ip: string) => {
      const request = new Request('http://localhost/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      return ((await handlerFor('/api/auth/login')!.handler(request, fakeContext({}, ip))) as Response).status;
    };
    const [signIns, logout] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, (_, i) => signInFrom(`192.0.2.${100 + i}`))),
      send('/api/auth/logout', '/api/auth/logout', { method: 'POST', token: leaving }),
      touchSession(user, seen, now),
    ]);
    expect(signIns).toEqual(signIns.map(() => 200));
    expect(logout.status).toBe(200);
    expect((await send('/api/auth/verify', '/api/auth/verify', { token: leaving })).status).toBe(401);
    const sessions = (await getUser(username))!.sessions;
    expect(sessions.find((session) => session.id === seen)?.lastSeenAt).toBe(now);
    // The twelve new devices and the one seen; the one that logged out has gone.
    expect(sessions).toHaveLength(13);
  }, 60_000);
});
