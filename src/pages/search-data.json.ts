import type { APIRoute } from 'astro';
import { getCatalogue } from '../build/collections';

/**
 * The catalogue as the search islands need it (cards plus search terms), one static file built with
 * the site and loaded on first use by src/lib/search-data.ts; the index is built in the browser.
 */
export const prerender = true;

export const GET: APIRoute = async () => {
  const { summaries } = await getCatalogue();
  return new Response(
    JSON.stringify({
      courses: summaries.map(({ code, title, level, category, categoryName, about, featured, terms }) => ({
        code,
        title,
        level,
        category,
        categoryName,
        about,
        featured,
        terms,
      })),
    }),
    { headers: { 'content-type': 'application/json; charset=utf-8' } },
  );
};
