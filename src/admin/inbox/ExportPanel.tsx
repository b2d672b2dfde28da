import { useState, type SubmitEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Download } from 'lucide-react';
import { EXPORT_DEFAULT_DAYS, shiftDay } from '../../schemas/inbox';
import type { ExportStatus } from '../../server/inquiry-export';
import { api, API_TIMEOUT_MS, failureText } from '../api';
import { readSession } from '../session';

const today = () => new Date().toISOString().slice(0, 10);
const count = (n: number) => n.toLocaleString('en-AU');
const until = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' });

/** A refusal the server explained (4xx with a message): its words are shown. */
class ServerRefusal extends Error {}

/** Fetches a file with the staff token (a bearer token cannot ride on a plain link) and hands it to the browser. */
async function download(path: string, fallbackName: string) {
  const response = await fetch(`/api${path}`, {
    headers: { Authorization: `Bearer ${readSession()?.token ?? ''}` },
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    if (body?.message && response.status < 500) throw new ServerRefusal(body.message);
    throw new Error(`HTTP ${response.status}`);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The export of every inquiry: started here, written in the background, followed until its file is ready. */
function ExportEverything() {
  const [id, setId] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => api<ExportStatus>('/admin/inquiry-exports', { method: 'POST' }),
    onSuccess: (job) => setId(job.id),
    onError: (cause) => toast.error(`Could not start the export: ${failureText(cause, 'please try again')}`),
  });
  const { data: job } = useQuery({
    queryKey: ['inquiry-export', id],
    queryFn: () => api<ExportStatus>(`/admin/inquiry-exports/${id}`),
    enabled: id !== null,
    refetchInterval: (query) => (['queued', 'running'].includes(query.state.data?.state ?? 'queued') ? 2000 : false),
  });
  const [fetching, setFetching] = useState<number | null>(null);
  async function fetchFile(part: number) {
    if (!job) return;
    setFetching(part);
    try {
      await download(`/admin/inquiry-exports/${job.id}/file?part=${part}`, `inquiries-all-part-${part}.csv`);
    } catch (cause) {
      toast.error(
        `Could not download the export: ${cause instanceof ServerRefusal ? cause.message : 'please try again'}`,
      );
    } finally {
      setFetching(null);
    }
  }
  const files = job?.files ?? 1;
  const running = start.isPending || job?.state === 'queued' || job?.state === 'running';
  return (
    <div className="inbox-export__all">
      <button type="button" className="admin-btn admin-btn--ghost" onClick={() => start.mutate()} disabled={running}>
        Export every inquiry
      </button>
      {job && (
        <p role="status" className="inbox-export__progress" data-testid="export-progress" data-state={job.state}>
          {job.state === 'queued' && 'Export queued...'}
          {job.state === 'running' && `Exporting: ${count(job.done)} of ${count(job.total)} inquiries written...`}
          {job.state === 'failed' && (job.message ?? 'The export stopped before it was complete. Start it again.')}
          {job.state === 'done' &&
            `Ready: ${count(job.done)} inquiries. The file is kept until ${until(job.expiresAt ?? '')}.`}
        </p>
      )}
      {job?.state === 'done' && files === 1 && (
        <button
          type="button"
          className="admin-btn admin-btn--primary"
          onClick={() => fetchFile(1)}
          disabled={fetching !== null}
        >
          <Download size={18} aria-hidden="true" /> {fetching ? 'Downloading...' : 'Download the file'}
        </button>
      )}
      {job?.state === 'done' && files > 1 && (
        <>
          <p className="inbox-export__hint">
            So many inquiries come in {files} files (a download is at most 15 MB); each has the column headings.
          </p>
          <ul className="inbox-export__files">
            {Array.from({ length: files }, (_, index) => index + 1).map((part) => (
              <li key={part}>
                <button
                  type="button"
                  className="admin-btn admin-btn--ghost"
                  onClick={() => fetchFile(part)}
                  disabled={fetching !== null}
                >
                  <Download size={18} aria-hidden="true" />{' '}
                  {fetching === part ? 'Downloading...' : `Part ${part} of ${files}`}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The inbox's CSV exports: the inquiries of a date range at once (the last 90 days to start with), or every one. */
export function ExportPanel() {
  const [to, setTo] = useState(today);
  const [from, setFrom] = useState(() => shiftDay(today(), 1 - EXPORT_DEFAULT_DAYS));
  const [exporting, setExporting] = useState(false);

  async function exportRange(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (from > to) {
      toast.error('The start date must be on or before the end date');
      return;
    }
    setExporting(true);
    try {
      const query = new URLSearchParams({ from, to });
      await download(`/admin/inquiries/export.csv?${query}`, `inquiries-${from}-to-${to}.csv`);
    } catch (cause) {
      console.error('CSV export failed', cause);
      // The server's reason when it gave one (too many inquiries on those days, a bad date), else the general text.
      toast.error(cause instanceof ServerRefusal ? cause.message : 'Could not export the inquiries. Please try again.');
    } finally {
      setExporting(false);
    }
  }

  return (
    <section className="inbox-export" aria-labelledby="inbox-export-title">
      <h2 id="inbox-export-title" className="inbox-export__title">
        Export to CSV
      </h2>
      <form className="inbox-export__range" onSubmit={exportRange}>
        <label>
          From
          <input type="date" value={from} max={to} required onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} min={from} required onChange={(event) => setTo(event.target.value)} />
        </label>
        <button type="submit" className="admin-btn admin-btn--ghost" disabled={exporting}>
          <Download size={18} aria-hidden="true" /> {exporting ? 'Exporting...' : 'Export CSV'}
        </button>
      </form>
      <p className="inbox-export__hint">
        Dates are the days the inquiries arrived (UTC). For every inquiry ever received, the file is written in the
        background and offered here when it is ready.
      </p>
      <ExportEverything />
    </section>
  );
}
