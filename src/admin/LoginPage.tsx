import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Eye, EyeOff, LogIn } from 'lucide-react';
import { AuthProvider, useAuth } from './auth';
import { safeNext } from './session';
import { FILL_ALL_FIELDS } from '../schemas/auth';
import './admin.css';
import { Loading } from './Loading';

function nextPage(): string {
  return safeNext(new URLSearchParams(location.search).get('next'));
}

function LoginForm() {
  const { status, login, redeemLink } = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [success, setSuccess] = useState('');
  // After a right password, an account with an authenticator app is asked for its code (the link's too).
  const [askCode, setAskCode] = useState('');
  const [code, setCode] = useState('');
  const [pendingLink, setPendingLink] = useState('');
  const codeField = useRef<HTMLInputElement>(null);
  const linking = useRef(false);

  useEffect(() => {
    if (askCode) codeField.current?.focus();
  }, [askCode]);

  /** What a refused sign-in leads to: the code field on the first "code needed", else the message. */
  function refused(result: { message: string; secondFactor?: boolean }) {
    if (result.secondFactor && !askCode) {
      setAskCode(result.message);
      return;
    }
    setError(result.message || 'Login failed. Please try again.');
  }

  // Someone already signed in is sent on.
  useEffect(() => {
    if (status === 'authenticated' && !success && !linking.current) location.replace(nextPage());
  }, [status, success]);

  // A one-time sign-in link from the e-mail sent while the account was locked: /admin/login?link=...
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const link = params.get('link');
    if (!link || linking.current || status === 'loading') return;
    linking.current = true;
    params.delete('link');
    // The link works once: take it out of the address bar and history.
    history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
    setBusy(true);
    redeemLink(link)
      .then((result) => {
        if (result.success) {
          setSuccess(result.message);
          setTimeout(() => location.replace(nextPage()), 600);
          return;
        }
        if (result.secondFactor) {
          setAskCode(result.message);
          setPendingLink(link);
        } else setError(result.message);
        setBusy(false);
      })
      .catch(() => {
        setError('Network error. Please check your connection and try again.');
        setBusy(false);
      });
  }, [status, redeemLink]);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (askCode && !code.trim()) {
      setError('Enter the code');
      return;
    }
    if (!pendingLink && (!username.trim() || !password)) {
      setError(FILL_ALL_FIELDS);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const result = pendingLink
        ? await redeemLink(pendingLink, code.trim())
        : await login(username.trim(), password, askCode ? code.trim() : undefined);
      if (result.success) {
        setSuccess(result.message);
        setTimeout(() => location.replace(nextPage()), 600);
        return;
      }
      refused(result);
    } catch {
      setError('Network error. Please check your connection and try again.');
    }
    setBusy(false);
  }

  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    if (error) setError('');
  };

  if (status === 'loading') return <Loading />;
  const disabled = busy || Boolean(success);
  return (
    <form className="login-card" onSubmit={onSubmit} noValidate aria-busy={busy}>
      <h1 className="login-title">
        RPL Pathways
        <span className="login-subtitle">Admin Panel</span>
      </h1>
      <div role="alert" className="login-messages">
        {error && <p className="admin-banner is-error">{error}</p>}
      </div>
      <div role="status" className="login-messages">
        {success && <p className="admin-banner is-success">{success}</p>}
      </div>
      {!pendingLink && (
        <>
          <div className="admin-field">
            <label htmlFor="username">Username</label>
            <input
              id="username"
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={username}
              disabled={disabled}
              onChange={(e) => edit(setUsername)(e.target.value)}
              required
            />
          </div>
          <div className="admin-field">
            <label htmlFor="password">Password</label>
            <div className="password-field">
              <input
                id="password"
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                value={password}
                disabled={disabled}
                onChange={(e) => edit(setPassword)(e.target.value)}
                required
              />
              <button
                type="button"
                className="password-toggle"
                onClick={() => setShowPassword((shown) => !shown)}
                disabled={disabled}
                aria-pressed={showPassword}
                aria-label={showPassword ? 'Hide password' : 'Show password'}
              >
                {showPassword ? <EyeOff size={20} aria-hidden="true" /> : <Eye size={20} aria-hidden="true" />}
              </button>
            </div>
          </div>
        </>
      )}
      {askCode && (
        <div className="admin-field">
          <label htmlFor="code">Authentication code</label>
          <p id="code-hint" className="login-hint">
            {askCode}
          </p>
          <input
            id="code"
            name="code"
            ref={codeField}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            aria-describedby="code-hint"
            value={code}
            disabled={disabled}
            maxLength={32}
            onChange={(e) => edit(setCode)(e.target.value)}
            required
          />
        </div>
      )}
      <button type="submit" className="admin-btn admin-btn--primary login-submit" disabled={disabled}>
        <LogIn size={18} aria-hidden="true" /> {busy ? 'Logging in...' : 'Login'}
      </button>
      <a className="login-back" href="/">
        Back to the website
      </a>
    </form>
  );
}

export default function LoginPage() {
  return (
    <AuthProvider>
      <main id="main" className="login-page">
        <LoginForm />
      </main>
    </AuthProvider>
  );
}
