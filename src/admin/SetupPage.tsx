import { useEffect, useState, type SubmitEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { SETUP_DONE, SETUP_NOT_ENABLED } from '../schemas/staff';
import { api, ApiError, failureText } from './api';
import { LOGIN_PATH } from './session';
import './admin.css';

type State = 'loading' | 'off' | 'done' | 'open' | 'unreachable';
const FIELDS = [
  { name: 'secret', label: 'Setup secret (the SETUP_SECRET you set on Netlify)', type: 'password', auto: 'off' },
  { name: 'username', label: 'Username', type: 'text', auto: 'username' },
  { name: 'firstName', label: 'First name', type: 'text', auto: 'given-name' },
  { name: 'lastName', label: 'Last name', type: 'text', auto: 'family-name' },
  { name: 'email', label: 'E-mail (for sign-in links)', type: 'email', auto: 'email' },
  { name: 'password', label: 'Password (at least 12 characters)', type: 'password', auto: 'new-password' },
] as const;
type Field = (typeof FIELDS)[number]['name'];

/** /admin/setup: the first owner of a new site, made once with the setup secret (src/server/first-owner.ts). */
export default function SetupPage() {
  const [state, setState] = useState<State>('loading');
  const [values, setValues] = useState<Record<Field, string>>({
    secret: '',
    username: '',
    firstName: '',
    lastName: '',
    email: '',
    password: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api<{ enabled: boolean; done: boolean }>('/auth/setup', { endSessionOn401: false })
      .then((answer) => setState(answer.done ? 'done' : answer.enabled ? 'open' : 'off'))
      .catch(() => setState('unreachable'));
  }, []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setMessage('');
    setErrors({});
    try {
      const answer = await api<{ message: string }>('/auth/setup', {
        method: 'POST',
        body: values,
        endSessionOn401: false,
      });
      setDone(answer.message);
    } catch (cause) {
      if (cause instanceof ApiError) {
        const byField: Partial<Record<Field, string>> = {};
        for (const { field, message: text } of cause.errors)
          if (FIELDS.some((f) => f.name === field)) byField[field as Field] ??= text;
        setErrors(byField);
        if (cause.status === 409) setState('done');
      }
      setMessage(failureText(cause, 'The owner could not be created. Please try again.'));
    }
    setBusy(false);
  }

  return (
    <main id="main" className="login-page">
      <form className="login-card" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <h1 className="login-title">
          RPL Pathways
          <span className="login-subtitle">Set up the first owner</span>
        </h1>
        <div role="alert" className="login-messages">
          {message && !done && <p className="admin-banner is-error">{message}</p>}
        </div>
        <div role="status" className="login-messages">
          {state === 'loading' && <p>Checking this site...</p>}
          {state === 'off' && <p className="admin-banner is-error">{SETUP_NOT_ENABLED}</p>}
          {state === 'done' && !done && <p className="admin-banner is-success">{SETUP_DONE}</p>}
          {state === 'unreachable' && (
            <p className="admin-banner is-error">The site could not be reached. Reload to try again.</p>
          )}
          {done && <p className="admin-banner is-success">{done}</p>}
        </div>
        {state === 'open' &&
          !done &&
          FIELDS.map((field) => (
            <div className="admin-field" key={field.name}>
              <label htmlFor={`setup-${field.name}`}>{field.label}</label>
              <input
                id={`setup-${field.name}`}
                name={field.name}
                type={field.type}
                autoComplete={field.auto}
                value={values[field.name]}
                disabled={busy}
                aria-invalid={errors[field.name] ? true : undefined}
                aria-describedby={errors[field.name] ? `setup-${field.name}-error` : undefined}
                onChange={(e) => setValues((current) => ({ ...current, [field.name]: e.target.value }))}
                required
              />
              {errors[field.name] && (
                <p id={`setup-${field.name}-error`} className="admin-error">
                  {errors[field.name]}
                </p>
              )}
            </div>
          ))}
        {state === 'open' && !done && (
          <button type="submit" className="admin-btn admin-btn--primary login-submit" disabled={busy}>
            <KeyRound size={18} aria-hidden="true" /> {busy ? 'Creating...' : 'Create the owner'}
          </button>
        )}
        {(done || state === 'done') && (
          <a className="admin-btn admin-btn--primary login-submit" href={LOGIN_PATH}>
            Go to login
          </a>
        )}
        <a className="login-back" href="/">
          Back to the website
        </a>
      </form>
    </main>
  );
}
