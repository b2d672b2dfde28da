import { useEffect, useState, type SubmitEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Search } from 'lucide-react';
import type { InquiryRecord } from '../schemas/inquiry-record';
import { mailLabel } from './inbox/mail-label';
import { referenceOf } from '../schemas/inquiry-record';
import { SEARCH_MAX_LENGTH, type InboxFilter as Filter, type InboxPage } from '../schemas/inbox';
import { api, failureText } from './api';
import { ExportPanel } from './inbox/ExportPanel';
import { InquiryDetail } from './inbox/InquiryDetail';
import { marketingState } from './inbox/MarketingConsent';
import { Loading } from './Loading';
import { Pager } from './Pager';

const PAGE = 25;
/** By status, and by follow-up date (today in Sydney, or an earlier day). */
const FILTER_GROUPS = [
  { label: 'Show', filters: ['new', 'handled', 'all'] },
  { label: 'Follow-ups', filters: ['due', 'overdue'] },
] as const satisfies readonly { label: string; filters: readonly Filter[] }[];
const FILTERS: readonly Filter[] = FILTER_GROUPS.flatMap((group) => group.filters);
const FILTER_LABELS: Record<Filter, string> = {
  new: 'New',
  handled: 'Handled',
  all: 'All',
  due: 'Due today',
  overdue: 'Overdue',
};

const formName = (item: InquiryRecord) =>
  item.kind === 'quote' ? 'Free quote' : item.source === 'home' ? 'Home consultation' : 'Contact form';
const received = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

/** "Mon 30 Nov" for a call-back's Sydney date. */
const callbackDay = (day: string) =>
  new Intl.DateTimeFormat('en-AU', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** "Mon 30 Nov" for a follow-up's Sydney day. */
const followUpDay = callbackDay;

/** Beyond the spec: every lead in one place, so none is missed even if an e-mail never arrives. */
export default function InquiriesPage() {
  const queryClient = useQueryClient();
  // A link with ?q= (the dashboard's call-backs) opens the inbox on that search, whatever the status.
  const [linked] = useState(() => new URLSearchParams(location.search).get('q')?.slice(0, SEARCH_MAX_LENGTH) ?? '');
  // A link with ?filter=due|overdue (the dashboard's follow-ups) opens the inbox on that filter.
  const [filter, setFilter] = useState<Filter>(() => {
    const asked = new URLSearchParams(location.search).get('filter');
    return FILTERS.find((value) => value === asked) ?? (linked ? 'all' : 'new');
  });
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState(linked);
  const [typed, setTyped] = useState(linked);
  const [open, setOpen] = useState<string | null>(null);
  const { data, isPending, isError, isFetching, isPlaceholderData } = useQuery({
    queryKey: ['inquiries', filter, page, search],
    // One page at a time: the server reads only that page's inquiries (a search reads its index, not the records).
    queryFn: () =>
      api<InboxPage>(
        `/admin/inquiries?status=${filter}&offset=${page * PAGE}&limit=${PAGE}${search ? `&q=${encodeURIComponent(search)}` : ''}`,
      ),
    placeholderData: keepPreviousData,
  });
  function runSearch(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setSearch(typed.trim());
    setPage(0);
  }
  function clearSearch() {
    setTyped('');
    setSearch('');
    setPage(0);
  }
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE)) : 1;
  // Handling the last inquiry of the last page leaves that page empty: step back to the one before.
  useEffect(() => {
    if (data && !isFetching && page > 0 && page >= pages) setPage(pages - 1);
  }, [data, isFetching, page, pages]);

  const change = useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'new' | 'handled' }) =>
      api<InquiryRecord>(`/admin/inquiries/${encodeURIComponent(id)}`, { method: 'PATCH', body: { status } }),
    onSuccess: (record) => {
      toast.success(record.status === 'handled' ? 'Marked as handled' : 'Marked as new');
      void queryClient.invalidateQueries({ queryKey: ['inquiries'] });
    },
    onError: (cause) => toast.error(`Could not update the inquiry: ${failureText(cause, 'please try again')}`),
  });

  const counts = data?.counts;
  return (
    <>
      <p className="admin-lead">Contact messages, home consultation requests and free-quote requests, newest first.</p>
      <form role="search" className="inbox-search" onSubmit={runSearch}>
        <label htmlFor="inbox-search">Search inquiries</label>
        <div className="inbox-search__row">
          <input
            id="inbox-search"
            type="search"
            value={typed}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder="Name, e-mail, reference, phone or qualification"
            aria-describedby="inbox-search-hint"
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit" className="admin-btn admin-btn--primary">
            <Search size={18} aria-hidden="true" /> Search
          </button>
          {search && (
            <button type="button" className="admin-btn admin-btn--ghost" onClick={clearSearch}>
              Clear search
            </button>
          )}
        </div>
        <p id="inbox-search-hint" className="inbox-search__hint">
          Finds names, e-mail addresses, references (RPL-…), phone numbers in any spacing and qualification codes or
          titles; every word must match.
        </p>
      </form>
      <div className="inbox-toolbar">
        <div className="inbox-filters">
          {FILTER_GROUPS.map(({ label, filters }) => (
            <div key={label} role="group" aria-label={label} className="segmented">
              {filters.map((value) => (
                <button
                  key={value}
                  type="button"
                  aria-pressed={filter === value}
                  onClick={() => {
                    setFilter(value);
                    setPage(0);
                  }}
                >
                  {FILTER_LABELS[value]}
                  {counts && (
                    <span className="segmented__count">
                      {counts[value].toLocaleString('en-AU')}
                      {data?.capped.includes(value) ? '+' : ''}
                    </span>
                  )}
                </button>
              ))}
            </div>
          ))}
        </div>
      </div>
      <ExportPanel />

      {isPending ? (
        <Loading text="Loading inquiries..." />
      ) : isError ? (
        <p className="admin-banner is-error" role="alert">
          The inquiries could not be loaded. Please reload the page.
        </p>
      ) : data.items.length === 0 && data.unreadable.length === 0 ? (
        <p className="admin-empty" role="status">
          {search
            ? `No inquiries match "${search}"${filter === 'all' ? '' : ` among the ${filter} ones`}.`
            : filter === 'new'
              ? 'No new inquiries. Everything has been handled.'
              : filter === 'due'
                ? 'No follow-ups are due today.'
                : filter === 'overdue'
                  ? 'No follow-up is overdue.'
                  : 'No inquiries yet.'}
        </p>
      ) : (
        <>
          {search && (
            <p className="inbox-search__result" role="status">
              {/* The previous list stays on screen while the search runs; its count is not this search's. */}
              {isPlaceholderData
                ? 'Searching...'
                : data.capped.includes(filter)
                  ? `At least ${data.total.toLocaleString('en-AU')} inquiries match "${search}": add a word, a name or a reference to narrow it down.`
                  : `${data.total.toLocaleString('en-AU')} ${data.total === 1 ? 'inquiry matches' : 'inquiries match'} "${search}"`}
            </p>
          )}
          {data.unreadable.length > 0 && (
            <p className="admin-banner is-error" role="alert">
              {data.unreadable.length === 1
                ? 'One inquiry on this page'
                : `${data.unreadable.length} inquiries on this page`}{' '}
              could not be read and
              {data.unreadable.length === 1 ? ' is' : ' are'} not shown (reference {data.unreadable.join(', ')}).
            </p>
          )}
          <ul role="list" className="inbox-list" aria-busy={isFetching}>
            {data.items.map((item) => {
              const staffMail = mailLabel(item.mail.staff);
              const ackMail = mailLabel(item.mail.ack);
              const name = `${item.contact.firstName} ${item.contact.lastName}`;
              const assignee = item.assignment?.to;
              return (
                <li key={item.id} className={`inbox-item is-${item.status}`}>
                  <div className="inbox-item__head">
                    <h2 className="inbox-item__name">{name}</h2>
                    <span className={`admin-chip ${item.status === 'new' ? 'is-new' : ''}`}>
                      {item.status === 'new' ? 'New' : 'Handled'}
                    </span>
                    {assignee && <span className="admin-chip inbox-item__assignee">Assigned to {assignee.name}</span>}
                    {item.followUp?.date && (
                      <span className="admin-chip" data-testid="inbox-follow-up">
                        Follow up {followUpDay(item.followUp.date)}
                      </span>
                    )}
                    <span className="inbox-item__form">{formName(item)}</span>
                    <span className="inbox-item__ref" data-testid="inbox-reference">
                      {referenceOf(item)}
                    </span>
                    <time dateTime={item.createdAt} className="inbox-item__time">
                      {received(item.createdAt)}
                    </time>
                  </div>
                  <p className="inbox-item__contact">
                    <a href={`mailto:${item.contact.email}`}>{item.contact.email}</a>
                    <span aria-hidden="true"> · </span>
                    <a href={`tel:${item.contact.phone.replace(/[^\d+]/g, '')}`}>{item.contact.phone}</a>
                    {item.quote && (
                      <span>
                        {' '}
                        · {item.quote.state} · prefers {item.quote.preferredContact || 'any time'}
                      </span>
                    )}
                  </p>
                  {item.callback && (
                    <p className="inbox-item__callback" data-testid="inbox-callback">
                      Call-back requested: {callbackDay(item.callback.day)}, {item.callback.window}
                    </p>
                  )}
                  {item.message && <p className="inbox-item__message">{item.message}</p>}
                  <p className="inbox-item__contact inbox-item__consents">
                    {item.consents
                      ? `Share with partner RTO: ${item.consents.partnerRto ? 'Yes' : 'No'} · ${marketingState(item)}`
                      : 'Consents: not asked (received before the forms asked)'}
                  </p>
                  <div className="inbox-item__foot">
                    <span className={`mail-state is-${staffMail.tone}`} title={item.mail.staff.lastError}>
                      Staff e-mail: {staffMail.text}
                    </span>
                    <span className={`mail-state is-${ackMail.tone}`} title={item.mail.ack.lastError}>
                      Reply to visitor: {ackMail.text}
                    </span>
                    <button
                      type="button"
                      className="admin-btn admin-btn--ghost inbox-item__action"
                      disabled={change.isPending && change.variables?.id === item.id}
                      onClick={() => change.mutate({ id: item.id, status: item.status === 'new' ? 'handled' : 'new' })}
                    >
                      {item.status === 'new' ? 'Mark handled' : 'Mark as new'}
                      <span className="visually-hidden"> ({name})</span>
                    </button>
                  </div>
                  <button
                    type="button"
                    className="admin-btn admin-btn--ghost inbox-item__toggle"
                    aria-expanded={open === item.id}
                    aria-controls={`detail-${item.id}`}
                    onClick={() => setOpen((current) => (current === item.id ? null : item.id))}
                  >
                    {open === item.id ? 'Hide details' : 'Details, notes and assignment'}
                    {item.notes?.length ? ` (${item.notes.length} ${item.notes.length === 1 ? 'note' : 'notes'})` : ''}
                    <span className="visually-hidden"> for {name}</span>
                  </button>
                  {open === item.id && <InquiryDetail id={`detail-${item.id}`} item={item} staff={data.staff} />}
                </li>
              );
            })}
          </ul>
        </>
      )}
      <Pager label="Inquiry pages" page={page} size={PAGE} answer={data} busy={isFetching} onPage={setPage} />
    </>
  );
}
