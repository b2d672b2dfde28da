import { useEffect, useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { PublicUser } from '../schemas/auth';
import type { OwnSession } from '../schemas/staff';
import { api, ApiError, failureText } from './api';
import { useAuth } from './auth';
import { Loading } from './Loading';
import SecondFactorCard from './users/SecondFactorCard';
import { Field } from './users/Field';
import './users/users.css';

const SESSIONS_KEY = ['admin-me-sessions'];
const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

type Errors = Record<string, string>;
const fieldErrors = (cause: unknown): Errors =>
  Object.fromEntries((cause instanceof ApiError ? cause.errors : []).map((f) => [f.field, f.message]));

/** Account (every signed-in person): own display name, own password, two-step sign-in (administrators), own sessions. */
export default function AccountPage() {
  const { user, updateUser, logoutEverywhere } = useAuth();
  const client = useQueryClient();
  const [name, setName] = useState({ firstName: user?.firstName ?? '', lastName: user?.lastName ?? '' });
  const [nameErrors, setNameErrors] = useState<Errors>({});
  const [password, setPassword] = useState({ current: '', next: '' });
  const [passwordErrors, setPasswordErrors] = useState<Errors>({});
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (user) setName({ firstName: user.firstName, lastName: user.lastName });
  }, [user]);

  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => api<{ sessions: OwnSession[] }>('/admin/me/sessions'),
  });

  const saveName = useMutation({
    mutationFn: (body: typeof name) =>
      api<{ user: PublicUser; message: string }>('/admin/me', { method: 'PATCH', body }),
    onSuccess: (answer) => {
      setNameErrors({});
      updateUser(answer.user);
      toast.success(answer.message);
    },
    onError: (cause) => {
      setNameErrors(fieldErrors(cause));
      toast.error(failureText(cause, 'Your name could not be saved. Please try again.'));
    },
  });

  const changePassword = useMutation({
    mutationFn: (body: typeof password) => api<{ message: string }>('/admin/me/password', { method: 'POST', body }),
    onSuccess: (answer) => {
      setPassword({ current: '', next: '' });
      setPasswordErrors({});
      toast.success(answer.message);
      client.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
    onError: (cause) => {
      const errors = fieldErrors(cause);
      setPasswordErrors(errors);
      if (!Object.keys(errors).length)
        toast.error(failureText(cause, 'Your password could not be changed. Please try again.'));
    },
  });

  const endSession = useMutation({
    mutationFn: (id: string) => api<{ message: string }>(`/admin/me/sessions/${id}`, { method: 'DELETE' }),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (cause) => toast.error(failureText(cause, 'The session could not be ended. Please try again.')),
    onSettled: () => client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });

  function onName(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    saveName.mutate(name);
  }
  function onPassword(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    changePassword.mutate(password);
  }

  return (
    <div className="users-grid">
      <form className="admin-card account-card" onSubmit={onName} noValidate aria-labelledby="name-title">
        <h2 id="name-title">Your name</h2>
        <p className="users-muted">
          Username: <strong>{user?.username}</strong> · Role: {user?.role}
        </p>
        <Field
          id="own-first-name"
          label="First name"
          autoComplete="given-name"
          value={name.firstName}
          onChange={(firstName) => setName({ ...name, firstName })}
          error={nameErrors.firstName}
        />
        <Field
          id="own-last-name"
          label="Last name"
          autoComplete="family-name"
          value={name.lastName}
          onChange={(lastName) => setName({ ...name, lastName })}
          error={nameErrors.lastName}
        />
        <div className="admin-actions">
          <button type="submit" className="admin-btn admin-btn--primary" disabled={saveName.isPending}>
            {saveName.isPending ? 'Saving...' : 'Save name'}
          </button>
        </div>
      </form>

      <form className="admin-card account-card" onSubmit={onPassword} noValidate aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        {/* Lets password managers file the new password under the right account. */}
        <input type="hidden" autoComplete="username" value={user?.username ?? ''} readOnly />
        <Field
          id="own-current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={password.current}
          onChange={(current) => setPassword({ ...password, current })}
          error={passwordErrors.current}
        />
        <Field
          id="own-new-password"
          label="New password (at least 12 characters)"
          type="password"
          autoComplete="new-password"
          value={password.next}
          onChange={(next) => setPassword({ ...password, next })}
          error={passwordErrors.next}
        />
        <div className="admin-actions">
          <button type="submit" className="admin-btn admin-btn--primary" disabled={changePassword.isPending}>
            {changePassword.isPending ? 'Changing...' : 'Change password'}
          </button>
          <span className="users-muted">Your other sessions end; this one stays signed in.</span>
        </div>
      </form>

      <SecondFactorCard />

      <section className="admin-card account-card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Where you are signed in</h2>
        {sessions.isPending ? (
          <Loading />
        ) : sessions.isError ? (
          <div role="alert" className="admin-banner is-error">
            <p>{failureText(sessions.error, 'Your sessions could not be loaded. Please try again.')}</p>
            <button type="button" className="admin-btn admin-btn--ghost" onClick={() => sessions.refetch()}>
              Try again
            </button>
          </div>
        ) : (
          <ul className="sessions-list" aria-label="Your sessions">
            {sessions.data.sessions.map((session) => (
              <li key={session.id}>
                <span>
                  <strong>{session.device}</strong>
                  {session.current && ' (this device)'}
                  <br />
                  <span className="users-muted">
                    Signed in {when(session.createdAt)} · last seen {when(session.lastSeenAt)}
                  </span>
                </span>
                {!session.current && (
                  <button
                    type="button"
                    className="admin-btn admin-btn--ghost"
                    disabled={endSession.isPending}
                    aria-label={`End the session on ${session.device} signed in ${when(session.createdAt)}`}
                    onClick={() => endSession.mutate(session.id)}
                  >
                    End
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="admin-actions">
          <button
            type="button"
            className="admin-btn admin-btn--danger"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              void logoutEverywhere();
            }}
          >
            {leaving ? 'Signing out...' : 'Sign out everywhere'}
          </button>
          <span className="users-muted">Ends every session, this one included.</span>
        </div>
      </section>
    </div>
  );
}
