import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  MAX_TEMPLATES,
  REPLY_BODY_MAX,
  REPLY_SUBJECT_MAX,
  TEMPLATE_NAME_MAX,
  type ReplyTemplate,
  type ReplyTemplates,
} from '../schemas/replies';
import { api, ApiError, failureText } from './api';
import { useAuth } from './auth';
import { can } from '../lib/roles';
import { Loading } from './Loading';

const newId = () => `template-${Date.now().toString(36)}`;

/** The reply templates the inbox offers: admins edit them here; the other inbox roles read them. */
export default function ReplyTemplatesPage() {
  const { user } = useAuth();
  const editable = can(user?.role, 'templates');
  const queryClient = useQueryClient();
  const { data, isPending, isError } = useQuery({
    queryKey: ['reply-templates'],
    queryFn: () => api<ReplyTemplates>('/admin/reply-templates'),
  });
  const [list, setList] = useState<ReplyTemplate[] | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    if (data && list === null) setList(data.templates);
  }, [data, list]);

  const save = useMutation({
    mutationFn: (templates: ReplyTemplate[]) =>
      api<ReplyTemplates>('/admin/reply-templates', {
        method: 'PUT',
        body: { version: data?.version ?? 0, templates },
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['reply-templates'], saved);
      setList(saved.templates);
      toast.success('Templates saved');
    },
    onError: (cause) => {
      const field = cause instanceof ApiError ? cause.errors?.[0] : undefined;
      setProblem(
        `Could not save the templates: ${failureText(cause, 'Please try again.')}${field?.field ? ` (${field.field})` : ''}`,
      );
    },
  });

  if (isPending || (data && list === null)) return <Loading text="Loading templates..." />;
  if (isError || !list)
    return (
      <p className="admin-banner is-error" role="alert">
        The templates could not be loaded. Please reload the page.
      </p>
    );

  const change = (index: number, patch: Partial<ReplyTemplate>) => {
    setProblem('');
    setList(list.map((template, n) => (n === index ? { ...template, ...patch } : template)));
  };
  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem('');
    save.mutate(list ?? []);
  }

  return (
    <>
      <p className="admin-lead">
        Replies staff start from in the inbox. {'{firstName}'} becomes the person's first name and {'{reference}'} the
        inquiry's reference when the reply is sent; no other placeholder is accepted.
        {editable ? '' : ' Only an administrator can change them.'}
      </p>
      <form className="settings-form" onSubmit={submit} noValidate aria-busy={save.isPending}>
        {list.map((template, index) => (
          <TemplateFields
            key={template.id}
            template={template}
            disabled={!editable || save.isPending}
            onChange={(patch) => change(index, patch)}
            onRemove={() => setList(list.filter((_, n) => n !== index))}
          />
        ))}
        {list.length === 0 && <p className="admin-empty">No templates. Add one below.</p>}
        {problem && (
          <p className="admin-error" role="alert">
            {problem}
          </p>
        )}
        {editable && (
          <div className="templates-actions">
            <button
              type="button"
              className="admin-btn admin-btn--ghost"
              disabled={list.length >= MAX_TEMPLATES || save.isPending}
              onClick={() => setList([...list, { id: newId(), name: '', subject: '', body: '' }])}
            >
              Add a template
            </button>
            <button type="submit" className="admin-btn admin-btn--primary" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save templates'}
            </button>
          </div>
        )}
      </form>
    </>
  );
}

function TemplateFields({
  template,
  disabled,
  onChange,
  onRemove,
}: {
  template: ReplyTemplate;
  disabled: boolean;
  onChange: (patch: Partial<ReplyTemplate>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  return (
    <fieldset className="admin-card" disabled={disabled} data-testid="reply-template">
      <legend>{template.name || 'New template'}</legend>
      <div className="admin-field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={template.name}
          maxLength={TEMPLATE_NAME_MAX}
          onChange={(event) => onChange({ name: event.target.value })}
        />
      </div>
      <div className="admin-field">
        <label htmlFor={`${id}-subject`}>Subject</label>
        <input
          id={`${id}-subject`}
          value={template.subject}
          maxLength={REPLY_SUBJECT_MAX}
          onChange={(event) => onChange({ subject: event.target.value })}
        />
      </div>
      <div className="admin-field">
        <label htmlFor={`${id}-body`}>Text</label>
        <textarea
          id={`${id}-body`}
          rows={7}
          maxLength={REPLY_BODY_MAX}
          value={template.body}
          onChange={(event) => onChange({ body: event.target.value })}
        />
      </div>
      {!disabled && (
        <button type="button" className="admin-btn admin-btn--ghost templates-remove" onClick={onRemove}>
          Remove<span className="visually-hidden"> {template.name || 'this template'}</span>
        </button>
      )}
    </fieldset>
  );
}
