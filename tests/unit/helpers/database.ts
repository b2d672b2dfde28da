import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { applyMigrations } from '@netlify/database-dev';
import { inProcessDatabase, setDatabase, type Database } from '../../../src/platform/database.ts';

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
  db: Database;
  /** The engine itself, for statements a test makes directly. */
  engine: PGlite;
  stop(): Promise<void>;
}

/**
 * A fresh database with every migration applied, used by all store code of this test file (setDatabase).
 * Call in beforeAll (or beforeEach for a clean slate) and stop it in afterAll.
 */
export async function startDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplate();
  const engine = await PGlite.create({
    loadDataDir: new Blob([readFileSync(template)]),
    extensions: { pg_trgm },
  });
  const db = inProcessDatabase(engine);
  setDatabase(db);
  return {
    db,
    engine,
    async stop() {
      setDatabase(null);
      await engine.close();
    },
  };
}
