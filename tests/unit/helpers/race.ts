import { setDatabase, type Database, type Sql } from '../../../src/platform/database.ts';

/**
 * Lines parallel requests up at one point, as function instances are when they really race. In a test the
 * requests of one Promise.all drift apart (signing in alone takes many milliseconds), so the first one is
 * often done before the next one reads anything and a missing check would go unnoticed. Here the first
 * `count` statements run outside a transaction whose text matches `statement` (or, without one, the first
 * `count` transactions) wait until all `count` have arrived and then go on together: every request has read
 * before any of them writes.
 *
 * `arrived()` says how many were lined up, for the test to check that the race it means did happen. If fewer
 * arrive than expected they are let go after `maxWaitMs`, so a test never hangs (it then fails on arrived()).
 * Call `stop()` when done: the database is the test file's again.
 */
export function lineUp(database: Database, options: { count: number; statement?: RegExp; maxWaitMs?: number }) {
  const { count, statement, maxWaitMs = 5_000 } = options;
  let arrived = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gate = async () => {
    arrived += 1;
    if (arrived === count) open();
    const valve = setTimeout(open, maxWaitMs);
    await opened;
    clearTimeout(valve);
  };
  const waits = () => arrived < count;
  setDatabase({
    async query<T>(sql: Sql) {
      if (statement && waits() && statement.test(sql.text)) await gate();
      return database.query<T>(sql);
    },
    async transaction(work) {
      if (!statement && waits()) await gate();
      return database.transaction(work);
    },
  });
  return {
    arrived: () => arrived,
    stop: () => setDatabase(database),
  };
}
