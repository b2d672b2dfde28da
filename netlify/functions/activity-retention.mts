import type { Config } from '@netlify/functions';
import { pruneActivity, RETENTION_DAYS } from '../../src/server/activity';

/** Every day: removes activity log entries older than RETENTION_DAYS (365). */
export default async () => {
  const removed = await pruneActivity();
  if (removed) console.log(`[activity-retention] ${removed} entries older than ${RETENTION_DAYS} days removed`);
};

export const config: Config = {
  schedule: '41 3 * * *',
};
