import type { APIRoute } from 'astro';
import { siFacebook, siInstagram, siYoutube } from 'simple-icons';

/**
 * The brand glyphs (simple-icons; Lucide ships no brand marks) as one cached SVG sprite, referenced by
 * every social link with <use href="/images/social-icons.svg#icon-…">, so pages do not carry the paths.
 */
const icons = { facebook: siFacebook, instagram: siInstagram, youtube: siYoutube };

export const GET: APIRoute = () =>
  new Response(
    `<svg xmlns="http://www.w3.org/2000/svg">${Object.entries(icons)
      .map(([name, icon]) => `<symbol id="icon-${name}" viewBox="0 0 24 24"><path d="${icon.path}"/></symbol>`)
      .join('')}</svg>`,
    { headers: { 'Content-Type': 'image/svg+xml' } },
  );
