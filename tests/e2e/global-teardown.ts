import { openUserStore } from '../../scripts/lib/user-store.ts';
import { deleteStaffFromCli } from '../../src/server/last-admin.ts';
import { runAccounts } from './helpers/run-accounts';

/**
 * Runs once after every test: deletes the staff accounts this run created in the local store, through the same
 * code as `npm run users -- delete`. An account already gone (the users test deletes its own) is skipped.
 */
export default async function globalTeardown() {
  const { usernames, done } = runAccounts();
  if (!usernames.length) return done();
  const store = await openUserStore({});
  let kept = 0;
  try {
    for (const username of usernames) await deleteStaffFromCli(username).catch(() => kept++);
  } finally {
    await store.close();
  }
  console.log(`Deleted ${usernames.length - kept} staff accounts the tests created.`);
  done();
}
