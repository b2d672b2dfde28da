/**
 * Issue (staff accounts): an optional second factor by authenticator app, with recovery codes, for
 * administrators. Against the real handlers and a fresh database: set-up proves the app has the secret,
 * sign-in then asks for a code, a code works once, recovery codes work once, a wrong code counts as a failed
 * attempt, the e-mailed sign-in link asks for the code too, and turning it off needs the password.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { signInAccount, signInSuite, SIGN_IN_PASSWORD, postJson, type Handler } from './helpers/sign-in';
import login from '../../netlify/functions/auth-login.mts';
import link from '../../netlify/functions/auth-link.mts';
import me from '../../netlify/functions/admin-me.mts';
import { getUser } from '../../src/server/users';
import { codeAt, CODE_NEEDED, CODE_WRONG, WRONG_PASSWORD } from '../../src/server/second-factor';
import { forbiddenMessage } from '../../src/lib/roles';
import { lockState } from '../../src/server/throttle';
import { sendSignInLink } from '../../src/server/sign-in-links';
import type { MailTransport } from '../../src/server/mail-transports';
import { listActivity } from '../../src/server/activity';

signInSuite('second-factor-secret-that-is-long-enough-0123456789');

const STEP_MS = 30_000;

async function call(handler: Handler, path: string, token: string, body?: unknown, method = 'POST') {
  const response = await handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { ip: '203.0.113.9', params: {} } as never,
  );
  return { status: response.status, body: await response.json() };
}

async function signIn(username: string, extra: Record<string, string> = {}, ip = '203.0.113.9') {
  const response = await postJson(login, '/api/auth/login', { username, password: SIGN_IN_PASSWORD, ...extra }, { ip });
  return { status: response.status, body: await response.json() };
}

/** An admin with the factor turned on; answers its secret, recovery codes and a session token. */
async function adminWithApp(prefix: string) {
  const username = await signInAccount(prefix, { withEmail: true });
  const { token } = (await signIn(username)).body;
  const started = await call(me, '/api/admin/me/second-factor', token, { password: SIGN_IN_PASSWORD });
  expect(started.status).toBe(200);
  expect(started.body.uri).toMatch(/^otpauth:\/\/totp\/RPL%20Pathways:/);
  const secret: string = started.body.secret;
  // A step back, so the code sign-in tests make "now" belongs to a newer step.
  const code = codeAt(secret, username, Date.now() - STEP_MS);
  const confirmed = await call(me, '/api/admin/me/second-factor/confirm', token, { code });
  expect(confirmed.status).toBe(200);
  return { username, secret, recovery: confirmed.body.recoveryCodes as string[], token };
}

describe('second factor by authenticator app', () => {
  it('set-up needs the current code; then sign-in asks for a code, and a code works only once', async () => {
    const username = await signInAccount('tfa');
    const { token } = (await signIn(username)).body;
    // A session alone does not start it: the password is asked again.
    const noPassword = await call(me, '/api/admin/me/second-factor', token, { password: 'someone else guessing' });
    expect(noPassword).toEqual({ status: 400, body: expect.objectContaining({ message: WRONG_PASSWORD }) });
    expect((await getUser(username))?.totpPending).toBeUndefined();
    const started = await call(me, '/api/admin/me/second-factor', token, { password: SIGN_IN_PASSWORD });
    const wrong = await call(me, '/api/admin/me/second-factor/confirm', token, { code: '000000' });
    expect(wrong).toEqual({ status: 400, body: expect.objectContaining({ message: CODE_WRONG }) });
    expect((await getUser(username))?.totp).toBeUndefined();
    const code = codeAt(started.body.secret, username, Date.now() - STEP_MS);
    const confirmed = await call(me, '/api/admin/me/second-factor/confirm', token, { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    const stored = await getUser(username);
    // Only digests of the recovery codes are kept.
    expect(JSON.stringify(stored)).not.toContain(confirmed.body.recoveryCodes[0].replace(/-/g, ''));
    expect((await call(me, '/api/admin/me', token, undefined, 'GET')).body.secondFactor).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    // The password alone is no longer enough, and gives no session.
    const asked = await signIn(username);
    expect(asked).toEqual({ status: 401, body: { message: CODE_NEEDED, secondFactor: true } });
    const now = codeAt(started.body.secret, username, Date.now());
    const admitted = await signIn(username, { code: now });
    expect(admitted.status).toBe(200);
    expect(admitted.body.token).toEqual(expect.any(String));
    // The same code again (seen over a shoulder) is refused.
    expect(await signIn(username, { code: now })).toEqual({
      status: 401,
      body: { message: CODE_WRONG, secondFactor: true },
    });
  });

  it('a recovery code signs in once, typed in any case and without dashes', async () => {
    const { username, recovery } = await adminWithApp('tfarec');
    const typed = recovery[3].replace(/-/g, '').toUpperCase();
    expect((await signIn(username, { code: typed })).status).toBe(200);
    expect((await signIn(username, { code: recovery[3] })).status).toBe(401);
    expect((await getUser(username))?.totp?.recoveryCodes).toHaveLength(9);
  });

  it('one code sent by two sign-ins at the same moment signs in once (app code and recovery code alike)', async () => {
    const { username, secret, recovery } = await adminWithApp('tfatwice');
    const code = codeAt(secret, username, Date.now());
    const both = await Promise.all([
      signIn(username, { code }, '192.0.2.31'),
      signIn(username, { code }, '192.0.2.32'),
    ]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 401]);
    const again = await Promise.all([
      signIn(username, { code: recovery[0] }, '192.0.2.33'),
      signIn(username, { code: recovery[0] }, '192.0.2.34'),
    ]);
    expect(again.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect((await getUser(username))?.totp?.recoveryCodes).toHaveLength(9);
  }, 30_000);

  it('wrong codes count as failed attempts and lock the address like wrong passwords', async () => {
    const { username } = await adminWithApp('tfalock');
    const ip = '198.51.100.77';
    for (let i = 0; i < 5; i++) expect((await signIn(username, { code: '123456' }, ip)).status).toBe(401);
    const state = await lockState(username, ip);
    expect(state.waitMs).toBeGreaterThan(0);
    // Asking for the code (no code sent) neither counts nor clears: still locked.
    expect((await signIn(username, {}, ip)).status).toBe(429);
  });

  it('the e-mailed sign-in link asks for the code before it is used up', async () => {
    const { username, secret } = await adminWithApp('tfalink');
    const sent: string[] = [];
    const transport: MailTransport = {
      name: 'outbox',
      send: async (mail) => {
        sent.push(mail.text);
        return { id: 'test' };
      },
    };
    await sendSignInLink((await getUser(username))!, transport);
    const token = /\?link=([A-Za-z0-9_-]{43})/.exec(sent[0])![1];
    const redeem = async (code?: string) => {
      const response = await postJson(
        link,
        '/api/auth/link',
        { token, ...(code ? { code } : {}) },
        { ip: '192.0.2.5' },
      );
      return { status: response.status, body: await response.json() };
    };
    expect(await redeem()).toEqual({ status: 401, body: { message: CODE_NEEDED, secondFactor: true } });
    expect((await redeem('000000')).body.message).toBe(CODE_WRONG);
    const admitted = await redeem(codeAt(secret, username, Date.now()));
    expect(admitted.status).toBe(200);
    expect(admitted.body.token).toEqual(expect.any(String));
  });

  it('only administrators set one up; turning it off needs the password', async () => {
    const editor = await signInAccount('tfaed', { role: 'editor' });
    const editorToken = (await signIn(editor)).body.token;
    expect(await call(me, '/api/admin/me/second-factor', editorToken, { password: SIGN_IN_PASSWORD })).toEqual({
      status: 403,
      body: expect.objectContaining({ message: forbiddenMessage('editor') }),
    });

    const { username, secret, token } = await adminWithApp('tfaoff');
    // Only its own address turns it off: another one under it (a server retrying `.html` or `/index.html`
    // variants of a refused call) is no action at all.
    for (const path of ['/api/admin/me/second-factor.html', '/api/admin/me/second-factor/index.html'])
      expect((await call(me, path, token, { password: SIGN_IN_PASSWORD })).status, path).toBe(404);
    expect((await getUser(username))?.totp?.secret).toBe(secret);
    const refused = await call(me, '/api/admin/me/second-factor/off', token, { password: 'not the password' });
    expect(refused).toEqual({ status: 400, body: expect.objectContaining({ message: WRONG_PASSWORD }) });
    expect((await getUser(username))?.totp?.secret).toBe(secret);
    const off = await call(me, '/api/admin/me/second-factor/off', token, { password: SIGN_IN_PASSWORD });
    expect(off.status).toBe(200);
    expect((await getUser(username))?.totp).toBeUndefined();
    expect((await signIn(username)).status).toBe(200);
    // Both changes are in the activity log under the person's name, and nothing of the secret is.
    const logged = await listActivity({ person: username, offset: 0, limit: 10 });
    expect(logged.items.map((entry) => entry.action)).toEqual([
      'two-step sign-in turned off',
      'two-step sign-in turned on',
    ]);
    expect(JSON.stringify(logged.items)).not.toContain(secret);
  });

  it('refuses malformed codes with a 400 and changes nothing', async () => {
    const username = await signInAccount('tfabad');
    const { token } = (await signIn(username)).body;
    await call(me, '/api/admin/me/second-factor', token, { password: SIGN_IN_PASSWORD });
    const before = await getUser(username);
    for (const code of ['12345', '1234567', 'abcdef', '', 42, null]) {
      const answer = await call(me, '/api/admin/me/second-factor/confirm', token, { code });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Enter the 6-digit code');
    }
    const after = await getUser(username);
    expect(v.is(v.object({ totpPending: v.object({ secret: v.string() }) }), after)).toBe(true);
    expect(after?.totp).toBe(before?.totp);
    expect(after?.updatedAt).toBe(before?.updatedAt);
  });
});
