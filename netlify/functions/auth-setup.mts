import type { Config } from '@netlify/functions';
import { cachePolicies, json, methodNotAllowed, RefusedInput } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { FirstOwnerSchema } from '../../src/schemas/staff';
import { createFirstOwner, setupState } from '../../src/server/first-owner';

/**
 * GET  /api/auth/setup -> {enabled, done}: whether the first owner can be made here.
 * POST /api/auth/setup {secret, username, firstName, lastName, email, password} -> 201 {username, message}: makes
 *      the first owner; 404 while setup is off (no SETUP_SECRET), 403 with a wrong secret, 409 once an owner exists.
 */
export default async (request: Request) => {
  if (request.method === 'GET') return json(await setupState(), { headers: cachePolicies.noStore });
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const body = await parseJsonBody(FirstOwnerSchema, request, 4 * 1024);
  if (!body.ok) return body.response;
  try {
    const { username } = await createFirstOwner(body.data);
    return json(
      { username, message: `The owner account ${username} is ready. Log in, then remove SETUP_SECRET from the site.` },
      { status: 201 },
    );
  } catch (cause) {
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
};

export const config: Config = {
  path: '/api/auth/setup',
  rateLimit: { windowLimit: 5, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
