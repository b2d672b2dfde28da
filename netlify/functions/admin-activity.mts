import type { Config } from '@netlify/functions';
import { json, methodNotAllowed } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { parseQuery } from '../../src/server/validation';
import { listActivity } from '../../src/server/activity';
import { staffNames } from '../../src/server/users';
import { ActivityQuerySchema, SCHEDULE_ACTOR, type ActivityPage } from '../../src/schemas/activity';

/**
 * The activity log (administrators only).
 * GET /api/admin/activity?person&kind&offset&limit -> {items, total, offset, limit, people}: newest first;
 *     `people` is everyone who appears in the log (for the person filter), by name.
 */
export default async (request: Request) => {
  const auth = await authorize(request, 'activity');
  if (!auth.ok) return auth.response;
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const query = parseQuery(ActivityQuerySchema, new URL(request.url));
  if (!query.ok) return query.response;
  const { actors, ...page } = await listActivity(query.data);
  // People are named as their accounts are named now; a deleted account by its username.
  const names = await staffNames(actors);
  names.set(SCHEDULE_ACTOR.username, SCHEDULE_ACTOR.name);
  const people = actors
    .map((username) => ({ username, name: names.get(username) ?? username }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en-AU'));
  return json({ ...page, people } satisfies ActivityPage);
};

export const config: Config = {
  path: '/api/admin/activity',
};
