import { useId, useState, type ReactNode, type SubmitEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { InquiryRecord, StaffRef } from '../../schemas/inquiry-record';
import { NOTE_MAX_LENGTH, referenceOf } from '../../schemas/inquiry-record';
import { api, failureText } from '../api';
import { QuoteFields } from './QuoteFields';
import { EvidencePanel } from './EvidencePanel';
import { MarketingConsent } from './MarketingConsent';
import { ReplySection } from './ReplySection';
import { FollowUpSection } from './FollowUpSection';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

/** The detail view of one inquiry: the quote's answers, its follow-up date, who it is assigned to, the staff notes and replies. */
export function InquiryDetail({ id, item, staff }: { id: string; item: InquiryRecord; staff: StaffRef[] }) {
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [assignee, setAssignee] = useState(item.assignment?.to?.username ?? '');
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['inquiries'] });
  const failure = (cause: unknown) => failureText(cause, 'Please try again.');

  const assign = useMutation({
    mutationFn: (username: string | null) =>
      api<InquiryRecord>(`/admin/inquiries/${encodeURIComponent(item.id)}`, {
        method: 'PATCH',
        body: { assignee: username },
      }),
    onSuccess: (record) => {
      toast.success(record.assignment?.to ? `Assigned to ${record.assignment.to.name}` : 'Assignment removed');
      void refresh();
    },
    onError: (cause) => toast.error(`Could not change the assignment: ${failure(cause)}`),
  });
  const addNote = useMutation({
    mutationFn: (text: string) =>
      api<InquiryRecord>(`/admin/inquiries/${encodeURIComponent(item.id)}/notes`, { method: 'POST', body: { text } }),
    onSuccess: () => {
      setNote('');
      toast.success('Note added');
      void refresh();
    },
    onError: (cause) => setNoteError(`Could not add the note: ${failure(cause)}`),
  });

  function submitNote(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!note.trim()) {
      setNoteError('Write the note first');
      return;
    }
    setNoteError('');
    addNote.mutate(note);
  }

  const assignment = item.assignment;
  const notes = item.notes ?? [];
  return (
    <div id={id} className="inbox-detail">
      <p className="inbox-detail__meta">
        Reference <strong data-testid="inbox-detail-reference">{referenceOf(item)}</strong>
      </p>
      {item.quote && (
        <DetailSection id={`${fieldId}-quote`} title="Quote request">
          <QuoteFields quote={item.quote} />
        </DetailSection>
      )}
      {item.kind === 'quote' && !item.erasedAt && (
        <DetailSection id={`${fieldId}-evidence`} title="Applicant and evidence">
          <EvidencePanel inquiryId={item.id} reference={referenceOf(item)} />
        </DetailSection>
      )}
      {item.erasedAt && (
        <p className="inbox-detail__meta">Personal details erased on request on {when(item.erasedAt)}.</p>
      )}
      <MarketingConsent item={item} titleId={`${fieldId}-marketing`} />
      <DetailSection id={`${fieldId}-follow-up`} title="Follow-up">
        <FollowUpSection item={item} onSaved={() => void refresh()} />
      </DetailSection>
      <DetailSection id={`${fieldId}-assign`} title="Assignment">
        <p className="inbox-detail__meta">
          {assignment
            ? `${assignment.to ? `Assigned to ${assignment.to.name}` : 'Not assigned'} (changed by ${assignment.by.name}, ${when(assignment.at)})`
            : 'Not assigned yet.'}
        </p>
        <form
          className="inbox-detail__assign"
          onSubmit={(event) => {
            event.preventDefault();
            assign.mutate(assignee || null);
          }}
        >
          <div className="admin-field">
            <label htmlFor={`${fieldId}-assignee`}>Assign to</label>
            <select id={`${fieldId}-assignee`} value={assignee} onChange={(event) => setAssignee(event.target.value)}>
              <option value="">Nobody</option>
              {staff.map((member) => (
                <option key={member.username} value={member.username}>
                  {member.name} ({member.username})
                </option>
              ))}
            </select>
          </div>
          <SubmitButton pending={assign.isPending} ghost text="Save assignment" busyText="Saving..." />
        </form>
      </DetailSection>
      <DetailSection id={`${fieldId}-notes`} title="Notes">
        {notes.length === 0 ? (
          <p className="inbox-detail__meta">No notes yet.</p>
        ) : (
          <ol className="inbox-notes">
            {notes.map((entry) => (
              <li key={entry.id} className="inbox-note">
                <p className="inbox-note__text">{entry.text}</p>
                <p className="inbox-detail__meta">
                  {entry.author.name} · <time dateTime={entry.at}>{when(entry.at)}</time>
                </p>
              </li>
            ))}
          </ol>
        )}
        <form className="inbox-detail__note" onSubmit={submitNote} noValidate>
          <div className="admin-field">
            <label htmlFor={`${fieldId}-note`}>Add a note</label>
            <textarea
              id={`${fieldId}-note`}
              rows={3}
              maxLength={NOTE_MAX_LENGTH}
              value={note}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? `${fieldId}-note-error` : undefined}
              onChange={(event) => {
                setNote(event.target.value);
                setNoteError('');
              }}
            />
          </div>
          {noteError && (
            <p id={`${fieldId}-note-error`} className="admin-error" role="alert">
              {noteError}
            </p>
          )}
          <SubmitButton pending={addNote.isPending} text="Add note" busyText="Adding..." />
        </form>
      </DetailSection>
      <DetailSection id={`${fieldId}-replies`} title="Replies">
        <ReplySection item={item} onSent={() => void refresh()} />
      </DetailSection>
    </div>
  );
}

/** A part of the inquiry's detail, named by its heading. */
function DetailSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="inbox-detail__title">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A form's submit button, off and saying what it does while the request runs. */
function SubmitButton({
  pending,
  ghost,
  text,
  busyText,
}: {
  pending: boolean;
  ghost?: boolean;
  text: string;
  busyText: string;
}) {
  return (
    <button type="submit" className={`admin-btn admin-btn--${ghost ? 'ghost' : 'primary'}`} disabled={pending}>
      {pending ? busyText : text}
    </button>
  );
}
