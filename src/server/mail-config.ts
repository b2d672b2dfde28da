import { deployContext } from '../platform/site.ts';

/**
 * What e-mail needs from the environment. On this machine (`npm start`, the tests: deploy context `dev`) mail is
 * kept in the outbox table and nothing is needed. Deployed, nothing is guessed: without a Resend key, a sender
 * and a staff address no e-mail goes out (the leads are stored all the same and their e-mails wait, then fail and
 * show so in the inbox), the launch panel blocks, the admin shows a banner, and each function says so once in its
 * log. A default address here would send visitors' details to a mailbox that is not the owner's.
 */
export const MAIL_NOT_SET_UP =
  'E-mail is not set up on this site: no e-mail is sent (inquiries are still stored). An administrator must set RESEND_API_KEY, MAIL_FROM and MAIL_TO in the Netlify environment variables.';

const LOCAL = { from: 'RPL Pathways <no-reply@localhost>', staffTo: 'staff@localhost' };

export const isLocal = () => deployContext() === 'dev';

/** What is missing for mail in the context the code runs in (empty: nothing). */
export function mailProblems(): string[] {
  if (isLocal()) return [];
  const problems: string[] = [];
  if (!process.env.RESEND_API_KEY) problems.push('RESEND_API_KEY is not set: no e-mail can be sent.');
  if (!process.env.MAIL_FROM) problems.push('MAIL_FROM is not set: e-mails have no sender.');
  if (!process.env.MAIL_TO) problems.push('MAIL_TO is not set: staff e-mails have nobody to go to.');
  return problems;
}

/** The sender and the staff address: from the environment, or (on this machine only) local stand-ins. */
export function mailAddresses(): { from: string; staffTo: string } {
  return {
    from: process.env.MAIL_FROM || (isLocal() ? LOCAL.from : ''),
    staffTo: process.env.MAIL_TO || (isLocal() ? LOCAL.staffTo : ''),
  };
}

let told = false;
/** One clear line in this function's log the first time mail is wanted and cannot go. */
export function tellMailProblemsOnce(problems: string[]): void {
  if (told || !problems.length) return;
  told = true;
  console.error(`[mail] E-mail is not set up: ${problems.join(' ')} Nothing is sent until it is.`);
}
