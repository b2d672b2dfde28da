import * as v from 'valibot';
import { purgeTags } from './cdn.ts';
import { dataStore, updateJSON } from './blobs.ts';
import { SiteSettingsSchema, type SiteSettings } from '../schemas/site-settings.ts';
import { defaultSiteSettings } from '../lib/site-settings.ts';

/**
 * The `settings` store holds one entry, `site`: contact details, social links, business details, partner
 * RTOs and marketing claims, with a version that grows with every save. A save names the version it was
 * based on and is refused when someone saved in between, so one tab never silently replaces another's change.
 */
const KEY = 'site';
export const SETTINGS_CACHE_TAG = 'site-settings';

export interface StoredSettings extends SiteSettings {
  /** 1 for the first save, one more for each save after it; settings saved before versions count as 0. */
  version: number;
  updatedAt: string;
  updatedBy: string;
}

export type ReadSettings = SiteSettings & { version: number } & Partial<
    Pick<StoredSettings, 'updatedAt' | 'updatedBy'>
  >;

/** The saved version of a stored entry (0 when nothing, or nothing versioned, was saved). */
function versionOf(stored: unknown): number {
  const version = (stored as { version?: unknown } | null)?.version;
  return typeof version === 'number' && Number.isInteger(version) && version > 0 ? version : 0;
}

/** A stored entry as the admin reads it, or the built-in defaults when it is missing or invalid. */
function fromStored(stored: unknown): ReadSettings {
  const version = versionOf(stored);
  if (!stored || typeof stored !== 'object') return { ...defaultSiteSettings, version };
  // Settings saved before the business, partner RTO and claim groups existed keep their defaults.
  const parsed = v.safeParse(SiteSettingsSchema, { ...defaultSiteSettings, ...stored });
  if (!parsed.success) {
    console.error('Stored site settings are invalid; showing the defaults.', parsed.issues[0]?.message);
    return { ...defaultSiteSettings, version };
  }
  const { updatedAt, updatedBy } = stored as Partial<StoredSettings>;
  return { ...parsed.output, version, ...(updatedAt ? { updatedAt } : {}), ...(updatedBy ? { updatedBy } : {}) };
}

/** The saved settings with their version, or the built-in defaults when nothing (valid) was saved yet. */
export async function readSettings(): Promise<ReadSettings> {
  return fromStored(await dataStore('settings').get(KEY, { type: 'json' }));
}

export type SaveSettingsResult =
  | { ok: true; settings: StoredSettings }
  | { ok: false; current: ReadSettings & { updatedBy?: string } };

/**
 * Saves validated settings if the stored ones still have `baseVersion` (else gives back the newer ones and
 * changes nothing), then drops the CDN copy of the public answer. The caller asks for the rebuild of the pages
 * (requestRebuild in rebuild.ts), as a catalogue save does.
 */
export async function saveSettings(
  settings: SiteSettings,
  baseVersion: number,
  updatedBy: string,
): Promise<SaveSettingsResult> {
  const record: StoredSettings = {
    ...settings,
    version: baseVersion + 1,
    updatedAt: new Date().toISOString(),
    updatedBy,
  };
  let newer: unknown = null;
  let stale = false;
  await updateJSON<unknown>(dataStore('settings'), KEY, (current) => {
    stale = versionOf(current) !== baseVersion;
    newer = current;
    return stale ? undefined : record;
  });
  if (stale) return { ok: false, current: fromStored(newer) };
  await purgeTags([SETTINGS_CACHE_TAG]);
  return { ok: true, settings: record };
}
