import type { ROLES } from '../../../src/schemas/auth';
import { issueToken } from '../../../src/server/tokens';
import { createUser, getUser } from '../../../src/server/users';

/** The password of the staff accounts the tests create when the password itself is not under test. */
export const STAFF_PASSWORD = 'a long enough password';

/** A session token for an existing account, as a sign-in would issue it now. */
export async function tokenFor(username: string): Promise<string> {
  return issueToken((await getUser(username))!);
}

/**
 * Creates a staff account (in the blob store the test has started) and signs it in.
 * Returns the session token.
 */
export async function signedInStaff(account: {
  username: string;
  firstName: string;
  lastName: string;
  role?: (typeof ROLES)[number];
}): Promise<string> {
  await createUser({ role: 'admin', ...account, password: STAFF_PASSWORD });
  return tokenFor(account.username);
}
