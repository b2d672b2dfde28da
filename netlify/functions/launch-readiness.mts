import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authenticate } from '../../src/server/auth';
import { launchReadiness } from '../../src/server/launch-readiness';

/** GET /api/admin/launch-readiness -> {ready, items: [{id, text, href}]} (staff only). */
export default async (request: Request) => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const auth = await authenticate(request);
  if (!auth.ok) return auth.response;
  return json(await launchReadiness());
};

export const config: Config = { path: '/api/admin/launch-readiness' };
