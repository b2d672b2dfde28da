import { useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api, ApiError, failureText } from '../api';
import { Loading } from '../Loading';
import { Field } from './Field';

export const ME_KEY = ['admin-me'];
const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

interface Status {
  available: boolean;
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
}

/** The QR code of an otpauth:// address, as an image (drawn in the browser; the secret never leaves it). */
async function qrImage(uri: string): Promise<string> {
  const { toString: svgOf } = await import('qrcode');
  const svg = await svgOf(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Two-step sign-in on the Account screen (administrators): set up an authenticator app by scanning a QR code
 * and entering its first code, keep the ten recovery codes shown once, or turn it off with the password.
 */
export default function SecondFactorCard() {
  const client = useQueryClient();
  const me = useQuery({ queryKey: ME_KEY, queryFn: () => api<{ secondFactor: Status }>('/admin/me') });
  const [setup, setSetup] = useState<{ secret: string; qr: string } | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState('');

  const start = useMutation({
    mutationFn: async (body: { password: string }) => {
      const answer = await api<{ secret: string; uri: string }>('/admin/me/second-factor', { method: 'POST', body });
      return { secret: answer.secret, qr: await qrImage(answer.uri) };
    },
    onSuccess: (started) => {
      setSetup(started);
      setPassword('');
      setPasswordError('');
      setCode('');
      setCodeError('');
    },
    onError: (cause) => {
      if (cause instanceof ApiError && cause.status === 400) setPasswordError(cause.message);
      else toast.error(failureText(cause, 'The set-up could not be started. Please try again.'));
    },
  });

  const confirm = useMutation({
    mutationFn: (body: { code: string }) =>
      api<{ recoveryCodes: string[]; message: string }>('/admin/me/second-factor/confirm', { method: 'POST', body }),
    onSuccess: (answer) => {
      setSetup(null);
      setRecovery(answer.recoveryCodes);
      toast.success(answer.message);
      client.invalidateQueries({ queryKey: ME_KEY });
    },
    onError: (cause) => {
      if (cause instanceof ApiError && cause.status === 400) setCodeError(cause.message);
      else toast.error(failureText(cause, 'The app could not be turned on. Please try again.'));
    },
  });

  const turnOff = useMutation({
    mutationFn: (body: { password: string }) =>
      api<{ message: string }>('/admin/me/second-factor/off', { method: 'POST', body }),
    onSuccess: (answer) => {
      setPassword('');
      setPasswordError('');
      toast.success(answer.message);
      client.invalidateQueries({ queryKey: ME_KEY });
    },
    onError: (cause) => {
      if (cause instanceof ApiError && cause.status === 400) setPasswordError(cause.message);
      else toast.error(failureText(cause, 'The app could not be turned off. Please try again.'));
    },
  });

  function onConfirm(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError('Enter the 6-digit code');
      return;
    }
    confirm.mutate({ code: code.trim() });
  }
  /** Starting a set-up and turning it off both ask for the password first. */
  const withPassword = (then: (body: { password: string }) => void) => (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password) {
      setPasswordError('Enter your current password');
      return;
    }
    then({ password });
  };
  const passwordField = (
    <Field
      id="tfa-password"
      label="Current password"
      type="password"
      autoComplete="current-password"
      value={password}
      onChange={(value) => {
        setPassword(value);
        setPasswordError('');
      }}
      error={passwordError}
    />
  );

  if (me.isPending)
    return (
      <section className="admin-card account-card" aria-label="Two-step sign-in">
        <Loading />
      </section>
    );
  if (me.isError)
    return (
      <section className="admin-card account-card" aria-labelledby="tfa-title">
        <h2 id="tfa-title">Two-step sign-in</h2>
        <div role="alert" className="admin-banner is-error">
          <p>{failureText(me.error, 'Your account could not be loaded. Please try again.')}</p>
          <button type="button" className="admin-btn admin-btn--ghost" onClick={() => me.refetch()}>
            Try again
          </button>
        </div>
      </section>
    );
  const status = me.data.secondFactor;
  if (!status.available && !recovery) return null;

  return (
    <section className="admin-card account-card" aria-labelledby="tfa-title">
      <h2 id="tfa-title">Two-step sign-in</h2>
      {recovery ? (
        <div className="tfa-recovery">
          <p>
            <strong>Save these recovery codes now.</strong> Each one signs you in once if your phone is lost. They are
            not shown again.
          </p>
          <ul className="tfa-codes" aria-label="Recovery codes">
            {recovery.map((entry) => (
              <li key={entry}>
                <code>{entry}</code>
              </li>
            ))}
          </ul>
          <div className="admin-actions">
            <button
              type="button"
              className="admin-btn admin-btn--ghost"
              onClick={() =>
                navigator.clipboard
                  ?.writeText(recovery.join('\n'))
                  .then(() => toast.success('The recovery codes are copied.'))
                  .catch(() => toast.error('They could not be copied: write them down instead.'))
              }
            >
              Copy the codes
            </button>
            <button type="button" className="admin-btn admin-btn--primary" onClick={() => setRecovery(null)}>
              I have saved them
            </button>
          </div>
        </div>
      ) : status.enabled ? (
        <form onSubmit={withPassword((body) => turnOff.mutate(body))} noValidate>
          <p>
            On since {status.enabledAt ? when(status.enabledAt) : 'set-up'}: sign-in asks for the code from your
            authenticator app. {status.recoveryCodesLeft} recovery code{status.recoveryCodesLeft === 1 ? '' : 's'} left.
          </p>
          {passwordField}
          <div className="admin-actions">
            <button type="submit" className="admin-btn admin-btn--danger" disabled={turnOff.isPending}>
              {turnOff.isPending ? 'Turning off...' : 'Turn off'}
            </button>
          </div>
        </form>
      ) : setup ? (
        <form onSubmit={onConfirm} noValidate className="tfa-setup">
          <ol>
            <li>Open an authenticator app on your phone and scan this code (or type the key below).</li>
            <li>Enter the 6-digit code the app shows.</li>
          </ol>
          <img className="tfa-qr" src={setup.qr} width={200} height={200} alt="QR code for your authenticator app" />
          <p className="users-muted">
            Key: <code className="tfa-key">{grouped(setup.secret)}</code>
          </p>
          <Field
            id="tfa-code"
            label="6-digit code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(value) => {
              setCode(value);
              setCodeError('');
            }}
            error={codeError}
          />
          <div className="admin-actions">
            <button type="submit" className="admin-btn admin-btn--primary" disabled={confirm.isPending}>
              {confirm.isPending ? 'Checking...' : 'Turn on'}
            </button>
            <button type="button" className="admin-btn admin-btn--ghost" onClick={() => setSetup(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <form onSubmit={withPassword((body) => start.mutate(body))} noValidate>
          <p>
            Off. With it on, signing in also needs the 6-digit code from an authenticator app on your phone, so a stolen
            password alone does not open the admin.
          </p>
          {passwordField}
          <div className="admin-actions">
            <button type="submit" className="admin-btn admin-btn--primary" disabled={start.isPending}>
              {start.isPending ? 'Starting...' : 'Set up an authenticator app'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
