import type { Config } from '@netlify/functions';
import { retryPendingMail } from '../../src/server/mail';

/**
 * Every 10 minutes: sends again the inquiry e-mails that failed, each when its backoff has passed
 * (10, 20, 40 ... 640 minutes; 8 attempts in all, then it is marked failed with the last error).
 */
export default async () => {
  const summary = await retryPendingMail();
  if (summary.inquiries)
    console.log(`[mail-retry] ${summary.inquiries} inquiries: ${summary.sent} sent, ${summary.failed} failed`);
};

export const config: Config = {
  schedule: '*/10 * * * *',
};
