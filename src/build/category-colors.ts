import { createHash } from 'node:crypto';
import type { AstroGlobal } from 'astro';
import { getCatalogue } from './collections';

/**
 * The category colour stylesheet (staff can edit the colours, so it comes from the catalogue), with its
 * hash added to the page's Content-Security-Policy. The layout calls this for every page; a server-rendered
 * page settles its CSP header before the layout renders, so those pages call it in their own frontmatter too.
 */
export async function categoryColorsStyle(csp: AstroGlobal['csp']): Promise<string> {
  const { categoryColorsCss } = await getCatalogue();
  csp?.insertStyleHash(`sha256-${createHash('sha256').update(categoryColorsCss).digest('base64')}`);
  return categoryColorsCss;
}
