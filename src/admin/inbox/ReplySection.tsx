import { useId, useState, type SubmitEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { InquiryRecord } from '../../schemas/inquiry-record';
import { referenceOf } from '../../schemas/inquiry-record';
import {
  fillPlaceholders,
  REPLY_BODY_MAX,
  REPLY_SUBJECT_MAX,
  unknownPlaceholderMessage,
  unknownPlaceholders,
  type ReplyTemplates,
} from '../../schemas/replies';
import { api, failureText } from '../api';
import { mailLabel } from './mail-label';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

/** The replies sent to the person (newest last), and a form to write one, from a template or not. */
export function ReplySection({ item, onSent }: { item: InquiryRecord; onSent: () => void }) {
  const fieldId = useId();
  const [templateId, setTemplateId] = useState('');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState('');
  const templates = useQuery({
    queryKey: ['reply-templates'],
    queryFn: () => api<ReplyTemplates>('/admin/reply-templates'),
    staleTime: 60_000,
  });
  const values = { firstName: item.contact.firstName.trim(), reference: referenceOf(item) };
  const send = useMutation({
    mutationFn: () =>
      api<InquiryRecord>(`/admin/inquiries/${encodeURIComponent(item.id)}/replies`, {
        method: 'POST',
        body: { subject, body },
      }),
    onSuccess: (record) => {
      const sent = record.replies?.at(-1);
      toast.success(sent && sent.mail.state !== 'sent' ? 'Reply saved; it will be sent again shortly' : 'Reply sent');
      setTemplateId('');
      setSubject('');
      setBody('');
      onSent();
    },
    onError: (cause) => setProblem(`Could not send the reply: ${failureText(cause, 'Please try again.')}`),
  });

  function choose(id: string) {
    setTemplateId(id);
    setProblem('');
    const template = templates.data?.templates.find((t) => t.id === id);
    if (template) {
      setSubject(template.subject);
      setBody(template.body);
    }
  }

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const unknown = unknownPlaceholders(`${subject}\n${body}`);
    if (!subject.trim()) setProblem('Write a subject');
    else if (!body.trim()) setProblem('Write the reply first');
    else if (unknown.length) setProblem(unknownPlaceholderMessage(unknown));
    else {
      setProblem('');
      send.mutate();
    }
  }

  const replies = item.replies ?? [];
  const hasPlaceholders = /\{(firstName|reference)\}/.test(`${subject}${body}`);
  return (
    <>
      {replies.length === 0 ? (
        <p className="inbox-detail__meta">No replies sent yet.</p>
      ) : (
        <ol className="inbox-notes" data-testid="inbox-replies">
          {replies.map((reply) => {
            const state = mailLabel(reply.mail);
            return (
              <li key={reply.id} className="inbox-note">
                <p className="inbox-note__subject">{reply.subject}</p>
                <p className="inbox-note__text">{reply.body}</p>
                <p className="inbox-detail__meta">
                  {reply.by.name} · <time dateTime={reply.at}>{when(reply.at)}</time> ·{' '}
                  <span className={`mail-state is-${state.tone}`} title={reply.mail.lastError}>
                    {state.text}
                  </span>
                </p>
              </li>
            );
          })}
        </ol>
      )}
      {item.erasedAt ? (
        <p className="inbox-detail__meta">The personal details were erased, so no reply can be sent.</p>
      ) : (
        <form className="inbox-detail__note" onSubmit={submit} noValidate aria-label="Write a reply">
          <div className="admin-field">
            <label htmlFor={`${fieldId}-template`}>Start from a template</label>
            <select id={`${fieldId}-template`} value={templateId} onChange={(event) => choose(event.target.value)}>
              <option value="">No template</option>
              {templates.data?.templates.map((template) => (
                <option key={template.id} value={template.id}>
                  {template.name}
                </option>
              ))}
            </select>
            {templates.isError && (
              <p className="admin-hint">The templates could not be loaded; write the reply yourself.</p>
            )}
          </div>
          <div className="admin-field">
            <label htmlFor={`${fieldId}-subject`}>Subject</label>
            <input
              id={`${fieldId}-subject`}
              value={subject}
              maxLength={REPLY_SUBJECT_MAX}
              onChange={(event) => {
                setSubject(event.target.value);
                setProblem('');
              }}
            />
          </div>
          <div className="admin-field">
            <label htmlFor={`${fieldId}-body`}>Reply to {item.contact.email}</label>
            <textarea
              id={`${fieldId}-body`}
              rows={8}
              maxLength={REPLY_BODY_MAX}
              value={body}
              aria-describedby={`${fieldId}-hint`}
              onChange={(event) => {
                setBody(event.target.value);
                setProblem('');
              }}
            />
            <p id={`${fieldId}-hint`} className="admin-hint">
              {'{firstName}'} and {'{reference}'} are filled in when the reply is sent.
            </p>
          </div>
          {hasPlaceholders && (
            <div className="reply-preview" data-testid="reply-preview">
              <p className="inbox-detail__meta">What {values.firstName} will read:</p>
              <p className="inbox-note__subject">{fillPlaceholders(subject, values)}</p>
              <p className="inbox-note__text">{fillPlaceholders(body, values)}</p>
            </div>
          )}
          {problem && (
            <p className="admin-error" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="admin-btn admin-btn--primary" disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send reply'}
          </button>
        </form>
      )}
    </>
  );
}
