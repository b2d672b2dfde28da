import type { Config, Context } from '@netlify/functions';
import { error, json, methodNotAllowed, notFound, SECURITY_HEADERS } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { parseJsonBody, parseQuery } from '../../src/server/validation';
import { InboxChangeSchema, InboxQuerySchema } from '../../src/schemas/inbox';
import { inquiriesToCsv, isInquiryId, listAllInquiries, setInquiryStatus } from '../../src/server/inquiries';

/**
 * Staff inbox of contact, consultation and quote submissions (staff only).
 * GET   /api/admin/inquiries?status=all|new|handled&offset&limit -> {items, total, counts}
 * GET   /api/admin/inquiries/export.csv                           -> every inquiry as CSV
 * PATCH /api/admin/inquiries/{id} {status: 'new'|'handled'}       -> the updated inquiry
 */
export default async (request: Request, context: Context) => {
  const auth = await authorize(request, 'inquiries');
  if (!auth.ok) return auth.response;
  const url = new URL(request.url);
  const { id } = context.params ?? {};

  if (url.pathname.endsWith('/export.csv')) {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    const csv = inquiriesToCsv(await listAllInquiries());
    const day = new Date().toISOString().slice(0, 10);
    return new Response(`\uFEFF${csv}`, {
      headers: {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="inquiries-${day}.csv"`,
        'Cache-Control': 'no-store',
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
  const all = await listAllInquiries();
  const filtered = status === 'all' ? all : all.filter((item) => item.status === status);
  if (offset > filtered.length) return error(400, 'offset is past the end of the list');
  return json({
    items: filtered.slice(offset, offset + limit),
    total: filtered.length,
    counts: { all: all.length, new: all.filter((i) => i.status === 'new').length, handled: all.filter((i) => i.status === 'handled').length },
  });
};

export const config: Config = {
  path: ['/api/admin/inquiries', '/api/admin/inquiries/export.csv', '/api/admin/inquiries/:id'],
};
