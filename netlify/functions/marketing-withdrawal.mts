import type { Config } from '@netlify/functions';
import { error, json, methodNotAllowed } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { MarketingWithdrawalRequestSchema } from '../../src/schemas/marketing';
import { getInquiry } from '../../src/server/inquiries';
import { isValidWithdrawalSignature, recordWithdrawal } from '../../src/server/marketing-consent';

export const WITHDRAWN_MESSAGE =
  'Done: we will not send you marketing e-mails. Messages about your inquiry or application still reach you.';
export const BAD_LINK_MESSAGE =
  'This link is not valid: it may have been changed or cut short. Open it again from the e-mail, or reply to the e-mail and we will do it for you.';

/**
 * POST /api/public/marketing-withdrawal {inquiry, signature} (docs/routes.md): the confirm button of the
 * page a visitor opens from the link in an e-mail (/marketing-withdrawal). A signature that does not match
 * the inquiry is refused (403) and nothing is stored; a valid one puts the inquiry's e-mail address on the
 * suppression list. No sign-in; only POST changes anything (mail clients fetch GET links on their own).
 */
export default async (request: Request) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const body = await parseJsonBody(MarketingWithdrawalRequestSchema, request, 1024);
  if (!body.ok) return body.response;
  const { inquiry, signature } = body.data;
  if (!isValidWithdrawalSignature(inquiry, signature)) return error(403, BAD_LINK_MESSAGE);
  const record = await getInquiry(inquiry);
  if (!record) return error(403, BAD_LINK_MESSAGE);
  const withdrawal = await recordWithdrawal(record.contact.email, { via: 'email-link' });
  return json({ success: true, message: WITHDRAWN_MESSAGE, at: withdrawal.at });
};

export const config: Config = {
  path: '/api/public/marketing-withdrawal',
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
