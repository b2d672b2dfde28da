import * as v from 'valibot';
import { purgeTags } from './cdn.ts';
import { dataStore } from './blobs.ts';
import { SiteSettingsSchema, type SiteSettings } from '../schemas/site-settings.ts';
import { defaultSiteSettings } from '../lib/site-settings.ts';

/**
 * The `settings` store holds one entry, `site`: contact details, social links, business details, partner
 * RTOs and marketing claims.
 */
const KEY = 'site';
export const SETTINGS_CACHE_TAG = 'site-settings';

export interface StoredSettings extends SiteSettings {
  updatedAt: string;
  updatedBy: string;
}

/** The saved settings, or the built-in defaults when nothing (valid) was saved yet. */
export async function readSettings(): Promise<SiteSettings & Partial<Pick<StoredSettings, 'updatedAt' | 'updatedBy'>>> {
  const stored = await dataStore('settings').get(KEY, { type: 'json' });
  if (!stored || typeof stored !== 'object') return defaultSiteSettings;
  // Settings saved before the business, partner RTO and claim groups existed keep their defaults.
  const parsed = v.safeParse(SiteSettingsSchema, { ...defaultSiteSettings, ...stored });
  if (!parsed.success) {
    console.error('Stored site settings are invalid; showing the defaults.', parsed.issues[0]?.message);
    return defaultSiteSettings;
  }
  const { updatedAt, updatedBy } = stored as Partial<StoredSettings>;
  return { ...parsed.output, ...(updatedAt ? { updatedAt } : {}), ...(updatedBy ? { updatedBy } : {}) };
}

export type RebuildState = 'started' | 'not-configured' | 'failed';

/** Saves validated settings, drops the CDN copy of the public answer and asks for a rebuild of the pages. */
export async function saveSettings(
  settings: SiteSettings,
  updatedBy: string,
): Promise<{ settings: StoredSettings; rebuild: RebuildState }> {
  const record: StoredSettings = { ...settings, updatedAt: new Date().toISOString(), updatedBy };
  await dataStore('settings').setJSON(KEY, record);
  await purgeTags([SETTINGS_CACHE_TAG]);
  return { settings: record, rebuild: await triggerRebuild() };
}

/** Pre-rendered pages carry the settings in their HTML; a build hook refreshes them in production. */
export async function triggerRebuild(): Promise<RebuildState> {
  const hook = process.env.BUILD_HOOK_URL;
  if (!hook) return 'not-configured';
  try {
    const url = new URL(hook);
    if (url.protocol !== 'https:') throw new Error('BUILD_HOOK_URL must be an https address');
    const response = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`build hook answered ${response.status}`);
    return 'started';
  } catch (cause) {
    // The message only: an error object can carry the hook's address, which is a secret.
    console.error(
      'Could not start a rebuild after saving settings:',
      cause instanceof Error ? cause.message : String(cause),
    );
    return 'failed';
  }
}
