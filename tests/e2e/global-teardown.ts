import { openLocalData } from '../../scripts/lib/local-data.ts';
import { deleteStaffFromCli } from '../../src/server/last-admin.ts';
import { runAccounts } from './helpers/run-accounts';

/**
 * Runs once after every test: deletes the staff accounts this run created in the local store, through the same
 * code as `npm run users -- delete`. An account already gone (the users test deletes its own) is skipped.
 */
export default async function globalTeardown() {
  const { usernames, done } = runAccounts();
  if (!usernames.length) return done();
  let deleted = 0;
  try {
    const store = await openLocalData({});
    try {
      for (const username of usernames)
        await deleteStaffFromCli(username).then(
          () => deleted++,
          () => {},
        );
    } finally {
      await store.close();
    }
    done();
  } catch (cause) {
    // Tidying up is not a test: say so and keep the list, the accounts can be deleted with `npm run users`.
    console.warn(`Could not delete the staff accounts the tests created (${String(cause)}); they are listed in`);
    console.warn(process.env.E2E_ACCOUNTS_FILE);
  }
  console.log(`Deleted ${deleted} of ${usernames.length} staff accounts the tests created.`);
}
