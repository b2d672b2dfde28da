import { AsyncLocalStorage } from 'node:async_hooks';
import { getDatabase } from '@netlify/database';
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';

/**
 * The site's records live in Netlify Database (managed Postgres). This module is the only place that knows how
 * to reach it: on Netlify and under `npm start` through the `@netlify/database` driver (its pool, which is a
 * node-postgres pool or Neon's serverless one depending on where the code runs); in unit tests through an
 * in-process PGlite handed to `setDatabase`. Everything else writes queries with the `sql` tag (values always
 * travel as parameters, never spliced into the text) and calls `db()`.
 *
 * Conventions that keep the drivers alike: never select an int8 or numeric column as it is (node-postgres gives
 * strings, PGlite numbers; cast with ::int or ::float8), select `date` columns as text, and pass JSON values as
 * text cast to jsonb (node-postgres would turn a JS array into a Postgres array literal).
 */
export { sql, join, raw, empty, type Sql };

export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one statement and answers its rows (none for a write without RETURNING). */
  query<T = Row>(statement: Sql): Promise<T[]>;
}

export interface Database extends Queryable {
  /**
   * Runs `work` in one transaction: every statement of it lands, or none does (a throw rolls back and is passed
   * on). Keep it short and free of network calls: rows it locks wait for it.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** What a node-postgres or Neon pool client and PGlite all offer. */
interface Driver {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
export interface PoolLike extends Driver {
  connect(): Promise<Driver & { release(error?: Error | boolean): void }>;
}
/** PGlite's own interface (unit tests, and the local tools that open the data folder directly). */
export interface InProcessDriver extends Driver {
  transaction<T>(work: (tx: Driver) => Promise<T>): Promise<T>;
}

/**
 * Postgres text cannot hold the NUL character (U+0000): a value with one is refused with an error, which a
 * hostile query string or body would turn into a 500. Nothing a person types contains it, so it is dropped from
 * every value on its way in (strings, lists of strings, and the JSON that json() makes).
 */
const withoutNul = (value: unknown): unknown =>
  typeof value === 'string' ? value.replaceAll('\u0000', '') : Array.isArray(value) ? value.map(withoutNul) : value;

const over = (driver: Driver): Queryable => ({
  async query<T>(statement: Sql) {
    return (await driver.query(statement.text, statement.values.map(withoutNul))).rows as T[];
  },
});

/**
 * Whether the code running now is inside a transaction's work. A transaction started from inside another would
 * wait for rows the outer one holds while the outer one waits for it: it is refused at once instead of hanging.
 */
const inside = new AsyncLocalStorage<true>();
function refuseNesting(): void {
  if (inside.getStore())
    throw new Error('A transaction was started inside another one; finish the first before starting the next.');
}

/** A database over a node-postgres (or Neon) pool: statements from any connection, transactions on one. */
export function poolDatabase(pool: PoolLike): Database {
  return {
    ...over(pool),
    async transaction(work) {
      refuseNesting();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await inside.run(true, () => work(over(client)));
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (cause) {
        // A failed ROLLBACK means the connection is broken: it is destroyed instead of going back to the pool.
        const broken = await client.query('ROLLBACK').then(
          () => false,
          () => true,
        );
        client.release(broken);
        throw cause;
      }
    },
  };
}

/** A database over an in-process engine (PGlite): its own transactions, one at a time. */
export function inProcessDatabase(driver: InProcessDriver): Database {
  return {
    ...over(driver),
    async transaction(work) {
      refuseNesting();
      return driver.transaction((tx) => inside.run(true, () => work(over(tx))));
    },
  };
}

let current: Database | null = null;

/** The database of this process (created on first use from the platform's connection settings). */
export function db(): Database {
  current ??= poolDatabase(getDatabase().pool);
  return current;
}

/** Points this process at another database (unit tests, local tools); null goes back to the platform's. */
export function setDatabase(database: Database | null): void {
  current = database;
}

/** Whether this process can reach a database: inside a function, a build on Netlify, `npm start`, a test. */
export const hasDatabase = () => current !== null || Boolean(process.env.NETLIFY_DB_URL);

/** The Postgres error code of a failed statement (23505 a unique violation, 23503 a missing foreign row...). */
export function errorCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (cause: unknown) => errorCode(cause) === '23505';

/** A JSON value as a statement parameter (cast it with ::jsonb in the statement); NUL characters are dropped. */
export const json = (value: unknown) =>
  JSON.stringify(value ?? null, (_key, item) => (typeof item === 'string' ? item.replaceAll('\u0000', '') : item));

/** A timestamp column's value (a Date from either driver) as an ISO string; null stays null. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/** Like iso() for a column that is never null. */
export const isoOf = (value: unknown): string => iso(value) ?? new Date(0).toISOString();
