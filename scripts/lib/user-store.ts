// Connects the store modules to either the local blob store the Netlify CLI uses, or a deployed site.
import { mkdirSync } from 'node:fs';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';

/** Where `netlify serve`/`netlify dev` keep blobs for a project that is not linked to a site. */
export const LOCAL_BLOBS_DIRECTORY = new URL('../../.netlify/blobs-serve', import.meta.url).pathname;
export const LOCAL_SITE_ID = 'unlinked';

export async function openUserStore(options: { site?: string; token?: string }) {
  if (options.site) {
    if (!options.token) throw new Error('Set NETLIFY_AUTH_TOKEN to a personal access token to manage a deployed site.');
    setEnvironmentContext({ siteID: options.site, token: options.token, apiURL: 'https://api.netlify.com' });
    return { label: `site ${options.site}`, close: async () => {} };
  }
  // The local store is a folder of files; a short-lived server of our own reads and writes the same
  // folder the running site uses, so this works whether or not the site is running.
  mkdirSync(LOCAL_BLOBS_DIRECTORY, { recursive: true });
  const token = crypto.randomUUID();
  const server = new BlobsServer({ directory: LOCAL_BLOBS_DIRECTORY, token });
  const { port } = await server.start();
  const url = `http://localhost:${port}`;
  setEnvironmentContext({ siteID: LOCAL_SITE_ID, token, edgeURL: url, uncachedEdgeURL: url });
  return { label: 'the local store', close: () => server.stop() };
}
