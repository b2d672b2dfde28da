import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { listPublished } from '../server/blog-reads';
import { listCacheHeaders } from '../server/blog-http';
import site from '../../content/site.json';

// The blog's RSS feed: the 20 newest published posts. Rendered on request, cached at the CDN and purged
// with the blog list on every write.
export const prerender = false;

export const GET: APIRoute = async (context) => {
  const { blogs } = await listPublished({ page: 1, limit: 20 });
  const response = await rss({
    title: `${site.name} Blog`,
    description: 'Plain-English guides to Recognition of Prior Learning in Australia.',
    site: context.site!,
    items: blogs.map((blog) => ({
      title: blog.title,
      link: `/blog/${blog.slug}`,
      pubDate: new Date(blog.publishedAt ?? blog.createdAt),
      description: blog.excerpt,
      author: blog.author,
      categories: [blog.category, ...blog.tags],
    })),
    customData: '<language>en-au</language>',
    trailingSlash: false,
  });
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(listCacheHeaders())) headers.set(name, value);
  headers.set('Content-Type', 'application/rss+xml; charset=utf-8');
  return new Response(response.body, { status: response.status, headers });
};
