import * as v from 'valibot';
import { db, iso, json, sql } from '../platform/database.ts';
import { ReplyTemplateSchema, type ReplyTemplate, type ReplyTemplates } from '../schemas/replies.ts';

/**
 * The reply templates staff keep for the inbox: one row of `reply_templates`, the whole list with a version
 * that grows with every save (a save names the version it was loaded at and is refused when someone saved in
 * between). The site starts with the set the migration inserts as version 0.
 */

interface TemplatesRow {
  templates: unknown;
  version: number;
  updated_at: Date | null;
  updated_by: string | null;
}

const EMPTY: ReplyTemplates = { version: 0, templates: [] };

function fromRow(row: TemplatesRow | undefined): ReplyTemplates {
  if (!row) return EMPTY;
  const parsed = v.safeParse(v.array(ReplyTemplateSchema), row.templates);
  if (!parsed.success) {
    console.error('Stored reply templates are invalid; offering none.', parsed.issues[0]?.message);
    return { ...EMPTY, version: row.version };
  }
  return {
    version: row.version,
    templates: parsed.output,
    ...(row.updated_by ? { updatedBy: row.updated_by } : {}),
    ...(row.updated_at ? { updatedAt: iso(row.updated_at) ?? '' } : {}),
  };
}

export async function readTemplates(): Promise<ReplyTemplates> {
  const [row] = await db().query<TemplatesRow>(
    sql`SELECT templates, version, updated_at, updated_by FROM reply_templates WHERE id = 1`,
  );
  return fromRow(row);
}

/**
 * Saves the whole list if the stored one still has `baseVersion`; else gives back the newer one, changing
 * nothing. One conditional statement: of two saves from one version exactly one lands.
 */
export async function saveTemplates(
  templates: ReplyTemplate[],
  baseVersion: number,
  updatedBy: string,
): Promise<{ ok: true; saved: ReplyTemplates } | { ok: false; current: ReplyTemplates }> {
  const saved: ReplyTemplates = { version: baseVersion + 1, templates, updatedBy, updatedAt: new Date().toISOString() };
  const list = json(templates);
  const [row] = await db().query<{ version: number }>(
    baseVersion === 0
      ? // The row the migration inserts is version 0; should it be missing, the first save makes it.
        sql`INSERT INTO reply_templates (id, templates, version, updated_at, updated_by)
            VALUES (1, ${list}::jsonb, 1, ${saved.updatedAt}, ${updatedBy})
            ON CONFLICT (id) DO UPDATE
              SET templates = EXCLUDED.templates, version = 1, updated_at = EXCLUDED.updated_at,
                  updated_by = EXCLUDED.updated_by
              WHERE reply_templates.version = 0
            RETURNING version`
      : sql`UPDATE reply_templates
            SET templates = ${list}::jsonb, version = version + 1, updated_at = ${saved.updatedAt},
                updated_by = ${updatedBy}
            WHERE id = 1 AND version = ${baseVersion}
            RETURNING version`,
  );
  return row ? { ok: true, saved } : { ok: false, current: await readTemplates() };
}
