import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { InquiryRecord } from '../../schemas/inquiry-record';
import { api, failureText } from '../api';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });
const longDay = (date: string) =>
  new Intl.DateTimeFormat('en-AU', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));

/** The inquiry's follow-up date: set, change or clear it. */
export function FollowUpSection({ item, onSaved }: { item: InquiryRecord; onSaved: () => void }) {
  const fieldId = useId();
  const current = item.followUp?.date ?? null;
  const [day, setDay] = useState(current ?? '');
  const [problem, setProblem] = useState('');
  const save = useMutation({
    mutationFn: (followUp: string | null) =>
      api<InquiryRecord>(`/admin/inquiries/${encodeURIComponent(item.id)}`, { method: 'PATCH', body: { followUp } }),
    onSuccess: (record) => {
      toast.success(record.followUp?.date ? `Follow-up set for ${longDay(record.followUp.date)}` : 'Follow-up cleared');
      if (!record.followUp?.date) setDay('');
      onSaved();
    },
    onError: (cause) => setProblem(`Could not save the follow-up: ${failureText(cause, 'Please try again.')}`),
  });
  return (
    <>
      <p className="inbox-detail__meta" data-testid="follow-up-state">
        {current && item.followUp
          ? `Follow up on ${longDay(current)} (set by ${item.followUp.by.name}, ${when(item.followUp.at)})`
          : 'No follow-up date.'}
      </p>
      <form
        className="inbox-detail__assign"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!day) {
            setProblem('Choose a date first');
            return;
          }
          setProblem('');
          save.mutate(day);
        }}
      >
        <div className="admin-field">
          <label htmlFor={`${fieldId}-day`}>Follow up on</label>
          <input
            id={`${fieldId}-day`}
            type="date"
            value={day}
            onChange={(event) => {
              setDay(event.target.value);
              setProblem('');
            }}
          />
        </div>
        <button type="submit" className="admin-btn admin-btn--ghost" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save follow-up'}
        </button>
        {current && (
          <button
            type="button"
            className="admin-btn admin-btn--ghost"
            disabled={save.isPending}
            onClick={() => {
              setProblem('');
              save.mutate(null);
            }}
          >
            Clear follow-up
          </button>
        )}
      </form>
      {problem && (
        <p className="admin-error" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
