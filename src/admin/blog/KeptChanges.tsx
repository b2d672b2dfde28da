import type { Autosave } from './autosave';

/** Changes an earlier session of this editor kept in this browser without saving: restore or discard them. */
export default function KeptChanges({
  kept,
  onRestore,
  onDiscard,
}: {
  kept: Autosave;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <div className="admin-banner blog-form__kept" role="status">
      <p>
        Unsaved changes{kept.title ? ` to “${kept.title}”` : ''} from{' '}
        {new Date(kept.savedAt).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' })} were kept in this
        browser.
      </p>
      <div className="blog-form__conflict">
        <button type="button" className="admin-btn admin-btn--primary" onClick={onRestore}>
          Restore unsaved changes
        </button>
        <button type="button" className="admin-btn admin-btn--ghost" onClick={onDiscard}>
          Discard them
        </button>
      </div>
    </div>
  );
}
