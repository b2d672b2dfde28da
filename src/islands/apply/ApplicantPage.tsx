import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useDropzone } from 'react-dropzone';
import * as v from 'valibot';
import type { ApplicantView, EvidenceFile } from '../../schemas/applicant';
import { ApplicantViewSchema, STAGE_LABELS, STAGES } from '../../schemas/applicant';
import { uploadFile, UploadRefused } from './upload';
import './ApplicantPage.css';

/**
 * The private applicant page (/apply): opened from the link in the e-mail (#token=...), whose token moves
 * into sessionStorage at once and leaves the address bar; it then goes to the API as a bearer token only.
 * Shows the reference, the qualifications, the stage with its dates and the checklist with the files sent
 * for each item; files are sent per item or in general, each with its own progress and retry.
 */

const STORAGE_KEY = 'rpl-applicant-token';
const ACCEPT = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/heic': ['.heic'],
  'image/heif': ['.heif'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.oasis.opendocument.text': ['.odt'],
};

function takeToken(): string | null {
  const fromUrl =
    new URLSearchParams(window.location.hash.slice(1)).get('token') ??
    new URLSearchParams(window.location.search).get('token');
  if (fromUrl) {
    sessionStorage.setItem(STORAGE_KEY, fromUrl);
    window.history.replaceState(null, '', window.location.pathname);
    return fromUrl;
  }
  return sessionStorage.getItem(STORAGE_KEY);
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-AU', {
    timeZone: 'Australia/Sydney',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * Files go in a queue and at most this many are sent at once: a phone on a building site's mobile data sends two
 * files well, ten at once badly (each slower, more of them timing out). The others wait their turn, shown as
 * waiting; a failed file is tried again alone, at the back of the queue.
 */
const AT_ONCE = 2;

interface Sending {
  key: string;
  file: File;
  item: string;
  progress: number;
  state: 'waiting' | 'sending' | 'failed' | 'refused';
  message?: string;
}

type Load = { state: 'loading' } | { state: 'none'; message?: string } | { state: 'ready'; view: ApplicantView };

export default function ApplicantPage() {
  const [token, setToken] = useState<string | null>(null);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [sending, setSending] = useState<Sending[]>([]);

  const refresh = useCallback(async (current: string) => {
    try {
      const response = await fetch('/api/applicant', {
        headers: { Authorization: `Bearer ${current}`, Accept: 'application/json' },
      });
      const body = await response.json().catch(() => ({}));
      const view = response.ok ? v.safeParse(ApplicantViewSchema, body) : null;
      if (view?.success) setLoad({ state: 'ready', view: view.output });
      else {
        if (response.status === 401) sessionStorage.removeItem(STORAGE_KEY);
        setLoad({ state: 'none', message: body.message ?? 'Your page could not be opened. Please try again.' });
      }
    } catch {
      setLoad({ state: 'none', message: 'Your page could not be opened. Check your connection and try again.' });
    }
  }, []);

  useEffect(() => {
    const found = takeToken();
    setToken(found);
    if (found) void refresh(found);
    else setLoad({ state: 'none' });
  }, [refresh]);

  const send = useCallback(
    async (entry: Sending) => {
      if (!token) return;
      const update = (change: Partial<Sending>) =>
        setSending((list) => list.map((s) => (s.key === entry.key ? { ...s, ...change } : s)));
      update({ state: 'sending', progress: 0, message: undefined });
      try {
        await uploadFile(entry.file, entry.item, token, (progress) => update({ progress }));
        setSending((list) => list.filter((s) => s.key !== entry.key));
        await refresh(token);
      } catch (cause) {
        update({
          state: cause instanceof UploadRefused ? 'refused' : 'failed',
          message: cause instanceof Error ? cause.message : 'The file could not be sent.',
        });
      }
    },
    [token, refresh],
  );

  // The queue: whenever fewer than AT_ONCE files are on their way, the next waiting ones start.
  // A file is started once per turn in the queue, even if this runs again before its state says so.
  const started = useRef(new Set<string>());
  useEffect(() => {
    const onTheirWay = sending.filter(
      (entry) => entry.state === 'sending' || (entry.state === 'waiting' && started.current.has(entry.key)),
    );
    const free = AT_ONCE - onTheirWay.length;
    const next = sending.filter((entry) => entry.state === 'waiting' && !started.current.has(entry.key));
    for (const entry of next.slice(0, Math.max(0, free))) {
      started.current.add(entry.key);
      void send(entry);
    }
  }, [sending, send]);

  const add = useCallback((files: File[], item: string, limit: number) => {
    const entries = files.map(
      (file): Sending => ({
        key: `${Date.now()}-${Math.random().toString(36).slice(2)}`,
        file,
        item,
        progress: 0,
        ...(file.size > limit
          ? {
              state: 'refused',
              message: `This file is too large: each file may be at most ${limit / 1024 / 1024} MB.`,
            }
          : { state: 'waiting' }),
      }),
    );
    setSending((list) => [...list, ...entries]);
  }, []);

  /** A failed file goes to the back of the queue and is sent again alone. */
  const retry = useCallback((entry: Sending) => {
    started.current.delete(entry.key);
    setSending((list) => [
      ...list.filter((s) => s.key !== entry.key),
      { ...entry, state: 'waiting', progress: 0, message: undefined },
    ]);
  }, []);

  async function remove(file: EvidenceFile) {
    if (!token) return;
    const response = await fetch(`/api/applicant/evidence/${encodeURIComponent(file.id)}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    if (response.ok || response.status === 404) await refresh(token);
  }

  // Rendered into the static page too, as the new-link view without its form: the first paint already shows the
  // page's heading and note, and when no link turns up the same elements stay and the form appears below them.
  if (load.state === 'loading') return <NewLink message="Opening your page…" pending />;
  if (load.state === 'none') return <NewLink message={load.message} />;

  const { view } = load;
  const reached = new Map(view.stages.map((s) => [s.stage, s.at]));
  const current = STAGES.indexOf(view.stage);
  const groups = [
    ...view.checklist.map((item) => ({ id: item.id, text: item.text, review: item.review })),
    { id: 'general', text: 'Anything else you want to send', review: undefined },
  ];
  return (
    <div className="apply">
      <header className="apply__head">
        <p className="apply__eyebrow">Your application</p>
        <h1 className="apply__title">
          Reference <span className="apply__ref">{view.reference}</span>
        </h1>
        {view.qualifications.length > 0 && (
          <ul className="apply__quals">
            {view.qualifications.map((q) => (
              <li key={q.code}>
                <strong>{q.code}</strong> {q.title}{' '}
                <span className="apply__tag">{q.chosen ? 'you chose this' : 'suggested'}</span>
              </li>
            ))}
          </ul>
        )}
      </header>

      <section aria-labelledby="apply-stage" className="apply__card">
        <h2 id="apply-stage">Where your application is</h2>
        <ol className="apply__stages">
          {STAGES.map((stage, index) => {
            const at = reached.get(stage);
            return (
              <li
                key={stage}
                className={`apply__stage${index < current ? ' is-done' : ''}${index === current ? ' is-current' : ''}`}
                aria-current={index === current ? 'step' : undefined}
              >
                <span className="apply__stage-name">{STAGE_LABELS[stage]}</span>
                <span className="apply__stage-date">
                  {at && index <= current ? day(at) : index === current ? '' : 'Not yet'}
                </span>
              </li>
            );
          })}
        </ol>
      </section>

      <section aria-labelledby="apply-checklist" className="apply__card">
        <h2 id="apply-checklist">Your evidence checklist</h2>
        <p className="apply__note">
          Send PDF, JPEG, PNG, HEIC, Word (DOCX) or OpenDocument (ODT) files, up to{' '}
          {view.limits.fileBytes / 1024 / 1024} MB each and {view.limits.applicantBytes / 1024 / 1024} MB in all (
          {size(view.usedBytes)} used). Only our team can see them.
        </p>
        <ul className="apply__items">
          {groups.map((group) => (
            <ChecklistGroup
              key={group.id}
              group={group}
              files={view.files.filter((f) => f.item === group.id)}
              sending={sending.filter((s) => s.item === group.id)}
              onFiles={(files) => add(files, group.id, view.limits.fileBytes)}
              onRetry={retry}
              onDismiss={(entry) => setSending((list) => list.filter((s) => s.key !== entry.key))}
              onRemove={(file) => void remove(file)}
            />
          ))}
        </ul>
      </section>
    </div>
  );
}

function ChecklistGroup({
  group,
  files,
  sending,
  onFiles,
  onRetry,
  onDismiss,
  onRemove,
}: {
  group: { id: string; text: string; review?: ApplicantView['checklist'][number]['review'] };
  files: EvidenceFile[];
  sending: Sending[];
  onFiles: (files: File[]) => void;
  onRetry: (entry: Sending) => void;
  onDismiss: (entry: Sending) => void;
  onRemove: (file: EvidenceFile) => void;
}) {
  const id = useId();
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: (accepted, rejected) => onFiles([...accepted, ...rejected.map((r) => r.file)]),
    accept: ACCEPT,
    multiple: true,
  });
  const review = group.review;
  return (
    <li className="apply__item" aria-labelledby={`${id}-text`} data-item={group.id}>
      <div className="apply__item-head">
        <h3 id={`${id}-text`} className="apply__item-text">
          {group.text}
        </h3>
        {review && (
          <span className={`apply__badge apply__badge--${review.status}`}>
            {review.status === 'accepted' ? 'Accepted' : 'Needs more'}
          </span>
        )}
      </div>
      {review?.status === 'needs-more' && review.note && (
        <p className="apply__request">
          <strong>What we need:</strong> {review.note}
        </p>
      )}
      {files.length > 0 && (
        <ul className="apply__files" aria-label="Files sent">
          {files.map((file) => (
            <li key={file.id}>
              <span className="apply__file-name">{file.name}</span>
              <span className="apply__file-meta">
                {size(file.size)} · sent {day(file.uploadedAt)}
              </span>
              <button type="button" className="apply__link-btn" onClick={() => onRemove(file)}>
                Remove<span className="visually-hidden"> {file.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {sending.map((entry) => (
        <div key={entry.key} className={`apply__sending apply__sending--${entry.state}`}>
          <span className="apply__file-name">{entry.file.name}</span>
          {entry.state === 'waiting' ? (
            <span className="apply__waiting">Waiting to send</span>
          ) : entry.state === 'sending' ? (
            <progress max={1} value={entry.progress} aria-label={`Sending ${entry.file.name}`} />
          ) : (
            <>
              <span role="alert" className="apply__error">
                {entry.message}
              </span>
              {entry.state === 'failed' && (
                <button type="button" className="apply__link-btn" onClick={() => onRetry(entry)}>
                  Try again
                </button>
              )}
              <button type="button" className="apply__link-btn" onClick={() => onDismiss(entry)}>
                Dismiss
              </button>
            </>
          )}
        </div>
      ))}
      <div {...getRootProps({ className: `apply__drop${isDragActive ? ' is-active' : ''}` })}>
        <input {...getInputProps({ 'aria-label': `Add files for: ${group.text}` })} />
        <span>
          <strong>Add files</strong> or drop them here
        </span>
      </div>
    </li>
  );
}

/** Asking for a new link: the same neutral answer whatever is typed. */
function NewLink({ message, pending = false }: { message?: string; pending?: boolean }) {
  const id = useId();
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setError('');
    try {
      const response = await fetch('/api/applicant/link', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email: data.get('email'), reference: data.get('reference') }),
      });
      const body = await response.json().catch(() => ({}));
      if (response.ok) setAnswer(body.message);
      else setError(body.message ?? 'Please try again in a minute.');
    } catch {
      setError('Please check your connection and try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="apply apply--narrow">
      <h1 className="apply__title">Your applicant page</h1>
      <p className="apply__note" role="status">
        {message ?? 'Open this page from the link in the e-mail we sent after your free quote request.'}
      </p>
      <section aria-labelledby={`${id}-title`} className="apply__card" hidden={pending}>
        <h2 id={`${id}-title`}>Send me a new link</h2>
        {answer ? (
          <p role="status" className="apply__done">
            {answer}
          </p>
        ) : (
          <form onSubmit={submit} className="apply__form">
            <label htmlFor={`${id}-email`}>E-mail address</label>
            <input id={`${id}-email`} name="email" type="email" autoComplete="email" required maxLength={254} />
            <label htmlFor={`${id}-reference`}>Reference (for example RPL-7KQ3M9)</label>
            <input
              id={`${id}-reference`}
              name="reference"
              type="text"
              required
              maxLength={40}
              autoCapitalize="characters"
            />
            {error && (
              <p role="alert" className="apply__error">
                {error}
              </p>
            )}
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send me a new link'}
            </button>
          </form>
        )}
      </section>
    </div>
  );
}
