// A throwaway database (and blob server) for the records benches: PGlite served on the loopback address as
// `npm start` serves it (or any empty Postgres at a given address), the project's migrations applied, and the
// site's database module pointed at it through node-postgres, the driver production uses.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const root = new URL('../..', import.meta.url).pathname;

/**
 * Opens the database; `close()` ends the pool and removes the engine's folder. `database` is the caller's own
 * instance of src/platform/database.ts (a script run through jiti has its own), which is pointed at the pool.
 */
export async function throwawayDatabase({ url, log = () => {}, database }) {
  let stop = async () => {};
  let engineName = 'Postgres at --database-url';
  if (!url) {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const { serveDatabase } = await import(join(root, 'scripts/local/database.mjs'));
    const dir = await mkdtemp(join(tmpdir(), 'rpl-bench-db-'));
    const engine = await PGlite.create(dir, { extensions: { pg_trgm } });
    const served = await serveDatabase(engine, { log });
    url = served.url;
    engineName = `PGlite ${(await engine.query('SELECT version()')).rows[0].version.split(' ')[1]} (WebAssembly), served locally`;
    stop = async () => {
      await served.close();
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  database.setDatabase(database.poolDatabase(pool));
  const { applyMigrations } = await import('@netlify/database-dev');
  const client = await pool.connect();
  const executor = {
    exec: (text) => client.query(text),
    query: (text, params) => client.query(text, params),
    async transaction(work) {
      await client.query('BEGIN');
      try {
        const result = await work(executor);
        await client.query('COMMIT');
        return result;
      } catch (cause) {
        await client.query('ROLLBACK');
        throw cause;
      }
    },
  };
  await applyMigrations(executor, join(root, 'netlify/database/migrations'));
  client.release();
  return {
    engineName,
    pool,
    async close() {
      await pool.end();
      await stop();
    },
  };
}

/** A local blob server in a temporary folder, and the site's stores pointed at it. */
export async function throwawayBlobs() {
  const { BlobsServer } = await import('@netlify/blobs/server');
  const { setEnvironmentContext } = await import('@netlify/blobs');
  const directory = await mkdtemp(join(tmpdir(), 'rpl-bench-blobs-'));
  const token = 'bench-blobs-token';
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const edgeURL = `http://127.0.0.1:${port}`;
  setEnvironmentContext({ siteID: 'bench', token, edgeURL, uncachedEdgeURL: edgeURL });
  return {
    async close() {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
