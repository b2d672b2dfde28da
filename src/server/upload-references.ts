import { db, sql, type Sql } from '../platform/database.ts';

/**
 * Every place that can name an uploaded image: blog posts (content, rendered HTML, featured image) and their
 * saved revisions, the staff edits of the catalogue (category pictures, course texts), the site settings and
 * the reply templates. An image is only deleted when none of them mentions it.
 *
 * An id counts as used wherever its 32 hex digits appear, in whatever address form (a full URL, a narrower
 * copy, inside JSON), compared without case: an image is kept rather than lost when in doubt.
 */
const MENTIONED = (id: Sql) => sql`(
     EXISTS (SELECT 1 FROM blog_posts p
             WHERE strpos(lower(p.content), ${id}) > 0 OR strpos(lower(p.html), ${id}) > 0
                OR strpos(lower(p.featured_image), ${id}) > 0)
  OR EXISTS (SELECT 1 FROM blog_revisions r WHERE strpos(lower(r.content::text), ${id}) > 0)
  OR EXISTS (SELECT 1 FROM catalogue_courses c
             WHERE strpos(lower(c.edit::text), ${id}) > 0 OR strpos(lower(coalesce(c.added::text, '')), ${id}) > 0)
  OR EXISTS (SELECT 1 FROM catalogue_categories c WHERE strpos(lower(c.edit::text), ${id}) > 0)
  OR EXISTS (SELECT 1 FROM site_settings s WHERE strpos(lower(s.data::text), ${id}) > 0)
  OR EXISTS (SELECT 1 FROM reply_templates t WHERE strpos(lower(t.templates::text), ${id}) > 0))`;

/**
 * The ids among `candidates` (32 hex digits) that nothing mentions any more; if the check cannot be made,
 * none (so nothing is deleted).
 */
export async function unusedUploadIds(candidates: Iterable<string>): Promise<string[]> {
  const ids = [...new Set([...candidates].map((id) => id.toLowerCase()))].filter((id) => /^[a-f0-9]{32}$/.test(id));
  if (ids.length === 0) return [];
  try {
    const rows = await db().query<{ id: string }>(
      sql`SELECT candidate.id FROM unnest(${ids}::text[]) AS candidate(id) WHERE NOT ${MENTIONED(sql`candidate.id`)} ORDER BY candidate.id`,
    );
    return rows.map((row) => row.id);
  } catch (cause) {
    console.error('Uploads: could not check where images are used; none deleted.', String(cause));
    return [];
  }
}
