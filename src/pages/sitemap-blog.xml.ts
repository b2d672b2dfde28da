import type { APIRoute } from 'astro';
import { listPublished } from '../server/blog-reads';
import { listCacheHeaders } from '../server/blog-http';

// Posts change without a deploy, so they get their own sitemap, rendered on request (and cached until a
// blog write purges it). The build's sitemap index lists it (customSitemaps in astro.config.mjs).
export const prerender = false;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const GET: APIRoute = async (context) => {
  const { blogs } = await listPublished({ page: 1, limit: 50_000 });
  const url = (path: string) => new URL(path, context.site).href;
  const newest = blogs[0]?.updatedAt;
  const entries = [
    `<url><loc>${url('/blog')}</loc>${newest ? `<lastmod>${newest}</lastmod>` : ''}</url>`,
    ...blogs.map(
      (blog) => `<url><loc>${escapeXml(url(`/blog/${blog.slug}`))}</loc><lastmod>${blog.updatedAt}</lastmod></url>`,
    ),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { ...listCacheHeaders(), 'Content-Type': 'application/xml; charset=utf-8' } });
};
