import { useQuery } from '@tanstack/react-query';
import type { RebuildStatus as Rebuild } from '../server/rebuild';
import { api } from './api';
import './catalogue.css';

export type { Rebuild };

/** Every screen's view of the latest rebuild starts with this key, so one save refreshes them all. */
export const REBUILD_KEY = ['admin-rebuild'];

export const time = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });

/**
 * The latest rebuild of the public pages (a catalogue or a settings save starts one), followed while it runs:
 * requested, queued, building, then live or failed. `path` is the screen's own status route.
 */
export function RebuildStatus({ path, initial }: { path: string; initial?: Rebuild }) {
  const { data } = useQuery({
    queryKey: [...REBUILD_KEY, path],
    queryFn: () => api<Rebuild>(path),
    ...(initial ? { initialData: initial } : {}),
    refetchInterval: (query) =>
      ['requested', 'queued', 'building'].includes(query.state.data?.state ?? '') ? 3000 : false,
  });
  if (!data || data.state === 'none') return null;
  const texts: Record<Exclude<Rebuild['state'], 'none'>, string> = {
    requested: `Rebuild requested at ${time(data.requestedAt)}; the public pages change when it is live.`,
    building: `Rebuilding the site (requested at ${time(data.requestedAt)})...`,
    queued: `Rebuild queued at ${time(data.requestedAt)}: it starts as soon as the rebuild already running ends. Nothing to do.`,
    live: `Live: the site was rebuilt${data.finishedAt ? ` at ${time(data.finishedAt)}` : ''}${data.durationMs ? ` in ${Math.round(data.durationMs / 1000)} s` : ''}.`,
    failed: `The rebuild requested at ${time(data.requestedAt)} failed${data.message ? `: ${data.message}` : ''}. The saved changes are kept; save again to retry.`,
    'not-configured': 'Saved. No build hook is set up, so the public pages change with the next deploy.',
  };
  return (
    <p
      className={`catalogue-rebuild is-${data.state}`}
      role="status"
      data-testid="rebuild-status"
      data-state={data.state}
    >
      <span className="catalogue-rebuild__dot" aria-hidden="true" />
      {texts[data.state]}
    </p>
  );
}
