import type { Config } from '@netlify/functions';
import { pruneActivity, RETENTION_DAYS } from '../../src/server/activity';
import { forgetOldCounters } from '../../src/server/throttle';
import { pruneSignInLinks } from '../../src/server/sign-in-links';

/**
 * Every day: removes activity log entries older than RETENTION_DAYS (365), and the sign-in records that count
 * for nothing any more (throttle counters nobody has failed on for an hour, expired links, old link mails), so
 * those tables do not grow for ever.
 */
export default async () => {
  const removed = await pruneActivity();
  if (removed) console.log(`[activity-retention] ${removed} entries older than ${RETENTION_DAYS} days removed`);
  const counters = await forgetOldCounters();
  const links = await pruneSignInLinks();
  if (counters || links)
    console.log(
      `[activity-retention] ${counters} old sign-in counters and ${links} expired links or link mails removed`,
    );
};

export const config: Config = {
  schedule: '41 3 * * *',
};
