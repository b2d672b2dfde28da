import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { applyMigrations } from '@netlify/database-dev';
import pg from 'pg';
import { serveDatabase } from '../../../scripts/local/database.mjs';
import {
  db,
  poolDatabase,
  setDatabase,
  type Database,
  type Queryable,
  type Sql,
} from '../../../src/platform/database.ts';

/**
 * Unit tests run the repositories against Postgres in process (PGlite, the engine of the local database) with
 * the project's real migrations. Building a database and applying every migration takes seconds, so it is done
 * once per set of migrations (the file name carries their hash) and each test file starts from a copy of it.
 */
const MIGRATIONS = join(import.meta.dirname, '../../../netlify/database/migrations');

function templatePath(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).sort()) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  return join(tmpdir(), `rpl-site-db-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Makes the migrated template if it is missing (vitest's global setup calls it once per run). */
export async function ensureTemplate(): Promise<string> {
  const path = templatePath();
  if (existsSync(path)) return path;
  const engine = await PGlite.create({ extensions: { pg_trgm } });
  await applyMigrations(engine, MIGRATIONS);
  const dump = await engine.dumpDataDir('none');
  await engine.close();
  const partial = `${path}.${process.pid}.part`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  return path;
}

export interface TestDatabase {
  /** What the site's code uses (node-postgres over the wire, as in production). */
  db: Database;
  /** The engine itself, for statements a test makes directly (and its own PGlite result types). */
  engine: PGlite;
  stop(): Promise<void>;
}

/**
 * A fresh database with every migration applied, used by all store code of this test file (setDatabase). It is
 * served on the loopback address as `npm start` serves its local database, and the code reaches it through a
 * node-postgres pool of several connections: the same driver, type parsing and interleaving of connections as
 * in production. Call in beforeAll (or beforeEach for a clean slate) and stop it in afterAll.
 */
export async function startDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const engine = await PGlite.create({
    loadDataDir: new Blob([readFileSync(template)]),
    extensions: { pg_trgm },
  });
  const served = await serveDatabase(engine, { log: () => {} });
  const pool = new pg.Pool({ connectionString: served.url, max: 8 });
  const db = poolDatabase(pool);
  setDatabase(db);
  return {
    db,
    engine,
    async stop() {
      setDatabase(null);
      await pool.end();
      await served.close();
      await engine.close();
    },
  };
}

export interface Statement {
  text: string;
  rows: number;
}

/**
 * Runs `work` with every statement of this process's database recorded (its text and how many rows it answered),
 * so a test can show that a page reads its own rows and never a whole table.
 */
export async function watchStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
  const watched = db();
  const statements: Statement[] = [];
  const recording = (q: Queryable): Queryable => ({
    async query<R>(statement: Sql) {
      const rows = await q.query<R>(statement);
      statements.push({ text: statement.text.replace(/\s+/g, ' ').trim(), rows: rows.length });
      return rows;
    },
  });
  setDatabase({
    ...recording(watched),
    transaction: (inner) => watched.transaction((tx) => inner(recording(tx))),
  });
  try {
    return { result: await work(), statements };
  } finally {
    setDatabase(watched);
  }
}
