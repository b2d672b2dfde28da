import { useState, type SubmitEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { INVITE_INVALID } from '../schemas/staff';
import { api, ApiError, failureText } from './api';
import { LOGIN_PATH } from './session';
import './admin.css';

/** The invitation token from the address's fragment (#token=...), which never reaches a server log. */
function tokenFromAddress(): string {
  return new URLSearchParams(location.hash.replace(/^#/, '')).get('token') ?? '';
}

/** /admin/accept-invite#token=...: an invited person chooses their password, then signs in. */
export default function AcceptInvitePage() {
  const [token] = useState(tokenFromAddress);
  const [password, setPassword] = useState('');
  const [error, setError] = useState(token ? '' : INVITE_INVALID);
  const [done, setDone] = useState<{ username: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const answer = await api<{ username: string; message: string }>('/auth/accept-invite', {
        method: 'POST',
        body: { token, password },
        endSessionOn401: false,
      });
      setDone(answer);
      // The link has worked: take its token out of the address bar and history.
      history.replaceState(null, '', location.pathname);
    } catch (cause) {
      const field = cause instanceof ApiError ? cause.errors.find((e) => e.field === 'password') : undefined;
      setError(field?.message ?? failureText(cause, 'Your password could not be set. Please try again.'));
    }
    setBusy(false);
  }

  return (
    <main id="main" className="login-page">
      <form className="login-card" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <h1 className="login-title">
          RPL Pathways
          <span className="login-subtitle">Set your password</span>
        </h1>
        <div role="alert" className="login-messages">
          {error && <p className="admin-banner is-error">{error}</p>}
        </div>
        <div role="status" className="login-messages">
          {done && <p className="admin-banner is-success">{done.message}</p>}
        </div>
        {done ? (
          <a className="admin-btn admin-btn--primary login-submit" href={LOGIN_PATH}>
            Go to login
          </a>
        ) : (
          <>
            <div className="admin-field">
              <label htmlFor="new-password">New password (at least 12 characters)</label>
              <input
                id="new-password"
                name="password"
                type="password"
                autoComplete="new-password"
                value={password}
                disabled={busy || !token}
                onChange={(e) => setPassword(e.target.value)}
                required
                minLength={12}
              />
            </div>
            <button type="submit" className="admin-btn admin-btn--primary login-submit" disabled={busy || !token}>
              <KeyRound size={18} aria-hidden="true" /> {busy ? 'Saving...' : 'Set password'}
            </button>
          </>
        )}
        <a className="login-back" href="/">
          Back to the website
        </a>
      </form>
    </main>
  );
}
