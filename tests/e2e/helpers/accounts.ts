import { randomBytes } from 'node:crypto';
import { openUserStore } from '../../../scripts/lib/user-store.ts';
import { createUser } from '../../../src/server/users.ts';

/**
 * Creates a staff account in the local blob store the test server uses (the same folder, through the
 * same code as `npm run users`), so each test signs in with its own account and lockouts never collide.
 */
export async function createStaff(prefix = 'e2e', role: 'admin' | 'editor' = 'admin') {
  const username = `${prefix}-${randomBytes(5).toString('hex')}`;
  const password = randomBytes(12).toString('base64url');
  const target = await openUserStore({});
  try {
    await createUser({ username, firstName: 'Test', lastName: 'Editor', role, password });
  } finally {
    await target.close();
  }
  return { username, password, firstName: 'Test', lastName: 'Editor' };
}
