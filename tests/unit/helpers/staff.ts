import { db, join, raw, sql } from '../../../src/platform/database';
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
 * Creates a staff account (in the database the test has started) and signs it in.
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

/**
 * A fingerprint of every table of the test's database (a hash of its rows), to prove a refused request changed
 * nothing, also one that locked rows to decide (which writeMark counts as a write): compare two with
 * changedTables.
 */
export async function snapshotTables(): Promise<Map<string, string>> {
  const tables = await db().query<{ name: string }>(
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  const digests = join(
    tables.map(
      ({ name }) =>
        sql`SELECT ${name} AS name, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest
            FROM ${raw(`"${name.replace(/"/g, '""')}"`)} t`,
    ),
    ' UNION ALL ',
  );
  const rows = await db().query<{ name: string; digest: string }>(digests);
  return new Map(rows.map((row) => [row.name, row.digest]));
}

/** The tables whose rows differ between two snapshots. */
export const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
  [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name)).sort();

/**
 * The next transaction id of the test's database: it moves on as soon as any transaction writes a row (reads,
 * and statements that change no row, leave it), so an unchanged mark proves nothing at all was written. One
 * cheap statement, so suites can check it around every request they send.
 */
export async function writeMark(): Promise<string> {
  const [{ next }] = await db().query<{ next: string }>(
    sql`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next`,
  );
  return next;
}
