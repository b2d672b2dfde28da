import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { can } from '../../src/lib/roles';
import { authorize } from '../../src/server/roles';
import { dashboardStats } from '../../src/server/stats';

/**
 * GET /api/admin/dashboard-stats -> {overview, recentActivity, trends, inbox} (staff only); `inbox` (what
 * arrived since this staff member last opened the inbox) is null for roles without the inbox.
 */
export default async (request: Request) => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const auth = await authorize(request, 'dashboard');
  if (!auth.ok) return auth.response;
  const inboxOf = can(auth.user.role, 'inquiries') ? auth.user.username : null;
  return json(await dashboardStats(new Date(), inboxOf));
};

export const config: Config = { path: '/api/admin/dashboard-stats' };
