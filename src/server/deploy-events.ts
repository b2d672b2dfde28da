import { db, isoOf, sql } from '../platform/database.ts';

/**
 * What Netlify tells the site about its own production deploys (the deploy events a function subscribes to:
 * netlify/functions/deploy-events.mts): a build started, went live, or failed. The admin's rebuild status reads
 * the newest after a save asked for a rebuild, so a failed build shows as failed instead of "requested" for ever.
 * Previews and branch deploys are not kept.
 */
export type DeployState = 'building' | 'ready' | 'error';

export interface DeployNotice {
  id: string;
  context: string;
  errorMessage: string | null;
}

/** Keeps a production deploy's news; answers whether it was kept. */
export async function recordDeployEvent(deploy: DeployNotice, state: DeployState): Promise<boolean> {
  if (deploy.context !== 'production' || !/^[0-9a-f]{1,40}$/.test(deploy.id)) return false;
  await db().query(sql`
    INSERT INTO deploy_events (deploy_id, state, error_message)
    VALUES (${deploy.id}, ${state}, ${deploy.errorMessage?.slice(0, 2000) ?? null})`);
  return true;
}

export interface DeployNews {
  state: DeployState;
  at: string;
  message?: string;
}

/** The newest production deploy news received after `since` (an ISO time), or null. */
export async function deployNewsSince(since: string): Promise<DeployNews | null> {
  const [row] = await db().query<{ state: DeployState; received_at: unknown; error_message: string | null }>(
    sql`SELECT state, received_at, error_message FROM deploy_events
        WHERE received_at >= ${since} ORDER BY received_at DESC, id DESC LIMIT 1`,
  );
  return row
    ? { state: row.state, at: isoOf(row.received_at), ...(row.error_message ? { message: row.error_message } : {}) }
    : null;
}
