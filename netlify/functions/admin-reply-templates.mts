import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { parseJsonBody } from '../../src/server/validation';
import { ReplyTemplatesInputSchema } from '../../src/schemas/replies';
import { readTemplates, saveTemplates } from '../../src/server/reply-templates';
import { actorOf, diff, recordActivity } from '../../src/server/activity';

/**
 * GET /api/admin/reply-templates -> {version, templates} (roles that use the inbox)
 * PUT /api/admin/reply-templates {version, templates} -> the saved list; 409 with the newer list (`current`)
 *     when someone saved in between (roles that may edit templates: admin).
 */
export default async (request: Request) => {
  if (request.method !== 'GET' && request.method !== 'PUT') return methodNotAllowed(['GET', 'PUT']);
  const auth = await authorize(request, request.method === 'GET' ? 'inquiries' : 'templates');
  if (!auth.ok) return auth.response;
  if (request.method === 'GET') return json(await readTemplates());
  const body = await parseJsonBody(ReplyTemplatesInputSchema, request, 256 * 1024);
  if (!body.ok) return body.response;
  const before = await readTemplates();
  const result = await saveTemplates(body.data.templates, body.data.version, auth.user.username);
  if (!result.ok)
    return json(
      {
        message: `The templates were changed by ${result.current.updatedBy ?? 'someone else'} after you opened them, so your changes were not saved. Reload to see theirs.`,
        current: result.current,
      },
      { status: 409 },
    );
  await recordActivity({
    actor: actorOf(auth.user),
    kind: 'settings',
    action: 'reply templates saved',
    target: { id: 'reply-templates', label: 'Reply templates' },
    changes: diff({ templates: before.templates }, { templates: result.saved.templates }),
  });
  return json(result.saved);
};

export const config: Config = { path: '/api/admin/reply-templates' };
