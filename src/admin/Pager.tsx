/**
 * Previous and Next under a paged admin list, with "1–25 of 160 (page 1 of 7)" between them (or "Loading..."
 * while the next page is on its way), once the list is longer than a page. `page` counts from 0.
 */
export function Pager({
  label,
  page,
  size,
  answer,
  busy,
  onPage,
}: {
  label: string;
  page: number;
  size: number;
  /** The page's answer: its items and how many there are in all. Nothing shows while it loads or fits one page. */
  answer: { items: readonly unknown[]; total: number } | undefined;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  if (!answer || answer.total <= size) return null;
  const { total } = answer;
  const shown = answer.items.length;
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
