/**
 * Previous and Next under a paged admin list, with "1–25 of 160 (page 1 of 7)" between them (or "Loading..."
 * while the next page is on its way). `page` counts from 0.
 */
export function Pager({
  label,
  page,
  size,
  shown,
  total,
  busy,
  onPage,
}: {
  label: string;
  page: number;
  size: number;
  shown: number;
  total: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  return (
    <nav className="inbox-pager" aria-label={label}>
      <button
        type="button"
        className="admin-btn admin-btn--ghost"
        onClick={() => onPage(Math.max(0, page - 1))}
        disabled={page === 0 || busy}
      >
        Previous
      </button>
      <span className="inbox-pager__status" aria-live="polite">
        {busy
          ? 'Loading...'
          : `${page * size + 1}–${page * size + shown} of ${total.toLocaleString('en-AU')} (page ${page + 1} of ${pages})`}
      </span>
      <button
        type="button"
        className="admin-btn admin-btn--ghost"
        onClick={() => onPage(page + 1)}
        disabled={page + 1 >= pages || busy}
      >
        Next
      </button>
    </nav>
  );
}
