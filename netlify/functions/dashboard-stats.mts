import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { dashboardStats } from '../../src/server/stats';

/** GET /api/admin/dashboard-stats -> {overview, recentActivity, trends} (staff only). */
export default async (request: Request) => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const auth = await authorize(request, 'dashboard');
  if (!auth.ok) return auth.response;
  return json(await dashboardStats());
};

export const config: Config = { path: '/api/admin/dashboard-stats' };
