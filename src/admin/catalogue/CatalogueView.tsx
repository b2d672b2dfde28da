import type { ReactNode } from 'react';
import { Loading } from '../Loading';
import { RebuildStatus } from '../RebuildStatus';
import type { CatalogueData, useCatalogue } from './data';
import '../catalogue.css';

function Banners({ data }: { data: CatalogueData }) {
  return (
    <>
      <p className="admin-note">
        Changes are saved at once and reach the public pages with the next rebuild of the site, which each save starts.
      </p>
      {data.overlayError && (
        <div className="admin-banner is-error" role="alert">
          <p>The saved catalogue changes are not being used: the site is built from the repository content.</p>
          <p className="admin-banner__note">Reason: {data.overlayError}</p>
        </div>
      )}
      <RebuildStatus path="/admin/catalogue/rebuild" initial={data.rebuild} />
    </>
  );
}

/** A load that failed, with a way to try again. */
function RetryAlert({ text, retry }: { text: string; retry: () => void }) {
  return (
    <div role="alert" className="admin-banner is-error">
      <p>{text}</p>
      <button type="button" className="admin-btn admin-btn--ghost" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

export const Failed = ({ retry }: { retry: () => void }) => (
  <RetryAlert text="The catalogue could not be loaded." retry={retry} />
);

/** A refresh failed but the last list is still shown. */
const Stale = ({ retry }: { retry: () => void }) => (
  <RetryAlert text="The list could not be refreshed; it may be out of date." retry={retry} />
);

/** What both pages show around their list or form: the lead, the loading and failure states and the banners. */
export function CatalogueView({
  query: { data, isPending, isError, refetch },
  lead,
  loading,
  children,
}: {
  query: ReturnType<typeof useCatalogue>;
  lead: string;
  loading: string;
  children: (data: CatalogueData) => ReactNode;
}) {
  return (
    <>
      <p className="admin-lead">{lead}</p>
      {isPending ? (
        <Loading text={loading} />
      ) : !data ? (
        <Failed retry={() => void refetch()} />
      ) : (
        <>
          {isError && <Stale retry={() => void refetch()} />}
          <Banners data={data} />
          {children(data)}
        </>
      )}
    </>
  );
}

/** A list table: its column headings (and a last, unnamed one for the Edit buttons) and its rows. */
export function ListTable({
  caption,
  columns,
  children,
}: {
  caption?: string;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <table className="admin-table catalogue-table">
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

export function EditCell({ label, onEdit }: { label: string; onEdit: () => void }) {
  return (
    <td className="catalogue-table__action">
      <button type="button" className="admin-btn admin-btn--ghost" onClick={onEdit} aria-label={label}>
        Edit
      </button>
    </td>
  );
}

/** A form's save button and its way back (which asks first when something is unsaved). */
export function FormActions({
  className,
  saving,
  label,
  onBack,
}: {
  className: string;
  saving: boolean;
  label: string;
  onBack: () => void;
}) {
  return (
    <div className={className}>
      <button type="submit" className="admin-btn admin-btn--primary" disabled={saving}>
        {saving ? 'Saving...' : label}
      </button>
      <button type="button" className="admin-btn admin-btn--ghost" onClick={onBack}>
        Back to the list
      </button>
    </div>
  );
}
