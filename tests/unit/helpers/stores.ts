import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { startDatabase } from './database.ts';

/**
 * The site's two stores for a test file, as production has them: a fresh database with every migration applied
 * (records; tests/unit/helpers/database.ts) and a real local Netlify Blobs server in a temporary folder (files),
 * with every store module and function handler pointed at them.
 * Use in beforeAll/afterAll (or beforeEach for a clean slate).
 */
export async function startStores() {
  const directory = await mkdtemp(join(tmpdir(), 'blobs-'));
  const token = 'unit-test-token';
  const server = new BlobsServer({ directory, token });
  const [{ port }, database] = await Promise.all([server.start(), startDatabase()]);
  const edgeURL = `http://localhost:${port}`;
  // The deploy the functions belong to, as the platform tells them (a preview's files are kept by its deploy).
  setEnvironmentContext({
    siteID: 'unit-test-site',
    deployID: '0123456789abcdef01234567',
    primaryRegion: 'us-east-2',
    token,
    edgeURL,
    uncachedEdgeURL: edgeURL,
  });
  return {
    db: database.db,
    /** The database engine, for statements a test makes directly. */
    engine: database.engine,
    async stop() {
      await Promise.all([server.stop(), database.stop()]);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
