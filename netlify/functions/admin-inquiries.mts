import type { Config, Context } from '@netlify/functions';
import { cachePolicies, error, json, methodNotAllowed, notFound, SECURITY_HEADERS } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { parseJsonBody, parseQuery } from '../../src/server/validation';
import { InboxChangeSchema, InboxQuerySchema } from '../../src/schemas/inbox';
import { inquiriesCsvStream, isInquiryId, listInquiries, setInquiryStatus } from '../../src/server/inquiries';

/**
 * Staff inbox of contact, consultation and quote submissions (staff only).
 * GET   /api/admin/inquiries?status=all|new|handled&offset&limit -> {items, total, counts}
 * GET   /api/admin/inquiries/export.csv                           -> every inquiry as CSV, streamed
 * PATCH /api/admin/inquiries/{id} {status: 'new'|'handled'}       -> the updated inquiry
 */
export default async (request: Request, context: Context) => {
  const auth = await authorize(request, 'inquiries');
  if (!auth.ok) return auth.response;
  const url = new URL(request.url);
  const { id } = context.params ?? {};

  if (url.pathname.endsWith('/export.csv')) {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    const day = new Date().toISOString().slice(0, 10);
    return new Response(inquiriesCsvStream(), {
      headers: {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="inquiries-${day}.csv"`,
        ...cachePolicies.noStore,
      },
    });
  }

  if (id !== undefined) {
    if (request.method !== 'PATCH') return methodNotAllowed(['PATCH']);
    if (!isInquiryId(id)) return notFound('Inquiry not found.');
    const body = await parseJsonBody(InboxChangeSchema, request, 1024);
    if (!body.ok) return body.response;
    const updated = await setInquiryStatus(id, body.data.status);
    return updated ? json(updated) : notFound('Inquiry not found.');
  }

  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const query = parseQuery(InboxQuerySchema, url);
  if (!query.ok) return query.response;
  const { status, offset, limit } = query.data;
  const page = await listInquiries({ status, offset, limit });
  if (offset > page.total) return error(400, 'offset is past the end of the list');
  return json(page);
};

export const config: Config = {
  path: ['/api/admin/inquiries', '/api/admin/inquiries/export.csv', '/api/admin/inquiries/:id'],
};
