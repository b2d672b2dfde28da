import type { Config, Context } from '@netlify/functions';
import { methodNotAllowed } from '../../src/server/http';
import { acceptInquiry, parseFormSubmission } from '../../src/server/form-request';
import { ContactSchema } from '../../src/schemas/inquiry';
import { consentsFrom } from '../../src/server/inquiries';

/**
 * POST /api/email/contact {firstName, lastName, phone, email, message, source?} (docs/routes.md):
 * the contact page and the home page's consultation form. Stored first, then mailed.
 */
export default async (request: Request, context: Context) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const parsed = await parseFormSubmission(request, ContactSchema);
  if (!parsed.ok) return parsed.response;
  const { firstName, lastName, email, phone, message, source } = parsed.data;
  return acceptInquiry(
    {
      kind: 'contact',
      source,
      contact: { firstName, lastName, email, phone },
      message,
      consents: consentsFrom(parsed.data),
    },
    context,
    "Thank you for your message. We'll be in touch with you soon.",
  );
};

export const config: Config = {
  path: '/api/email/contact',
  // Per visitor IP and site domain: a person sends one or two messages; a script sending more waits.
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
