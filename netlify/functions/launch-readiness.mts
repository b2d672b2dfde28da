import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { launchReadiness } from '../../src/server/launch-readiness';

/** GET /api/admin/launch-readiness -> {ready, items: [{id, text, href}]} (admins: it lists what the settings still lack). */
export default async (request: Request) => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const auth = await authorize(request, 'settings');
  if (!auth.ok) return auth.response;
  return json(await launchReadiness());
};

export const config: Config = { path: '/api/admin/launch-readiness' };
