import { purgeCache } from '@netlify/functions';

/**
 * Drops the CDN's copies of answers carrying any of these cache tags. On Netlify this is the purge
 * API; under `npm start` the local CDN stand-in (scripts/compressing-proxy.mjs) answers the same call,
 * so cached pages behave locally as they do in production (with the secret `npm start` generates, so
 * visitors cannot purge). A failed purge is logged, never thrown:
 * the write it follows has already happened.
 */
export async function purgeTags(tags: string[]): Promise<void> {
  const local = process.env.LOCAL_CDN_URL;
  try {
    if (local) await purgeCache({ tags, apiURL: local, token: process.env.LOCAL_CDN_TOKEN ?? '', siteID: 'local' });
    else await purgeCache({ tags });
  } catch (cause) {
    if (local || process.env.NETLIFY_PURGE_API_TOKEN)
      console.error(`Could not purge the CDN cache for ${tags.join(', ')}:`, cause);
  }
}
