import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';

/**
 * Starts a real local Netlify Blobs server in a temporary folder and points every store at it, so
 * store modules and function handlers run against the same API they meet in production.
 * Use in beforeAll/afterAll (or beforeEach for a clean slate).
 */
export async function startBlobs() {
  const directory = await mkdtemp(join(tmpdir(), 'blobs-'));
  const token = 'unit-test-token';
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const edgeURL = `http://localhost:${port}`;
  setEnvironmentContext({ siteID: 'unit-test-site', token, edgeURL, uncachedEdgeURL: edgeURL });
  return {
    async stop() {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
