import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { error, json, methodNotAllowed, readCappedBody, RefusedInput } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { applicantOf } from '../../src/server/applicant-links';
import { applicantView } from '../../src/server/applicants';
import { completeUpload, putChunk, removeUpload, startUpload } from '../../src/server/applicant-evidence';
import { UNKNOWN_FILE } from '../../src/server/applicant-records';
import { ChunkNumberSchema, StartUploadSchema, UploadIdSchema } from '../../src/schemas/applicant';
import { CallbackRequestSchema } from '../../src/schemas/inquiry-record';
import { requestCallback } from '../../src/server/callbacks';

/** Never kept by the browser or any shared cache: the applicant's own data. */
const PRIVATE = { 'Cache-Control': 'private, no-store' };

/**
 * The applicant page's API (docs/routes.md); every route needs the private link's token as
 * `Authorization: Bearer <token>` (else 401).
 * GET    /api/applicant                                  -> the applicant's record (reference, stage, checklist, files)
 * POST   /api/applicant/evidence {name, size, item}      -> {uploadId, chunkBytes, chunks} (201)
 * PUT    /api/applicant/evidence/{uploadId}/chunks/{n}   raw bytes of chunk n -> {received, chunks}
 * POST   /api/applicant/evidence/{uploadId}/complete     -> the stored file
 * DELETE /api/applicant/evidence/{uploadId}              -> 204: a file removed, or an upload given up
 * POST   /api/applicant/callback {day, window}            -> the call-back kept on the inquiry (a day and window
 *                                                            the business hours offer, else 400)
 */
export default async (request: Request, context: Context) => {
  const url = new URL(request.url);
  const { uploadId, n } = context.params ?? {};
  const route = routeOf(url.pathname);
  const allowed = ALLOWED.get(route) ?? ['GET'];
  if (!allowed.includes(request.method)) return methodNotAllowed(allowed);

  const auth = await applicantOf(request);
  if (!auth.ok) return auth.response;
  const { session } = auth;
  try {
    if (route === 'record') return json(await applicantView(session), { headers: PRIVATE });

    if (route === 'callback') {
      const body = await parseJsonBody(CallbackRequestSchema, request, 1024);
      if (!body.ok) return body.response;
      const callback = await requestCallback(session.inquiry.id, body.data);
      return json({ success: true, callback }, { headers: PRIVATE });
    }

    if (route === 'start') {
      const body = await parseJsonBody(StartUploadSchema, request, 4 * 1024);
      if (!body.ok) return body.response;
      return json(await startUpload(session, body.data), { status: 201, headers: PRIVATE });
    }

    const id = v.safeParse(UploadIdSchema, uploadId ?? '');
    if (!id.success) return error(404, UNKNOWN_FILE);

    if (route === 'chunk') {
      const number = v.safeParse(ChunkNumberSchema, n ?? '');
      if (!number.success) return error(400, 'Not a chunk number');
      const type = request.headers.get('content-type') ?? '';
      if (!/^application\/octet-stream\b/i.test(type))
        return error(415, 'Send the chunk as raw bytes (Content-Type: application/octet-stream).');
      const answer = await putChunk(session, id.output, number.output, (max) => readCappedBody(request, max));
      return json(answer, { headers: PRIVATE });
    }
    if (route === 'complete') return json(await completeUpload(session, id.output), { headers: PRIVATE });
    await removeUpload(session, id.output);
    return new Response(null, { status: 204, headers: json(null).headers });
  } catch (cause) {
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
};

type Route = 'record' | 'callback' | 'start' | 'chunk' | 'complete' | 'file';
const ALLOWED = new Map<Route, string[]>([
  ['record', ['GET']],
  ['callback', ['POST']],
  ['start', ['POST']],
  ['chunk', ['PUT']],
  ['complete', ['POST']],
  ['file', ['DELETE']],
]);

function routeOf(path: string): Route {
  if (/\/applicant\/callback\/?$/.test(path)) return 'callback';
  if (/\/chunks\/[^/]*\/?$/.test(path)) return 'chunk';
  if (/\/evidence\/[^/]+\/complete\/?$/.test(path)) return 'complete';
  if (/\/evidence\/[^/]+\/?$/.test(path)) return 'file';
  if (/\/evidence\/?$/.test(path)) return 'start';
  return 'record';
}

export const config: Config = {
  path: [
    '/api/applicant',
    '/api/applicant/callback',
    '/api/applicant/evidence',
    '/api/applicant/evidence/:uploadId',
    '/api/applicant/evidence/:uploadId/chunks/:n',
    '/api/applicant/evidence/:uploadId/complete',
  ],
};
