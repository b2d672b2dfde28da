import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import * as v from 'valibot';
import { api, ApiError } from '../api';
import { SelectField, TextField } from '../catalogue-fields';
import { issuesToFieldErrors } from '../field-errors';
import { RecordRegisterCheckSchema, REGISTER_STATUSES } from '../../schemas/catalogue';

/** The latest look-up on the National Register, as the admin API gives it. */
export interface RegisterCheckView {
  checkedAt: string;
  by: string | null;
  status: (typeof REGISTER_STATUSES)[number];
  title: string;
  workHours: number | null;
  version: number;
}

const STATUS_TEXT: Record<RegisterCheckView['status'], string> = {
  current: 'Current',
  superseded: 'Superseded',
  deleted: 'Deleted',
};

const day = (iso: string) =>
  new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso).toLocaleDateString('en-AU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    ...(iso.length === 10 ? { timeZone: 'UTC' } : { timeZone: 'Australia/Sydney' }),
  });

/** Markers in the course list: whether the code was looked up on the register, and the review's watch note. */
export function RegisterMarks({
  check,
  watch,
}: {
  check: { checkedAt: string; status: string } | null;
  watch: string | null;
}) {
  return (
    <>
      {check ? (
        <span className="admin-chip" data-testid="register-checked">
          Register {check.status === 'current' ? 'checked' : check.status} {day(check.checkedAt)}
        </span>
      ) : (
        <span className="admin-chip is-warning" data-testid="register-unchecked">
          Not yet checked
        </span>
      )}
      {watch && (
        <span className="admin-chip is-watch" data-testid="watch-marker" title={watch}>
          Watch
        </span>
      )}
    </>
  );
}

/**
 * "I checked this on training.gov.au today": staff open the register entry, then record the status and title
 * they saw (and the work hours, where the qualification needs them). Who and when are set by the server.
 * A status other than current withdraws the qualification from the site at the next rebuild.
 */
export function RegisterCheckPanel({
  code,
  title,
  check,
  workRequirement,
  watch,
  accreditedUntil,
}: {
  code: string;
  title: string;
  check: RegisterCheckView | null;
  workRequirement: { hours: number; note: string } | null;
  watch: string | null;
  accreditedUntil: string | null;
}) {
  const client = useQueryClient();
  const [status, setStatus] = useState('');
  const [seenTitle, setSeenTitle] = useState(check?.title ?? title);
  const [hours, setHours] = useState(check?.workHours ? String(check.workHours) : '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const register = `https://training.gov.au/Training/Details/${encodeURIComponent(code)}`;

  async function record(event: FormEvent) {
    event.preventDefault();
    const body = {
      version: check?.version ?? 0,
      status,
      title: seenTitle,
      ...(hours.trim() ? { workHours: Number(hours) } : {}),
    };
    const parsed = v.safeParse(RecordRegisterCheckSchema, body);
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await api(`/admin/catalogue/courses/${encodeURIComponent(code)}/register-check`, {
        method: 'PUT',
        body: parsed.output,
      });
      toast.success(`Register check of ${code} recorded.`);
      setStatus('');
    } catch (cause) {
      toast.error(cause instanceof ApiError ? cause.message : 'The check could not be recorded.');
    } finally {
      setBusy(false);
      await Promise.all([
        client.invalidateQueries({ queryKey: ['admin-catalogue'] }),
        client.invalidateQueries({ queryKey: ['admin-catalogue-course', code] }),
      ]);
    }
  }

  return (
    <section className="admin-card register-check" aria-labelledby={`register-${code}`} data-testid="register-check">
      <h3 id={`register-${code}`}>National Register</h3>
      {watch && (
        <p className="register-check__watch" data-testid="watch-note">
          <strong>Watch:</strong> {watch}
        </p>
      )}
      {accreditedUntil && <p>Accreditation ends {day(accreditedUntil)}; the course leaves the site after that day.</p>}
      {check ? (
        <p data-testid="register-last-check">
          Last checked {day(check.checkedAt)}
          {check.by ? ` by ${check.by}` : ''}: {STATUS_TEXT[check.status]}, “{check.title}”
          {check.workHours ? `, ${check.workHours} hours of work` : ''}.
        </p>
      ) : (
        <p data-testid="register-last-check">
          Not yet checked on the National Register: its page says so until someone records a check.
        </p>
      )}
      {workRequirement && !check?.workHours && (
        <p className="admin-hint">
          Work in the role, from the qualifications review (not yet confirmed): {workRequirement.note}
        </p>
      )}
      <form onSubmit={record} noValidate>
        <p className="admin-hint">
          Open{' '}
          <a href={register} target="_blank" rel="noopener noreferrer external">
            {code} on training.gov.au
          </a>
          , then record what it shows.
        </p>
        <SelectField
          label="Status on the register"
          empty="Choose the status shown"
          choices={REGISTER_STATUSES.map((s) => [s, STATUS_TEXT[s]] as const)}
          value={status}
          error={errors.status}
          onChange={setStatus}
        />
        <TextField label="Title on the register" value={seenTitle} error={errors.title} onChange={setSeenTitle} />
        {workRequirement && (
          <TextField
            label="Work hours in the assessment requirements"
            hint="As the register states them; leave empty if it states none."
            type="number"
            value={hours}
            error={errors.workHours}
            onChange={setHours}
          />
        )}
        <button type="submit" className="admin-btn admin-btn--primary" disabled={busy}>
          I checked this on training.gov.au today
        </button>
      </form>
    </section>
  );
}
