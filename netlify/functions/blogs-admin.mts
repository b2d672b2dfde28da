import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { adminList } from '../../src/server/blogs';

/** GET /api/blogs/admin/all -> {blogs}: drafts and published posts, newest first (staff only). */
export default async (request: Request) => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const auth = await authorize(request, 'blogs');
  if (!auth.ok) return auth.response;
  const blogs = await adminList();
  return json({ blogs, total: blogs.length });
};

export const config: Config = { path: '/api/blogs/admin/all' };
