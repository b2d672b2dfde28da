import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { EvidenceFile, StaffApplicantView, Stage } from '../../schemas/applicant';
import { STAGE_LABELS, STAGES } from '../../schemas/applicant';
import { api, ApiError, API_TIMEOUT_MS } from '../api';
import { readSession } from '../session';
import './EvidencePanel.css';

/**
 * The applicant's evidence in the inbox detail (staff with the inbox permission): the stage, each checklist
 * item with the files sent for it and its review, downloads, revoking the links and erasing the person's data.
 */

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
const failure = (cause: unknown) => (cause instanceof ApiError ? cause.message : 'Please try again.');

async function download(inquiryId: string, file: EvidenceFile) {
  const token = readSession()?.token;
  try {
    const response = await fetch(`/api/admin/applicants/${encodeURIComponent(inquiryId)}/files/${file.id}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(API_TIMEOUT_MS * 6),
    });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).message ?? `Error ${response.status}`);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (cause) {
    toast.error(`Could not download ${file.name}: ${cause instanceof Error ? cause.message : 'please try again'}`);
  }
}

export function EvidencePanel({ inquiryId, reference }: { inquiryId: string; reference: string }) {
  const fieldId = useId();
  const queryClient = useQueryClient();
  const key = ['applicant', inquiryId];
  const path = `/admin/applicants/${encodeURIComponent(inquiryId)}`;
  const { data, error, isPending } = useQuery({ queryKey: key, queryFn: () => api<StaffApplicantView>(path) });
  const [stage, setStage] = useState<Stage | ''>('');
  const [erasing, setErasing] = useState(false);
  const [confirm, setConfirm] = useState('');
  const saved = (view: StaffApplicantView) => queryClient.setQueryData(key, view);

  const move = useMutation({
    mutationFn: (to: Stage) => api<StaffApplicantView>(path, { method: 'PATCH', body: { stage: to } }),
    onSuccess: (view) => {
      saved(view);
      toast.success(`Stage: ${STAGE_LABELS[view.stage]}. The applicant is told by e-mail.`);
    },
    onError: (cause) => toast.error(`Could not move the stage: ${failure(cause)}`),
  });
  const revoke = useMutation({
    mutationFn: () => api<StaffApplicantView>(`${path}/revoke`, { method: 'POST' }),
    onSuccess: (view) => {
      saved(view);
      toast.success('Every link of this applicant stopped working.');
    },
    onError: (cause) => toast.error(`Could not revoke the links: ${failure(cause)}`),
  });
  const erase = useMutation({
    mutationFn: () => api<{ message: string }>(`${path}/erase`, { method: 'POST', body: { confirm } }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      setErasing(false);
      void queryClient.invalidateQueries({ queryKey: ['inquiries'] });
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (cause) => toast.error(`Could not erase: ${failure(cause)}`),
  });

  if (isPending) return <p className="inbox-detail__meta">Loading the evidence…</p>;
  if (error || !data) return <p className="admin-error">Could not load the evidence: {failure(error)}</p>;

  const groups = [...data.checklist, { id: 'general', text: 'Other files', codes: [] as string[], review: undefined }];
  return (
    <div className="evidence-panel" data-testid="evidence-panel">
      <p className="inbox-detail__meta">
        Stage: <strong>{STAGE_LABELS[data.stage]}</strong> (since {when(data.stages.at(-1)?.at ?? data.stages[0].at)}) ·{' '}
        {data.files.length} {data.files.length === 1 ? 'file' : 'files'}, {size(data.usedBytes)} ·{' '}
        {data.linkActive ? 'link active' : 'no active link'}
        {data.filesExpiredAt ? ` · files deleted after the retention time on ${when(data.filesExpiredAt)}` : ''}
      </p>
      <form
        className="evidence-panel__row"
        onSubmit={(event) => {
          event.preventDefault();
          if (stage) move.mutate(stage);
        }}
      >
        <div className="admin-field">
          <label htmlFor={`${fieldId}-stage`}>Move to stage</label>
          <select
            id={`${fieldId}-stage`}
            value={stage || data.stage}
            onChange={(e) => setStage(e.target.value as Stage)}
          >
            {STAGES.map((s) => (
              <option key={s} value={s}>
                {STAGE_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className="admin-btn admin-btn--ghost"
          disabled={move.isPending || !stage || stage === data.stage}
        >
          {move.isPending ? 'Saving...' : 'Save stage'}
        </button>
      </form>
      <ul className="evidence-panel__items">
        {groups.map((group) => (
          <ItemReview
            key={group.id}
            inquiryId={inquiryId}
            item={group}
            files={data.files.filter((f) => f.item === group.id)}
            onSaved={saved}
          />
        ))}
      </ul>
      <div className="evidence-panel__row">
        <button
          type="button"
          className="admin-btn admin-btn--ghost"
          disabled={revoke.isPending || !data.linkActive}
          onClick={() => revoke.mutate()}
        >
          Revoke links
        </button>
        <button type="button" className="admin-btn admin-btn--danger" onClick={() => setErasing(true)}>
          Erase this person’s data
        </button>
      </div>
      {erasing && (
        <div role="dialog" aria-modal="false" aria-labelledby={`${fieldId}-erase`} className="evidence-panel__erase">
          <h4 id={`${fieldId}-erase`}>Erase on request</h4>
          <p>
            This deletes every file, the applicant page and the inquiry’s name, e-mail, phone and free text at once.
            Only an anonymous line remains. It cannot be undone.
          </p>
          <div className="admin-field">
            <label htmlFor={`${fieldId}-confirm`}>Type {reference} to confirm</label>
            <input id={`${fieldId}-confirm`} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          </div>
          <div className="evidence-panel__row">
            <button
              type="button"
              className="admin-btn admin-btn--danger"
              disabled={erase.isPending || confirm.trim().toUpperCase() !== reference.toUpperCase()}
              onClick={() => erase.mutate()}
            >
              Erase now
            </button>
            <button type="button" className="admin-btn admin-btn--ghost" onClick={() => setErasing(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function ItemReview({
  inquiryId,
  item,
  files,
  onSaved,
}: {
  inquiryId: string;
  item: StaffApplicantView['checklist'][number];
  files: EvidenceFile[];
  onSaved: (view: StaffApplicantView) => void;
}) {
  const fieldId = useId();
  // Unreviewed: what was sent is offered for acceptance; an item with nothing sent, for asking.
  const [status, setStatus] = useState<'accepted' | 'needs-more'>(
    item.review?.status ?? (files.length ? 'accepted' : 'needs-more'),
  );
  const [note, setNote] = useState(item.review?.note ?? '');
  const review = useMutation({
    mutationFn: () =>
      api<StaffApplicantView>(`/admin/applicants/${encodeURIComponent(inquiryId)}/items/${item.id}`, {
        method: 'PUT',
        body: { status, note },
      }),
    onSuccess: (view) => {
      onSaved(view);
      toast.success(status === 'needs-more' ? 'Saved; the applicant is asked for more by e-mail.' : 'Marked accepted.');
    },
    onError: (cause) => toast.error(`Could not save the review: ${failure(cause)}`),
  });
  const isGeneral = item.id === 'general';
  return (
    <li className="evidence-panel__item" data-item={item.id}>
      <p className="evidence-panel__text">
        <strong>{item.text}</strong>
        {item.review && (
          <span className={`evidence-panel__badge evidence-panel__badge--${item.review.status}`}>
            {item.review.status === 'accepted' ? 'Accepted' : 'Needs more'} ({item.review.by.name},{' '}
            {when(item.review.at)})
          </span>
        )}
      </p>
      {files.length === 0 ? (
        <p className="inbox-detail__meta">Nothing sent yet.</p>
      ) : (
        <ul className="evidence-panel__files">
          {files.map((file) => (
            <li key={file.id}>
              <button type="button" className="admin-link-btn" onClick={() => void download(inquiryId, file)}>
                {file.name}
              </button>{' '}
              <span className="inbox-detail__meta">
                {size(file.size)} · {file.kind.toUpperCase()} · {when(file.uploadedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {!isGeneral && (
        <form
          className="evidence-panel__row"
          onSubmit={(event) => {
            event.preventDefault();
            review.mutate();
          }}
        >
          <div className="admin-field">
            <label htmlFor={`${fieldId}-status`}>Review</label>
            <select
              id={`${fieldId}-status`}
              value={status}
              onChange={(e) => setStatus(e.target.value as 'accepted' | 'needs-more')}
            >
              <option value="accepted">Accepted</option>
              <option value="needs-more">Needs more</option>
            </select>
          </div>
          <div className="admin-field evidence-panel__note">
            <label htmlFor={`${fieldId}-note`}>Note to the applicant</label>
            <input id={`${fieldId}-note`} value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
          </div>
          <button type="submit" className="admin-btn admin-btn--ghost" disabled={review.isPending}>
            {review.isPending ? 'Saving...' : 'Save review'}
          </button>
        </form>
      )}
    </li>
  );
}
