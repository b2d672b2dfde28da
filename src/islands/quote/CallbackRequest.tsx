import { useId, useMemo, useState, type FormEvent } from 'react';
import { PhoneCall } from 'lucide-react';
import { callbackDays } from '../../lib/callback';

/**
 * "Call me back": a day and a time window from the business hours staff keep in the settings, sent with the
 * applicant link's token (the server accepts only what the hours offer, and keeps it on the inquiry).
 */
export function CallbackRequest({ token, businessHours }: { token: string; businessHours: string }) {
  const id = useId();
  const days = useMemo(() => callbackDays(businessHours), [businessHours]);
  const [day, setDay] = useState(days[0]?.date ?? '');
  const windows = days.find((d) => d.date === day)?.windows ?? [];
  const [slot, setSlot] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'busy' | 'done' | 'error'; text?: string }>({ kind: 'idle' });
  if (!days.length) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!slot) {
      setState({ kind: 'error', text: 'Choose a time.' });
      return;
    }
    setState({ kind: 'busy' });
    try {
      const response = await fetch('/api/applicant/callback', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ day, window: slot }),
      });
      const answer = (await response.json().catch(() => ({}))) as { message?: string };
      if (!response.ok) throw new Error(answer.message || 'The call-back could not be booked. Please call us instead.');
      const label = days.find((d) => d.date === day)?.label ?? day;
      setState({ kind: 'done', text: `Booked: we will call you on ${label}, ${slot}.` });
    } catch (cause) {
      setState({
        kind: 'error',
        text:
          cause instanceof TypeError
            ? 'Network error. Please try again.'
            : (cause as Error).message || 'The call-back could not be booked. Please call us instead.',
      });
    }
  }

  if (state.kind === 'done')
    return (
      <p className="quote-callback__done" role="status" data-testid="callback-booked">
        <PhoneCall size={20} aria-hidden="true" /> {state.text}
      </p>
    );
  return (
    <form className="quote-callback" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`} className="quote-result__title">
        Or we call you
      </h3>
      <div className="quote-callback__fields">
        <div className="quote-callback__field">
          <label htmlFor={`${id}-day`}>Day</label>
          <select
            id={`${id}-day`}
            value={day}
            onChange={(event) => {
              setDay(event.target.value);
              setSlot('');
            }}
          >
            {days.map((d) => (
              <option key={d.date} value={d.date}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        <div className="quote-callback__field">
          <label htmlFor={`${id}-window`}>Time (Sydney time)</label>
          <select
            id={`${id}-window`}
            value={slot}
            aria-invalid={state.kind === 'error' && !slot ? true : undefined}
            aria-describedby={state.kind === 'error' ? `${id}-error` : undefined}
            onChange={(event) => setSlot(event.target.value)}
          >
            <option value="">Choose a time</option>
            {windows.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn--outline" disabled={state.kind === 'busy'}>
          {state.kind === 'busy' ? 'Booking…' : 'Request a call-back'}
        </button>
      </div>
      {state.kind === 'error' && (
        <p id={`${id}-error`} className="quote-callback__error" role="alert">
          {state.text}
        </p>
      )}
    </form>
  );
}
