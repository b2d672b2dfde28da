/**
 * Where the code is running, as the platform tells it: the site's public address and the deploy context.
 *
 * The address is what every e-mailed link and every link shown on a screen starts with. It never comes from a
 * request's Host header (a visitor chooses that): `npm start` sets LOCAL_SITE_URL to its front door, an owner may
 * set SITE_URL (a custom domain), and Netlify gives every function URL, the site's main address.
 *
 * The deploy context is the current request's (`production`, `deploy-preview`, `branch-deploy`, or `dev` on this
 * machine): Netlify sets it on the request's Context, which a function can read through the `Netlify` global at
 * any depth of the code, not only in its handler. A build reads CONTEXT instead. `npm start` serves a production
 * build, so the CLI tells its functions `production`; the LOCAL_SITE_URL it sets is what marks this machine.
 */
const FALLBACK_ADDRESS = 'https://rplpathways.com.au';

export function siteAddress(): string {
  const address = process.env.LOCAL_SITE_URL || process.env.SITE_URL || process.env.URL || FALLBACK_ADDRESS;
  return address.replace(/\/+$/, '');
}

interface NetlifyGlobal {
  context?: { deploy?: { context?: string } } | null;
}

export function deployContext(): string {
  if (process.env.LOCAL_SITE_URL) return 'dev';
  const fromRequest = (globalThis as { Netlify?: NetlifyGlobal }).Netlify?.context?.deploy?.context;
  return fromRequest || process.env.CONTEXT || 'dev';
}

/**
 * Deploy previews and branch deploys run code nobody has reviewed yet, beside production. What they write must
 * never reach production's files (their database is a branch of its own already).
 */
export const isPreview = () => ['deploy-preview', 'branch-deploy'].includes(deployContext());
