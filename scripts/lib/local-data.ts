// Connects the site's store code, run from a command on this machine, to the records and files of either the
// local site (`npm start`'s database and blob store in .netlify/) or a deployed site.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import pg from 'pg';
import { inProcessDatabase, poolDatabase, setDatabase } from '../../src/platform/database.ts';

/** Where `netlify serve`/`netlify dev` keep blobs for a project that is not linked to a site. */
export const LOCAL_BLOBS_DIRECTORY = new URL('../../.netlify/blobs-serve', import.meta.url).pathname;
export const LOCAL_SITE_ID = 'unlinked';
/** The local database's folder (scripts/local/database.mjs writes server.pid there while it serves it). */
export const LOCAL_DATABASE_DIRECTORY = new URL('../../.netlify/db', import.meta.url).pathname;
const MIGRATIONS = new URL('../../netlify/database/migrations', import.meta.url).pathname;

/** The address of the local database server while one runs (its pid file names a live process), else null. */
export function runningLocalDatabase(): string | null {
  const pidFile = `${LOCAL_DATABASE_DIRECTORY}/server.pid`;
  if (!existsSync(pidFile)) return null;
  const [pid, url] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return url || null;
  } catch {
    return null;
  }
}

export interface LocalData {
  label: string;
  close(): Promise<void>;
}

/**
 * Points the store modules at a deployed site (`site` with a personal access token for its files, and
 * `databaseUrl`, the connection string of its database) or at the local site. Locally the database is the running
 * server's (NETLIFY_DB_URL, or the one named in .netlify/db/server.pid), or, while the site is stopped, the folder
 * itself opened in this process with the migrations applied; the blob folder is served by a short-lived server.
 */
export async function openLocalData(options: {
  site?: string;
  token?: string;
  databaseUrl?: string;
}): Promise<LocalData> {
  if (options.site || options.databaseUrl) {
    if (!options.site || !options.databaseUrl)
      throw new Error('To manage a deployed site give both --site <site id> and --database-url <connection string>.');
    if (!options.token) throw new Error('Set NETLIFY_AUTH_TOKEN to a personal access token to manage a deployed site.');
    setEnvironmentContext({ siteID: options.site, token: options.token, apiURL: 'https://api.netlify.com' });
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
    setDatabase(poolDatabase(pool));
    return { label: `site ${options.site}`, close: () => pool.end() };
  }
  mkdirSync(LOCAL_BLOBS_DIRECTORY, { recursive: true });
  const token = crypto.randomUUID();
  const server = new BlobsServer({ directory: LOCAL_BLOBS_DIRECTORY, token });
  const { port } = await server.start();
  const edgeURL = `http://localhost:${port}`;
  setEnvironmentContext({ siteID: LOCAL_SITE_ID, token, edgeURL, uncachedEdgeURL: edgeURL });

  const url = process.env.NETLIFY_DB_URL || runningLocalDatabase();
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    setDatabase(poolDatabase(pool));
    return {
      label: 'the local site',
      close: async () => {
        await pool.end();
        await server.stop();
      },
    };
  }
  // Nothing serves the folder: open it here (never while a server has it: PGlite is one process's alone).
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { applyMigrations } = await import('@netlify/database-dev');
  mkdirSync(LOCAL_DATABASE_DIRECTORY, { recursive: true });
  const engine = await PGlite.create(LOCAL_DATABASE_DIRECTORY, { extensions: { pg_trgm } });
  await applyMigrations(engine, MIGRATIONS);
  setDatabase(inProcessDatabase(engine));
  return {
    label: 'the local site',
    close: async () => {
      await engine.close();
      await server.stop();
    },
  };
}
