import type { Config } from '@netlify/functions';
import { retryPendingMail } from '../../src/server/mail';
import { retryApplicantMail } from '../../src/server/applicant-mail';
import { retryReplyMail } from '../../src/server/inquiry-replies';

/**
 * Every 10 minutes: sends again the inquiry e-mails that failed, each when its backoff has passed
 * (10, 20, 40 ... 640 minutes; 8 attempts in all, then it is marked failed with the last error), and the
 * applicants' e-mails and the staff's replies from the inbox the same way.
 */
export default async () => {
  const summary = await retryPendingMail();
  if (summary.inquiries)
    console.log(`[mail-retry] ${summary.inquiries} inquiries: ${summary.sent} sent, ${summary.failed} failed`);
  // The applicants' e-mails (new links, "needs more", stage changes): src/server/applicant-mail.ts.
  const applicants = await retryApplicantMail();
  if (applicants.sent || applicants.failed)
    console.log(`[mail-retry] applicant e-mails: ${applicants.sent} sent, ${applicants.failed} failed`);
  // Replies staff sent from the inbox: src/server/inquiry-replies.ts.
  const replies = await retryReplyMail();
  if (replies.sent || replies.failed)
    console.log(`[mail-retry] inbox replies: ${replies.sent} sent, ${replies.failed} failed`);
};

export const config: Config = {
  schedule: '*/10 * * * *',
};
