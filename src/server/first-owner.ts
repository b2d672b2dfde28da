import { createHash, timingSafeEqual } from 'node:crypto';
import { db, isUniqueViolation, sql } from '../platform/database.ts';
import { RefusedInput } from './http.ts';
import { hashPassword } from './passwords.ts';
import { recordActivity } from './activity.ts';
import { SETUP_DONE, SETUP_NOT_ENABLED, SETUP_WRONG_SECRET, type FirstOwner } from '../schemas/staff.ts';

/**
 * The first owner of a new site, made from the browser (/admin/setup) without a developer's machine: the owner puts
 * a setup secret in the site's environment (SETUP_SECRET, at least 32 characters), opens the page, and gives it
 * with the account they want. It works once: from the moment an administrator exists it refuses for good, whatever
 * the secret (parallel attempts included: the check and the insert hold one lock). Calls are rate limited by the
 * platform (the function's config).
 */
export const SETUP_SECRET_MIN = 32;

const configured = () => {
  const value = process.env.SETUP_SECRET ?? '';
  return value.length >= SETUP_SECRET_MIN ? value : null;
};

/** Compares two secrets in time independent of where they differ, or of their lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

async function ownerExists(): Promise<boolean> {
  const rows = await db().query(sql`SELECT 1 FROM staff WHERE role = 'admin' AND active LIMIT 1`);
  return rows.length > 0;
}

/** What the setup page shows: whether setup is switched on, and whether it is done already. */
export async function setupState(): Promise<{ enabled: boolean; done: boolean }> {
  return { enabled: configured() !== null, done: await ownerExists() };
}

/** Creates the first owner (an administrator); RefusedInput when setup is off, the secret wrong, or it is done. */
export async function createFirstOwner(input: FirstOwner): Promise<{ username: string }> {
  const expected = configured();
  if (!expected) throw new RefusedInput(404, SETUP_NOT_ENABLED);
  if (!sameSecret(input.secret, expected)) throw new RefusedInput(403, SETUP_WRONG_SECRET, 'secret');
  if (await ownerExists()) throw new RefusedInput(409, SETUP_DONE);
  const passwordHash = await hashPassword(input.password);
  try {
    await db().transaction(async (tx) => {
      // One setup at a time, and the check under the same lock: two at once cannot both find no owner.
      await tx.query(sql`SELECT pg_advisory_xact_lock(hashtext('rpl-first-owner'))`);
      const [found] = await tx.query(sql`SELECT 1 FROM staff WHERE role = 'admin' AND active LIMIT 1`);
      if (found) throw new RefusedInput(409, SETUP_DONE);
      await tx.query(sql`
        INSERT INTO staff (username, first_name, last_name, role, email, password_hash)
        VALUES (${input.username}, ${input.firstName}, ${input.lastName}, 'admin', ${input.email}, ${passwordHash})`);
    });
  } catch (cause) {
    if (isUniqueViolation(cause)) throw new RefusedInput(409, 'That username or e-mail address is taken.', 'username');
    throw cause;
  }
  await recordActivity({
    actor: { username: input.username, name: `${input.firstName} ${input.lastName}` },
    kind: 'user',
    action: 'first owner created',
    target: { id: input.username, label: `${input.firstName} ${input.lastName}` },
  });
  return { username: input.username };
}
