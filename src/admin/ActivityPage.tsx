import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ACTIVITY_KINDS, type ActivityEntry, type ActivityKind, type ActivityPage as Page } from '../schemas/activity';
import { api, failureText } from './api';
import { Loading } from './Loading';
import { Pager } from './Pager';
import './activity/activity.css';

const PAGE = 25;
const LOAD_FAILED = 'The activity log could not be loaded. Please try again.';
const KIND_LABEL: Record<ActivityKind, string> = {
  settings: 'Settings',
  catalogue: 'Catalogue',
  post: 'Posts',
  user: 'Users',
  inquiry: 'Inquiries',
};

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

/** A field path as people read it: `contactInfo.businessHours` → "contact info › business hours". */
const fieldLabel = (field: string) =>
  field
    .split('.')
    .map((part) =>
      /^\d+$/.test(part) ? `#${Number(part) + 1}` : part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(),
    )
    .join(' › ');

/** An old (struck through) or new value; a value that was or became empty says so. */
function Value({ text, as: Tag }: { text: string | null; as: 'del' | 'ins' }) {
  if (text === null) return <span className="activity-muted">(empty)</span>;
  return <Tag className={`activity-changes__${Tag === 'del' ? 'old' : 'new'}`}>{text}</Tag>;
}

function Changes({ entry }: { entry: ActivityEntry }) {
  if (!entry.changes.length) return <span className="activity-muted">No field changes</span>;
  return (
    <ul role="list" className="activity-changes">
      {entry.changes.map((change) => (
        <li key={change.field}>
          <span className="activity-changes__field">{fieldLabel(change.field)}</span>{' '}
          {change.masked ? (
            <span className="activity-muted">(changed)</span>
          ) : (
            <>
              <Value text={change.from} as="del" />
              <span aria-hidden="true"> → </span>
              <span className="visually-hidden"> changed to </span>
              <Value text={change.to} as="ins" />
            </>
          )}
        </li>
      ))}
      {entry.more ? <li className="activity-muted">and {entry.more} more changed fields</li> : null}
    </ul>
  );
}

/** Activity log (admins only): who saved what and when, newest first, filtered by person and kind. */
export default function ActivityPage() {
  const [person, setPerson] = useState('');
  const [kind, setKind] = useState<ActivityKind | ''>('');
  const [page, setPage] = useState(0);
  const query = new URLSearchParams({ offset: String(page * PAGE), limit: String(PAGE) });
  if (person) query.set('person', person);
  if (kind) query.set('kind', kind);
  const { data, isPending, isError, error, isFetching, refetch } = useQuery({
    queryKey: ['admin-activity', person, kind, page],
    queryFn: () => api<Page>(`/admin/activity?${query}`),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(person || kind);

  return (
    <>
      <form
        className="admin-card activity-filters"
        onSubmit={(e) => e.preventDefault()}
        aria-label="Filter the activity"
      >
        <div className="admin-field">
          <label htmlFor="activity-person">Person</label>
          <select
            id="activity-person"
            value={person}
            onChange={(e) => {
              setPerson(e.target.value);
              setPage(0);
            }}
          >
            <option value="">Everyone</option>
            {data?.people.map((p) => (
              <option key={p.username} value={p.username}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-field">
          <label htmlFor="activity-kind">Kind</label>
          <select
            id="activity-kind"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as ActivityKind | '');
              setPage(0);
            }}
          >
            <option value="">Everything</option>
            {ACTIVITY_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </div>
      </form>

      {isPending ? (
        <Loading />
      ) : isError && !data ? (
        <div role="alert" className="admin-banner is-error">
          <p>{failureText(error, LOAD_FAILED)}</p>
          <button type="button" className="admin-btn admin-btn--ghost" onClick={() => refetch()}>
            Try again
          </button>
        </div>
      ) : !data.items.length ? (
        <p className="admin-card activity-empty" role="status">
          {filtered ? 'Nothing matches these filters.' : 'Nothing has been saved yet. Saves in the admin show up here.'}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="admin-table activity-table" aria-busy={isFetching}>
            <caption>
              {data.total.toLocaleString('en-AU')} {data.total === 1 ? 'entry' : 'entries'}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Kind</th>
                <th scope="col">What</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((entry) => (
                <tr key={entry.id} data-testid="activity-entry">
                  <th scope="row">
                    <time dateTime={entry.at}>{when(entry.at)}</time>
                  </th>
                  <td data-label="Who">{entry.actor.name}</td>
                  <td data-label="Kind">
                    <span className="admin-chip">{KIND_LABEL[entry.kind]}</span>
                  </td>
                  <td data-label="What">
                    {entry.target.label}: {entry.action}
                  </td>
                  <td data-label="Changes">
                    <Changes entry={entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Activity pages" page={page} size={PAGE} answer={data} busy={isFetching} onPage={setPage} />
    </>
  );
}
