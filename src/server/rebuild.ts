/**
 * Rebuilds after a catalogue or settings save, and what the admin shows about the latest one. In production the
 * save calls the Netlify build hook (BUILD_HOOK_URL); locally `npm start`
 * offers its own build hook on the loopback address (LOCAL_BUILD_HOOK_URL with a secret made at each start,
 * LOCAL_BUILD_HOOK_TOKEN), which builds the site beside the served one and swaps it in when it is done.
 * Every request is a row of `rebuild_requests`; the admin shows the newest.
 */
import * as v from 'valibot';
import { db, iso, sql } from '../platform/database.ts';
import { deployNewsSince } from './deploy-events.ts';

/** How long after a request the local hook may still be finishing an earlier build before it starts this one. */
const LOST_AFTER_MS = 60_000;

const RecordSchema = v.object({
  requestedAt: v.pipe(v.string(), v.isoTimestamp()),
  requestedBy: v.string(),
  via: v.picklist(['build-hook', 'local', 'none']),
  outcome: v.picklist(['started', 'failed', 'not-configured']),
  /** The deploy that served the save: a function answering from another deploy means a newer one is live. */
  deployId: v.optional(v.string()),
});
type RebuildRecord = v.InferOutput<typeof RecordSchema>;

export type RebuildStatus =
  | { state: 'none' }
  | {
      state: 'not-configured' | 'failed' | 'requested' | 'queued' | 'building' | 'live';
      requestedAt: string;
      requestedBy: string;
      finishedAt?: string;
      durationMs?: number;
      message?: string;
    };

function localHook(): { url: URL; token: string } | null {
  const raw = process.env.LOCAL_BUILD_HOOK_URL;
  const token = process.env.LOCAL_BUILD_HOOK_TOKEN;
  if (!raw || !token) return null;
  try {
    const url = new URL(raw);
    // Only ever the loopback address: the secret never leaves this machine.
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
      ? { url, token }
      : null;
  } catch {
    return null;
  }
}

/** Asks for a rebuild (build hook, else the local one) and records when and by whom. Never throws. */
export async function requestRebuild(requestedBy: string, deployId?: string): Promise<RebuildRecord> {
  const requestedAt = new Date().toISOString();
  const local = process.env.BUILD_HOOK_URL ? null : localHook();
  let via: RebuildRecord['via'] = 'none';
  let outcome: RebuildRecord['outcome'] = 'not-configured';
  if (process.env.BUILD_HOOK_URL) {
    via = 'build-hook';
    outcome = await triggerRebuild();
  } else if (local) {
    via = 'local';
    try {
      const response = await fetch(new URL('build', local.url), {
        method: 'POST',
        headers: { 'x-local-secret': local.token },
        signal: AbortSignal.timeout(5000),
      });
      outcome = response.ok ? 'started' : 'failed';
    } catch (cause) {
      console.error('Could not reach the local build hook:', cause);
      outcome = 'failed';
    }
  }
  const record: RebuildRecord = { requestedAt, requestedBy, via, outcome, ...(deployId ? { deployId } : {}) };
  try {
    await db().query(sql`INSERT INTO rebuild_requests (requested_at, requested_by, via, outcome, deploy_id)
                         VALUES (${requestedAt}, ${requestedBy}, ${via}, ${outcome}, ${deployId ?? null})`);
  } catch (cause) {
    console.error('Could not record the rebuild request:', cause);
  }
  return record;
}

/** What a save answers about the rebuild it asked for (the admin then follows it with the status route). */
export function rebuildAnswer(record: RebuildRecord): RebuildStatus {
  const { requestedAt, requestedBy, outcome } = record;
  return { state: outcome === 'started' ? 'requested' : outcome, requestedAt, requestedBy };
}

const LocalStatusSchema = v.object({
  state: v.picklist(['idle', 'building', 'live', 'failed']),
  startedAt: v.optional(v.string()),
  finishedAt: v.optional(v.string()),
  durationMs: v.optional(v.number()),
  error: v.optional(v.string()),
  /** Another build was asked for while this one runs; it starts as soon as this one ends. */
  queued: v.optional(v.boolean()),
});

/**
 * The latest rebuild: `live` once a build that started after the request has finished (locally); in production
 * `building`, `live` or `failed` as Netlify's deploy events tell it (or `live` once this function answers
 * from a newer deploy than the one that took the save); until then `requested` (with the time of the request).
 */
export async function rebuildStatus(currentDeployId?: string): Promise<RebuildStatus> {
  const [row] = await db().query<{
    requested_at: Date;
    requested_by: string;
    via: string;
    outcome: string;
    deploy_id: string | null;
  }>(sql`SELECT requested_at, requested_by, via, outcome, deploy_id FROM rebuild_requests ORDER BY id DESC LIMIT 1`);
  if (!row) return { state: 'none' };
  const parsed = v.safeParse(RecordSchema, {
    requestedAt: iso(row.requested_at),
    requestedBy: row.requested_by,
    via: row.via,
    outcome: row.outcome,
    ...(row.deploy_id ? { deployId: row.deploy_id } : {}),
  });
  if (!parsed.success) return { state: 'none' };
  const record = parsed.output;
  const base = { requestedAt: record.requestedAt, requestedBy: record.requestedBy };
  if (record.outcome !== 'started') return { ...base, state: record.outcome };
  if (record.via === 'build-hook') {
    // Netlify's own deploy events (src/server/deploy-events.ts) say it first.
    const news = await deployNewsSince(record.requestedAt).catch(() => null);
    if (news?.state === 'error')
      return { ...base, state: 'failed', finishedAt: news.at, message: news.message ?? 'the build failed on Netlify' };
    if (news?.state === 'ready') return { ...base, state: 'live', finishedAt: news.at };
    const newer = currentDeployId && record.deployId && currentDeployId !== record.deployId;
    if (newer) return { ...base, state: 'live' };
    return { ...base, state: news?.state === 'building' ? 'building' : 'requested' };
  }
  const local = localHook();
  if (!local) return { ...base, state: 'requested' };
  try {
    const response = await fetch(new URL('status', local.url), {
      headers: { 'x-local-secret': local.token },
      signal: AbortSignal.timeout(3000),
    });
    const status = v.parse(LocalStatusSchema, await response.json());
    const after = (time?: string) => Boolean(time && time >= record.requestedAt);
    // A save made while an earlier build runs waits for it: its own build starts when that one ends.
    if (status.state === 'building') return { ...base, state: after(status.startedAt) ? 'building' : 'queued' };
    if (status.queued) return { ...base, state: 'queued' };
    // The local hook starts a build as soon as it is asked. Idle, or no build since the request a minute on, means
    // the request was lost: `npm start` was restarted (the hook keeps no state) before the build ran.
    const waited = Date.now() - Date.parse(record.requestedAt) > LOST_AFTER_MS;
    if (status.state === 'idle' || (!after(status.startedAt) && waited)) {
      return { ...base, state: 'failed', message: 'the local server was restarted before it ran' };
    }
    if (status.state === 'live' && after(status.startedAt)) {
      return { ...base, state: 'live', finishedAt: status.finishedAt, durationMs: status.durationMs };
    }
    if (status.state === 'failed' && after(status.startedAt))
      return { ...base, state: 'failed', message: status.error };
    return { ...base, state: 'requested' };
  } catch {
    return { ...base, state: 'requested' };
  }
}

/** Calls the Netlify build hook (production). */
async function triggerRebuild(): Promise<'started' | 'not-configured' | 'failed'> {
  const hook = process.env.BUILD_HOOK_URL;
  if (!hook) return 'not-configured';
  try {
    const url = new URL(hook);
    if (url.protocol !== 'https:') throw new Error('BUILD_HOOK_URL must be an https address');
    const response = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`build hook answered ${response.status}`);
    return 'started';
  } catch (cause) {
    // The message only: an error object can carry the hook's address, which is a secret.
    console.error('Could not start a rebuild:', cause instanceof Error ? cause.message : String(cause));
    return 'failed';
  }
}
