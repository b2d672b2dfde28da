import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import * as v from 'valibot';
import { PublicUserSchema, type PublicUser } from '../schemas/auth';
import { api, ApiError } from './api';
import { clearSession, LOGIN_PATH, markSigningOut, readSession, writeSession } from './session';

/** A failed login without a message from the server (docs/texts.md). */
export const LOGIN_FAILED = 'Login failed. Please try again.';

type Status = 'loading' | 'authenticated' | 'unauthenticated';

interface LoginResult {
  success: boolean;
  message: string;
  /** The password was right and the account asks for its authenticator app's code (or it was wrong). */
  secondFactor?: boolean;
}

interface AuthValue {
  status: Status;
  user: PublicUser | null;
  /** What the server says every admin page must show until it is fixed (e-mail not set up). */
  notices: string[];
  login(username: string, password: string, code?: string): Promise<LoginResult>;
  /** Redeems a one-time sign-in link (sent by e-mail when the account was locked) for a session. */
  redeemLink(token: string, code?: string): Promise<LoginResult>;
  /** Ends this device's session only. */
  logout(): Promise<void>;
  /** Ends every session of the account, this one included. */
  logoutEverywhere(): Promise<void>;
  /** Keeps the shown name in step after the person changed it on the Account screen. */
  updateUser(user: PublicUser): void;
}

const AuthContext = createContext<AuthValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>('loading');
  const [user, setUser] = useState<PublicUser | null>(null);
  const [notices, setNotices] = useState<string[]>([]);

  // A stored token and user restore the session; then the token is checked with the server,
  // and a token the server refuses logs the user out (the API layer redirects on 401).
  useEffect(() => {
    const session = readSession();
    if (!session) {
      clearSession();
      setStatus('unauthenticated');
      return;
    }
    setUser(session.user);
    setStatus('authenticated');
    api<{ user?: unknown; notices?: unknown }>('/auth/verify')
      .then((answer) => {
        const said = v.safeParse(v.array(v.string()), answer.notices);
        if (said.success) setNotices(said.output);
        // The server's account wins: a role or name changed since sign-in shows from this page on.
        const fresh = v.safeParse(PublicUserSchema, answer.user);
        if (!fresh.success || JSON.stringify(fresh.output) === JSON.stringify(session.user)) return;
        writeSession({ token: session.token, user: fresh.output });
        setUser(fresh.output);
      })
      .catch((cause: unknown) => {
        if (cause instanceof ApiError && cause.status === 401) {
          setUser(null);
          setStatus('unauthenticated');
        }
      });
  }, []);

  const signIn = useCallback(async (path: string, body: unknown): Promise<LoginResult> => {
    try {
      const answer = await api<{ token?: string; user?: PublicUser; message?: string }>(path, {
        method: 'POST',
        body,
        endSessionOn401: false,
      });
      if (!answer.token || !answer.user) return { success: false, message: answer.message || LOGIN_FAILED };
      writeSession({ token: answer.token, user: answer.user });
      setUser(answer.user);
      setStatus('authenticated');
      return { success: true, message: answer.message || 'Login successful! Redirecting...' };
    } catch (cause) {
      // The server's own message when it gave one; the network failure text; otherwise the generic one.
      if (cause instanceof ApiError)
        return {
          success: false,
          message: cause.fromServer || cause.status === 0 ? cause.message : LOGIN_FAILED,
          secondFactor: v.is(v.object({ secondFactor: v.literal(true) }), cause.body),
        };
      throw cause;
    }
  }, []);

  const login = useCallback(
    (username: string, password: string, code?: string) =>
      signIn('/auth/login', { username, password, ...(code ? { code } : {}) }),
    [signIn],
  );
  const redeemLink = useCallback(
    (token: string, code?: string) => signIn('/auth/link', { token, ...(code ? { code } : {}) }),
    [signIn],
  );

  // End the session on the server (best effort), forget it locally whatever the answer, and go to the login page
  // (replacing history, so Back does not reopen an admin page). The page's other calls may meet the ended
  // session meanwhile; they no longer redirect (with a "next" back to this page).
  const signOut = useCallback(async (path: string) => {
    markSigningOut();
    await api(path, { method: 'POST', endSessionOn401: false }).catch(() => {});
    clearSession();
    location.replace(LOGIN_PATH);
  }, []);
  const logout = useCallback(() => signOut('/auth/logout'), [signOut]);
  const logoutEverywhere = useCallback(() => signOut('/auth/logout-everywhere'), [signOut]);

  const updateUser = useCallback((next: PublicUser) => {
    const session = readSession();
    if (session) writeSession({ token: session.token, user: next });
    setUser(next);
  }, []);

  const value = useMemo(
    () => ({ status, user, notices, login, redeemLink, logout, logoutEverywhere, updateUser }),
    [status, user, notices, login, redeemLink, logout, logoutEverywhere, updateUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
