import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Download } from 'lucide-react';
import type { InquiryRecord, MailDelivery } from '../server/inquiries';
import { api, ApiError, API_TIMEOUT_MS } from './api';
import { readSession } from './session';
import { QuoteFields } from './inbox/QuoteFields';

type Filter = 'all' | 'new' | 'handled';
interface InboxPage {
  items: InquiryRecord[];
  total: number;
  counts: Record<Filter, number>;
}
const PAGE = 25;

const formName = (item: InquiryRecord) => (item.kind === 'quote' ? 'Free quote' : item.source === 'home' ? 'Home consultation' : 'Contact form');
const received = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

function mailLabel(delivery: MailDelivery): { text: string; tone: 'ok' | 'wait' | 'bad' } {
  if (delivery.state === 'sent') return { text: delivery.via === 'outbox' ? 'Sent (local outbox)' : 'Sent', tone: 'ok' };
  if (delivery.state === 'failed') return { text: `Failed after ${delivery.attempts} attempts`, tone: 'bad' };
  return { text: delivery.attempts > 0 ? `Retrying (${delivery.attempts} tried)` : 'Sending', tone: 'wait' };
}

/** Beyond the spec: every lead in one place, so none is missed even if an e-mail never arrives. */
export default function InquiriesPage() {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('new');
  const [page, setPage] = useState(0);
  const [exporting, setExporting] = useState(false);
  const { data, isPending, isError, isFetching } = useQuery({
    queryKey: ['inquiries', filter, page],
    // One page at a time: the server reads only that page's inquiries.
    queryFn: () => api<InboxPage>(`/admin/inquiries?status=${filter}&offset=${page * PAGE}&limit=${PAGE}`),
    placeholderData: keepPreviousData,
  });
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
    onError: (cause) => toast.error(`Could not update the inquiry: ${cause instanceof ApiError ? cause.message : 'please try again'}`),
  });

  async function exportCsv() {
    setExporting(true);
    try {
      // A bearer token cannot ride on a plain link, so fetch the file and hand it to the browser.
      const response = await fetch('/api/admin/inquiries/export.csv', {
        headers: { Authorization: `Bearer ${readSession()?.token ?? ''}` },
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'inquiries.csv';
      const url = URL.createObjectURL(await response.blob());
      const link = Object.assign(document.createElement('a'), { href: url, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (cause) {
      console.error('CSV export failed', cause);
      toast.error('Could not export the inquiries. Please try again.');
    } finally {
      setExporting(false);
    }
  }

  const counts = data?.counts;
  return (
    <>
      <p className="admin-lead">Contact messages, home consultation requests and free-quote requests, newest first.</p>
      <div className="inbox-toolbar">
        <div role="group" aria-label="Show" className="segmented">
          {(['new', 'handled', 'all'] as const).map((value) => (
            <button key={value} type="button" aria-pressed={filter === value} onClick={() => { setFilter(value); setPage(0); }}>
              {value === 'all' ? 'All' : value === 'new' ? 'New' : 'Handled'}
              {counts && <span className="segmented__count">{counts[value]}</span>}
            </button>
          ))}
        </div>
        <button type="button" className="admin-btn admin-btn--ghost" onClick={exportCsv} disabled={exporting}>
          <Download size={18} aria-hidden="true" /> {exporting ? 'Exporting...' : 'Export CSV'}
        </button>
      </div>

      {isPending ? (
        <p className="admin-loading" role="status">Loading inquiries...</p>
      ) : isError ? (
        <p className="admin-banner is-error" role="alert">The inquiries could not be loaded. Please reload the page.</p>
      ) : data.items.length === 0 ? (
        <p className="admin-empty">{filter === 'new' ? 'No new inquiries. Everything has been handled.' : 'No inquiries yet.'}</p>
      ) : (
        <ul role="list" className="inbox-list" aria-busy={isFetching}>
          {data.items.map((item) => {
            const staffMail = mailLabel(item.mail.staff);
            const ackMail = mailLabel(item.mail.ack);
            const name = `${item.contact.firstName} ${item.contact.lastName}`;
            return (
              <li key={item.id} className={`inbox-item is-${item.status}`}>
                <div className="inbox-item__head">
                  <h2 className="inbox-item__name">{name}</h2>
                  <span className={`admin-chip ${item.status === 'new' ? 'is-new' : ''}`}>{item.status === 'new' ? 'New' : 'Handled'}</span>
                  <span className="inbox-item__form">{formName(item)}</span>
                  <time dateTime={item.createdAt} className="inbox-item__time">{received(item.createdAt)}</time>
                </div>
                <p className="inbox-item__contact">
                  <a href={`mailto:${item.contact.email}`}>{item.contact.email}</a>
                  <span aria-hidden="true"> · </span>
                  <a href={`tel:${item.contact.phone.replace(/[^\d+]/g, '')}`}>{item.contact.phone}</a>
                  {item.quote && <span> · {item.quote.state} · prefers {item.quote.preferredContact || 'any time'}</span>}
                </p>
                {item.message && <p className="inbox-item__message">{item.message}</p>}
                {item.quote && <QuoteFields quote={item.quote} />}
                <p className="inbox-item__contact inbox-item__consents">
                  {item.consents
                    ? `Share with partner RTO: ${item.consents.partnerRto ? 'Yes' : 'No'} · Marketing e-mails: ${item.consents.marketing ? 'Yes' : 'No'}`
                    : 'Consents: not asked (received before the forms asked)'}
                </p>
                <div className="inbox-item__foot">
                  <span className={`mail-state is-${staffMail.tone}`} title={item.mail.staff.lastError}>Staff e-mail: {staffMail.text}</span>
                  <span className={`mail-state is-${ackMail.tone}`} title={item.mail.ack.lastError}>Reply to visitor: {ackMail.text}</span>
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
              </li>
            );
          })}
        </ul>
      )}
      {data && data.total > PAGE && (
        <nav className="inbox-pager" aria-label="Inquiry pages">
          <button type="button" className="admin-btn admin-btn--ghost" onClick={() => setPage((n) => Math.max(0, n - 1))} disabled={page === 0 || isFetching}>
            Previous
          </button>
          <span className="inbox-pager__status" aria-live="polite">
            {isFetching ? 'Loading...' : `${page * PAGE + 1}–${page * PAGE + data.items.length} of ${data.total.toLocaleString('en-AU')} (page ${page + 1} of ${pages})`}
          </span>
          <button type="button" className="admin-btn admin-btn--ghost" onClick={() => setPage((n) => n + 1)} disabled={page + 1 >= pages || isFetching}>
            Next
          </button>
        </nav>
      )}
    </>
  );
}
