import type { Config } from '@netlify/functions';
import { BlogRestoreSchema } from '../../src/schemas/blog';
import { error, json, methodNotAllowed, safeDecode } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { authorize } from '../../src/server/roles';
import { adminList, toAdmin } from '../../src/server/blog-reads';
import { listRevisions, publishDuePosts, restoreRevision } from '../../src/server/blogs';
import { conflictAnswer } from '../../src/server/blog-conflict';
import { actorOf } from '../../src/server/activity';
import { logPost } from '../../src/server/blog-activity';

const ID = /^[a-f0-9]{32}$/;
const GONE = 'This blog no longer exists.';

/**
 * Staff only (permission "blogs"):
 * GET  /api/blogs/admin/all                 -> {blogs, total}: drafts and published posts, newest first
 * GET  /api/blogs/admin/{id}/revisions      -> {revisions}: the kept versions of a post, newest first
 * POST /api/blogs/admin/{id}/revisions      -> {revision, version}: restores a revision as a new save (409 if newer)
 * POST /api/blogs/admin/publish-due         -> {published}: publishes the scheduled posts that are due now
 */
export default async (request: Request) => {
  const path = safeDecode(new URL(request.url).pathname.replace(/^\/api\/blogs\/admin\/?/, ''));
  if (path === null) return error(404, 'Not found');
  const revisions = /^([^/]+)\/revisions$/.exec(path);

  if (path === 'all') {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    const auth = await authorize(request, 'blogs');
    if (!auth.ok) return auth.response;
    const blogs = await adminList();
    return json({ blogs, total: blogs.length });
  }

  if (path === 'publish-due') {
    if (request.method !== 'POST') return methodNotAllowed(['POST']);
    const auth = await authorize(request, 'blogs');
    if (!auth.ok) return auth.response;
    return json({ published: await publishDuePosts(new Date(), actorOf(auth.user)) });
  }

  if (revisions) {
    if (request.method !== 'GET' && request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const auth = await authorize(request, 'blogs');
    if (!auth.ok) return auth.response;
    const id = revisions[1];
    if (!ID.test(id)) return error(404, GONE);
    if (request.method === 'GET') {
      const list = await listRevisions(id);
      return list ? json({ revisions: list }) : error(404, GONE);
    }
    const body = await parseJsonBody(BlogRestoreSchema, request, 1_000);
    if (!body.ok) return body.response;
    const result = await restoreRevision(id, body.data.revision, body.data.version, auth.user.username);
    if (result.ok)
      await logPost(actorOf(auth.user), `revision ${body.data.revision} restored`, result.before, result.blog);
    if (result.ok)
      return json({ success: true, message: 'Revision restored', blog: toAdmin(result.blog, result.blog.views) });
    if (result.reason === 'not-found') return error(404, GONE);
    if (result.reason === 'no-revision') return error(404, 'This revision is no longer kept.');
    return conflictAnswer(result.current);
  }

  return error(404, 'Not found');
};

export const config: Config = {
  path: ['/api/blogs/admin/all', '/api/blogs/admin/publish-due', '/api/blogs/admin/:id/revisions'],
};
