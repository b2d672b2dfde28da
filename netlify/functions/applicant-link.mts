import type { Config, Context } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { RenewLinkSchema } from '../../src/schemas/applicant';
import { claimLinkMail } from '../../src/server/applicant-links';
import { LINK_RENEWAL_ANSWER } from '../../src/server/applicant-records';
import { queueApplicantMail } from '../../src/server/applicant-mail';
import { getInquiry, idOfReference } from '../../src/server/inquiries';

/** One link e-mail per application at most this often, whoever asks. */
const SPACING_MS = 2 * 60_000;

/**
 * POST /api/applicant/link {email, reference} -> 202 with the same neutral answer whatever was asked, so it
 * tells nobody whether an application exists; when both match a quote inquiry, a new link goes to its
 * e-mail address (stored first, retried if the send fails). Rate-limited per address and per application.
 */
export default async (request: Request, context: Context) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const body = await parseJsonBody(RenewLinkSchema, request, 2 * 1024);
  if (!body.ok) return body.response;
  const { email, reference } = body.data;
  const id = await idOfReference(reference);
  const inquiry = id ? await getInquiry(id) : null;
  const matches =
    inquiry !== null &&
    inquiry.kind === 'quote' &&
    !inquiry.erasedAt &&
    inquiry.contact.email.toLowerCase() === email.toLowerCase();
  // After the answer where the platform allows, so a match takes no longer to answer than a miss.
  const work = (async () => {
    if (!matches || !(await claimLinkMail(inquiry.id, SPACING_MS))) return;
    await queueApplicantMail(inquiry.id, { kind: 'applicant-link' });
  })().catch((cause) => console.error('[applicant] a link e-mail could not be stored:', String(cause)));
  if (typeof context?.waitUntil === 'function') context.waitUntil(work);
  else await work;
  return json({ message: LINK_RENEWAL_ANSWER }, { status: 202 });
};

export const config: Config = {
  path: '/api/applicant/link',
  rateLimit: { windowLimit: 5, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
