import * as v from 'valibot';
import { InquiryIdSchema } from './inquiry-record';

/** POST /api/public/marketing-withdrawal: the inquiry id and signature from the link in an e-mail. */
export const MarketingWithdrawalRequestSchema = v.object({
  inquiry: v.pipe(v.string('The link is incomplete'), InquiryIdSchema),
  signature: v.pipe(v.string('The link is incomplete'), v.regex(/^[A-Za-z0-9_-]{43}$/, 'The link is incomplete')),
});
