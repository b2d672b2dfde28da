import * as v from 'valibot';
import { purgeTags } from './cdn.ts';
import { db, iso, json, sql } from '../platform/database.ts';
import { SiteSettingsSchema, type SiteSettings } from '../schemas/site-settings.ts';
import { defaultSiteSettings } from '../lib/site-settings.ts';

/**
 * The site settings (contact details, social links, business details, partner RTOs, marketing claims, fees): one
 * row of `site_settings`, saved whole with a version that grows by one with every save, and every saved version
 * kept in `site_settings_versions`. A save names the version it was based on and is refused when someone saved
 * in between, so one tab never silently replaces another's change.
 */
export const SETTINGS_CACHE_TAG = 'site-settings';

export interface StoredSettings extends SiteSettings {
  /** 1 for the first save, one more for each save after it; 0 while nothing was saved. */
  version: number;
  updatedAt: string;
  updatedBy: string;
}

export type ReadSettings = SiteSettings & { version: number } & Partial<
    Pick<StoredSettings, 'updatedAt' | 'updatedBy'>
  >;

interface SettingsRow {
  data: unknown;
  version: number;
  updated_at: Date;
  updated_by: string;
}

/** The stored row as the admin reads it, or the built-in defaults when there is none or it is invalid. */
function fromRow(row: SettingsRow | undefined): ReadSettings {
  if (!row) return { ...defaultSiteSettings, version: 0 };
  const { version } = row;
  // Settings saved before a group existed (business, partner RTOs, claims, fees) keep that group's defaults.
  const parsed = v.safeParse(SiteSettingsSchema, { ...defaultSiteSettings, ...(row.data as object) });
  if (!parsed.success) {
    console.error('Stored site settings are invalid; showing the defaults.', parsed.issues[0]?.message);
    return { ...defaultSiteSettings, version };
  }
  return { ...parsed.output, version, updatedAt: iso(row.updated_at) ?? '', updatedBy: row.updated_by };
}

/** The saved settings with their version, or the built-in defaults when nothing (valid) was saved yet. */
export async function readSettings(): Promise<ReadSettings> {
  const [row] = await db().query<SettingsRow>(
    sql`SELECT data, version, updated_at, updated_by FROM site_settings WHERE id = 1`,
  );
  return fromRow(row);
}

export type SaveSettingsResult =
  | { ok: true; settings: StoredSettings }
  | { ok: false; current: ReadSettings & { updatedBy?: string } };

/**
 * Saves validated settings if the stored ones still have `baseVersion` (else gives back the newer ones and
 * changes nothing), then drops the CDN copy of the public answer. The version check is the condition of the
 * write itself (the first save inserts the row only if there is none; later ones update it only at
 * `baseVersion`), so of two saves from one version exactly one lands. The caller asks for the rebuild of the
 * pages (requestRebuild in rebuild.ts), as a catalogue save does.
 */
export async function saveSettings(
  settings: SiteSettings,
  baseVersion: number,
  updatedBy: string,
): Promise<SaveSettingsResult> {
  // Settings as read carry their stamp; only the settings themselves are stored as data.
  const { version: _version, updatedAt: _at, updatedBy: _by, ...fields } = settings as ReadSettings;
  const record: StoredSettings = {
    ...fields,
    version: baseVersion + 1,
    updatedAt: new Date().toISOString(),
    updatedBy,
  };
  const data = json(fields);
  const saved = await db().transaction(async (tx) => {
    const [row] = await tx.query<{ version: number }>(
      baseVersion === 0
        ? sql`INSERT INTO site_settings (id, data, version, updated_at, updated_by)
              VALUES (1, ${data}::jsonb, 1, ${record.updatedAt}, ${updatedBy})
              ON CONFLICT (id) DO NOTHING
              RETURNING version`
        : sql`UPDATE site_settings
              SET data = ${data}::jsonb, version = version + 1, updated_at = ${record.updatedAt}, updated_by = ${updatedBy}
              WHERE id = 1 AND version = ${baseVersion}
              RETURNING version`,
    );
    if (!row) return false;
    await tx.query(sql`INSERT INTO site_settings_versions (version, data, updated_at, updated_by)
                       VALUES (${row.version}, ${data}::jsonb, ${record.updatedAt}, ${updatedBy})`);
    return true;
  });
  if (!saved) return { ok: false, current: await readSettings() };
  await purgeTags([SETTINGS_CACHE_TAG]);
  return { ok: true, settings: record };
}
