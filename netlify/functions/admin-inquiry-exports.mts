import type { Config } from '@netlify/functions';
import { cachePolicies, error, json, methodNotAllowed, notFound, SECURITY_HEADERS } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { ExportFileQuerySchema, ExportIdSchema } from '../../src/schemas/inbox';
import { parseQuery } from '../../src/server/validation';
import { exportFile, exportStatus, queueExport, removeExport } from '../../src/server/inquiry-export';
import * as v from 'valibot';

const GONE = 'There is no such export: a finished export is kept for 24 hours. Start a new one.';
const BACKGROUND = '/.netlify/functions/inquiry-export-background';

/**
 * The export of every inquiry, written in the background (admins with the inquiries permission only).
 * POST /api/admin/inquiry-exports          -> 202 { id, state: 'queued', done, total, ... }: the export starts
 * GET  /api/admin/inquiry-exports/{id}     -> its progress: { state, done, total, expiresAt?, message? }
 * GET  /api/admin/inquiry-exports/{id}/file?part=N -> file N (from 1) of the finished CSV, each under a function's
 *      streamed answer limit (`files` in the progress says how many; 404 once it has expired, 409 while it is written)
 */
export default async (request: Request) => {
  const auth = await authorize(request, 'inquiries');
  if (!auth.ok) return auth.response;
  const path = new URL(request.url).pathname.replace(/\/+$/, '');

  if (path === '/api/admin/inquiry-exports') {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const job = await queueExport(auth.user.username);
    const started = await startBackground(request, job.id);
    if (!started) {
      await removeExport(job.id);
      return error(503, 'The export could not be started. Please try again.');
    }
    return json(await exportStatus(job.id), { status: 202, headers: cachePolicies.noStore });
  }

  const match = /^\/api\/admin\/inquiry-exports\/([^/]+)(\/file)?$/.exec(path);
  if (!match) return notFound(GONE);
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const id = v.safeParse(ExportIdSchema, match[1]);
  if (!id.success) return notFound(GONE);

  if (!match[2]) {
    const status = await exportStatus(id.output);
    return status ? json(status, { headers: cachePolicies.noStore }) : notFound(GONE);
  }
  const query = parseQuery(ExportFileQuerySchema, new URL(request.url));
  if (!query.ok) return query.response;
  const file = await exportFile(id.output, query.data.part);
  if (!file) {
    const status = await exportStatus(id.output);
    if (!status) return notFound(GONE);
    if (status.state === 'done')
      return notFound(`This export has ${status.files ?? 1} file(s): there is no part ${query.data.part}.`);
    return error(409, 'The export is not finished yet.');
  }
  const day = file.job.requestedAt.slice(0, 10);
  const name =
    file.files > 1 ? `inquiries-all-${day}-part-${file.file}-of-${file.files}.csv` : `inquiries-all-${day}.csv`;
  return new Response(file.body, {
    headers: {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      ...cachePolicies.noStore,
    },
  });
};

/**
 * Calls the background function with the caller's own token (it checks it again). On Netlify it is the site's
 * own address; under `npm start` the local front door, with the secret it was started with, since it refuses
 * `/.netlify/` paths to everyone else.
 */
async function startBackground(request: Request, id: string): Promise<boolean> {
  const local = process.env.LOCAL_CDN_URL;
  const url = new URL(BACKGROUND, local ?? request.url);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: request.headers.get('authorization') ?? '',
        'content-type': 'application/json',
        ...(local ? { 'x-local-secret': process.env.LOCAL_CDN_TOKEN ?? '' } : {}),
      },
      body: JSON.stringify({ id }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status === 202 || response.ok;
  } catch (cause) {
    console.error('Could not start the background export:', cause instanceof Error ? cause.message : String(cause));
    return false;
  }
}

export const config: Config = {
  path: ['/api/admin/inquiry-exports', '/api/admin/inquiry-exports/:id', '/api/admin/inquiry-exports/:id/file'],
};
