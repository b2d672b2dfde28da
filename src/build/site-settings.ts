/**
 * Build-time data for the pre-rendered pages: the settings staff saved, read from the database.
 * It sits above src/server (it reads through it) and below the components and pages that show it.
 */
import type { SiteSettings } from '../schemas/site-settings';
import { defaultSiteSettings, publicSettings } from '../lib/site-settings';
import { readSettings } from '../server/settings';
import { hasDatabase } from '../platform/database';

let buildTimeSettings: Promise<SiteSettings> | undefined;

/**
 * The settings the pre-rendered header, footer and contact page show: the ones staff saved (read from
 * the database when the build can reach one, as on Netlify and under `npm start`), else the defaults. Read once per build. In the browser a small script refreshes them from the public API, so a
 * save shows before the next build finishes.
 */
export function getSiteSettings(): Promise<SiteSettings> {
  buildTimeSettings ??= (async () => {
    if (!hasDatabase()) return defaultSiteSettings;
    try {
      return publicSettings(await readSettings());
    } catch (cause) {
      console.warn('Site settings: could not read the saved settings, using the defaults.', cause);
      return defaultSiteSettings;
    }
  })();
  return buildTimeSettings;
}
