import { useState, type SubmitEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { UserPlus } from 'lucide-react';
import { ROLES } from '../schemas/auth';
import type { StaffListItem } from '../schemas/staff';
import { api, ApiError, failureText } from './api';
import { useAuth } from './auth';
import { Loading } from './Loading';
import ConfirmDialog from './blog/ConfirmDialog';
import './users/users.css';

const QUERY_KEY = ['admin-users'];
const LOAD_FAILED = 'The accounts could not be loaded. Please try again.';
const STATUS_LABEL: Record<StaffListItem['status'], string> = {
  active: 'Active',
  invited: 'Invited',
  deactivated: 'Deactivated',
};
const ROLE_LABEL: Record<string, string> = { admin: 'Administrator', editor: 'Editor' };

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' })
    : 'Never';

const emptyInvite = { email: '', firstName: '', lastName: '', role: 'editor' as (typeof ROLES)[number] };

/** Users (admins only): every staff account, an invitation form, role, (de)activation and deletion. */
export default function UsersPage() {
  const { user: me } = useAuth();
  const client = useQueryClient();
  const list = useQuery({
    queryKey: QUERY_KEY,
    queryFn: () => api<{ users: StaffListItem[] }>('/admin/users'),
  });
  const [invite, setInvite] = useState(emptyInvite);
  const [inviteErrors, setInviteErrors] = useState<Record<string, string>>({});
  const [inviteMessage, setInviteMessage] = useState('');
  const [deleting, setDeleting] = useState<StaffListItem | null>(null);

  const refresh = () => client.invalidateQueries({ queryKey: QUERY_KEY });

  const sendInvite = useMutation({
    mutationFn: (body: typeof emptyInvite) => api<StaffListItem>('/admin/users', { method: 'POST', body }),
    onSuccess: (created) => {
      setInvite(emptyInvite);
      setInviteErrors({});
      setInviteMessage(`Invitation sent to ${created.email}. Their username is ${created.username}.`);
      refresh();
    },
    onError: (cause) => {
      const fields = cause instanceof ApiError ? cause.errors : [];
      setInviteErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      setInviteMessage('');
      if (!fields.length) toast.error(failureText(cause, 'The invitation could not be sent. Please try again.'));
    },
  });

  const change = useMutation({
    mutationFn: ({ username, body }: { username: string; body: { role?: string; active?: boolean } }) =>
      api<StaffListItem>(`/admin/users/${encodeURIComponent(username)}`, { method: 'PATCH', body }),
    onSuccess: (updated) => {
      toast.success(
        `${updated.firstName} ${updated.lastName}: ${ROLE_LABEL[updated.role] ?? updated.role}, ${STATUS_LABEL[updated.status].toLowerCase()}.`,
      );
      refresh();
    },
    onError: (cause) => {
      toast.error(failureText(cause, 'The account could not be changed. Please try again.'));
      refresh();
    },
  });

  const remove = useMutation({
    mutationFn: (username: string) =>
      api<{ message: string }>(`/admin/users/${encodeURIComponent(username)}`, { method: 'DELETE' }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      refresh();
    },
    onError: (cause) => toast.error(failureText(cause, 'The account could not be deleted. Please try again.')),
  });

  function onInvite(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    sendInvite.mutate(invite);
  }

  const field = (name: 'email' | 'firstName' | 'lastName', label: string, type = 'text', autoComplete = 'off') => (
    <div className="admin-field">
      <label htmlFor={`invite-${name}`}>{label}</label>
      <input
        id={`invite-${name}`}
        type={type}
        autoComplete={autoComplete}
        value={invite[name]}
        onChange={(e) => setInvite({ ...invite, [name]: e.target.value })}
        aria-invalid={inviteErrors[name] ? true : undefined}
        aria-describedby={inviteErrors[name] ? `invite-${name}-error` : undefined}
        required
      />
      {inviteErrors[name] && (
        <p id={`invite-${name}-error`} className="admin-error">
          {inviteErrors[name]}
        </p>
      )}
    </div>
  );

  const busy = change.isPending || remove.isPending;

  return (
    <div className="users-grid">
      <form className="admin-card users-form" onSubmit={onInvite} noValidate aria-labelledby="invite-title">
        <h2 id="invite-title" className="users-form__title">
          Invite a person
        </h2>
        {field('email', 'E-mail', 'email')}
        {field('firstName', 'First name')}
        {field('lastName', 'Last name')}
        <div className="admin-field">
          <label htmlFor="invite-role">Role</label>
          <select
            id="invite-role"
            value={invite.role}
            onChange={(e) => setInvite({ ...invite, role: e.target.value as typeof invite.role })}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABEL[role]}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-actions">
          <button type="submit" className="admin-btn admin-btn--primary" disabled={sendInvite.isPending}>
            <UserPlus size={18} aria-hidden="true" /> {sendInvite.isPending ? 'Sending...' : 'Send invitation'}
          </button>
          <p role="status" className="users-muted users-form__status">
            {inviteMessage}
          </p>
        </div>
      </form>

      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <div role="alert" className="admin-banner is-error">
          <p>{failureText(list.error, LOAD_FAILED)}</p>
          <button type="button" className="admin-btn admin-btn--ghost" onClick={() => list.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="admin-table users-table">
            <caption>
              {list.data.users.length} {list.data.users.length === 1 ? 'account' : 'accounts'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.users.map((account) => {
                const name = `${account.firstName} ${account.lastName}`;
                const isMe = account.username === me?.username;
                return (
                  <tr key={account.username}>
                    <th scope="row">
                      {name}
                      {isMe && ' (you)'}
                      <br />
                      <span className="users-muted">
                        {account.username}
                        {account.email ? ` · ${account.email}` : ''}
                      </span>
                    </th>
                    <td data-label="Role">
                      <select
                        aria-label={`Role of ${name}`}
                        value={account.role}
                        disabled={busy}
                        onChange={(e) => change.mutate({ username: account.username, body: { role: e.target.value } })}
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {ROLE_LABEL[role]}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td data-label="Status">
                      <span className={`users-status is-${account.status}`}>{STATUS_LABEL[account.status]}</span>
                    </td>
                    <td data-label="Last sign-in">{when(account.lastSignInAt)}</td>
                    <td>
                      <div className="users-row-actions">
                        {!isMe && (
                          <button
                            type="button"
                            className="admin-btn admin-btn--ghost"
                            disabled={busy}
                            aria-label={`${account.status === 'deactivated' ? 'Reactivate' : 'Deactivate'} ${name}`}
                            onClick={() =>
                              change.mutate({
                                username: account.username,
                                body: { active: account.status === 'deactivated' },
                              })
                            }
                          >
                            {account.status === 'deactivated' ? 'Reactivate' : 'Deactivate'}
                          </button>
                        )}
                        {!isMe && (
                          <button
                            type="button"
                            className="admin-btn admin-btn--danger"
                            disabled={busy}
                            aria-label={`Delete ${name}`}
                            onClick={() => setDeleting(account)}
                          >
                            Delete
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <ConfirmDialog
        open={deleting !== null}
        message={
          deleting
            ? `Delete the account of ${deleting.firstName} ${deleting.lastName} (${deleting.username})? This cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        danger
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.username);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
