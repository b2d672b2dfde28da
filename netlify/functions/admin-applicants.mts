import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { error, json, methodNotAllowed, notFound, RefusedInput, SECURITY_HEADERS } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { parseJsonBody } from '../../src/server/validation';
import { eraseApplicant, reviewItem, setStage, staffApplicantView } from '../../src/server/applicants';
import { fileStream } from '../../src/server/applicant-evidence';
import { revokeLinks } from '../../src/server/applicant-links';
import { UNKNOWN_FILE } from '../../src/server/applicant-records';
import { queueApplicantMail } from '../../src/server/applicant-mail';
import { getInquiry, isInquiryId, referenceOf } from '../../src/server/inquiries';
import { staffName } from '../../src/server/users';
import {
  EraseInputSchema,
  ItemIdSchema,
  ReviewInputSchema,
  StageInputSchema,
  UploadIdSchema,
} from '../../src/schemas/applicant';
import type { StaffRef } from '../../src/schemas/inquiry-record';

const NOT_FOUND = 'Inquiry not found.';

/**
 * The staff side of applicants (permission "inquiries", like the inbox; docs/routes.md):
 * GET   /api/admin/applicants/{id}                         -> the applicant: stage, checklist with reviews, files, events
 * PATCH /api/admin/applicants/{id} {stage}                 -> moves the stage (e-mails the applicant when it changes)
 * PUT   /api/admin/applicants/{id}/items/{itemId} {status, note} -> accepted / needs more (needs more e-mails the applicant)
 * GET   /api/admin/applicants/{id}/files/{fileId}          -> the file, streamed as an attachment
 * POST  /api/admin/applicants/{id}/revoke                  -> every link of the applicant stops working
 * POST  /api/admin/applicants/{id}/erase {confirm: reference} -> files, record, links and personal fields erased
 */
export default async (request: Request, context: Context) => {
  const auth = await authorize(request, 'inquiries');
  if (!auth.ok) return auth.response;
  const { id = '', itemId, fileId } = context.params ?? {};
  if (!isInquiryId(id)) return notFound(NOT_FOUND);
  const path = new URL(request.url).pathname;
  const me: StaffRef = { username: auth.user.username, name: staffName(auth.user) };
  const view = async () => {
    const found = await staffApplicantView(id);
    return found ? json(found) : notFound(NOT_FOUND);
  };

  try {
    if (/\/files\/[^/]*\/?$/.test(path)) {
      if (request.method !== 'GET') return methodNotAllowed(['GET']);
      const file = v.safeParse(UploadIdSchema, fileId ?? '');
      const found = file.success ? await fileStream(id, file.output) : null;
      if (!found) return error(404, UNKNOWN_FILE);
      return new Response(found.body, {
        headers: {
          ...SECURITY_HEADERS,
          'Content-Type': found.contentType,
          'Content-Length': String(found.file.size),
          'Content-Disposition': attachment(found.file.name),
          'Content-Security-Policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'private, no-store',
        },
      });
    }

    if (/\/items\/[^/]*\/?$/.test(path)) {
      if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
      const item = v.safeParse(ItemIdSchema, itemId ?? '');
      if (!item.success) return error(404, 'There is no such checklist item.');
      const body = await parseJsonBody(ReviewInputSchema, request, 4 * 1024);
      if (!body.ok) return body.response;
      if (body.data.status === 'needs-more' && !body.data.note)
        return error(400, 'Say what more is needed.', [{ field: 'note', message: 'Say what more is needed.' }]);
      const done = await reviewItem(id, item.output, body.data, me);
      if (!done) return notFound(NOT_FOUND);
      if (body.data.status === 'needs-more')
        await mailBestEffort(id, { kind: 'applicant-needs-more', item: done.item.text, note: body.data.note });
      return view();
    }

    if (/\/revoke\/?$/.test(path)) {
      if (request.method !== 'POST') return methodNotAllowed(['POST']);
      if (!(await getInquiry(id))) return notFound(NOT_FOUND);
      await revokeLinks(id);
      return view();
    }

    if (/\/erase\/?$/.test(path)) {
      if (request.method !== 'POST') return methodNotAllowed(['POST']);
      const body = await parseJsonBody(EraseInputSchema, request, 1024);
      if (!body.ok) return body.response;
      const inquiry = await getInquiry(id);
      if (!inquiry) return notFound(NOT_FOUND);
      if (inquiry.erasedAt) return error(409, 'This person’s data was already erased.');
      if (body.data.confirm.trim().toUpperCase() !== referenceOf(inquiry).toUpperCase())
        return error(400, 'Type the reference to confirm.', [
          { field: 'confirm', message: 'Type the reference to confirm.' },
        ]);
      await eraseApplicant(id, me);
      return json({ message: `The data of ${referenceOf(inquiry)} was erased.` });
    }

    if (request.method === 'GET') return view();
    if (request.method !== 'PATCH') return methodNotAllowed(['GET', 'PATCH']);
    const body = await parseJsonBody(StageInputSchema, request, 1024);
    if (!body.ok) return body.response;
    const moved = await setStage(id, body.data.stage);
    if (!moved) return notFound(NOT_FOUND);
    if (moved.changed) await mailBestEffort(id, { kind: 'applicant-stage', stage: body.data.stage });
    return view();
  } catch (cause) {
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
};

/** The change is made; its e-mail is stored and retried if it cannot be stored-and-sent now (logged). */
async function mailBestEffort(id: string, message: Parameters<typeof queueApplicantMail>[1]) {
  try {
    await queueApplicantMail(id, message);
  } catch (cause) {
    console.error(`[applicant] ${message.kind} mail for inquiry ${id} could not be stored:`, String(cause));
  }
}

/** Content-Disposition for a stored name: an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const config: Config = {
  path: [
    '/api/admin/applicants/:id',
    '/api/admin/applicants/:id/items/:itemId',
    '/api/admin/applicants/:id/files/:fileId',
    '/api/admin/applicants/:id/revoke',
    '/api/admin/applicants/:id/erase',
  ],
};
