// @ts-check
import { defineConfig, fontProviders } from 'astro/config';
import react from '@astrojs/react';
import netlify from '@astrojs/netlify';
import sitemap from '@astrojs/sitemap';
import interactionDirective from './src/directives/integration.mjs';
import { inlineScriptHashes, inlineStyleHashes } from './src/lib/csp-hashes.mjs';

const site = process.env.SITE_URL ?? process.env.URL ?? 'https://rplpathways.com.au';

/**
 * React's production build on the server. Netlify sets no NODE_ENV when a function runs, so a React loaded from
 * node_modules there picks its development build (two to four times slower to render, with its checks). Built
 * into the server bundle instead, with NODE_ENV replaced when the site is built, the production build is the only
 * one in the bundle. Only for builds: `astro dev` keeps React's development build and its warnings.
 */
const productionReactOnTheServer = {
  name: 'rpl:production-react-on-the-server',
  /** @param {unknown} _config @param {{ command: string }} env */
  config: (_config, { command }) =>
    command === 'build'
      ? {
          define: { 'process.env.NODE_ENV': JSON.stringify('production') },
          ssr: { noExternal: ['react', 'react-dom', 'scheduler', '@astrojs/react'] },
        }
      : undefined,
};

export default defineConfig({
  site,
  output: 'static',
  scopedStyleStrategy: 'class',
  trailingSlash: 'never',
  // Every page carries its CSS in <style> elements (hashed into its CSP like any inline style), so nothing blocks the
  // first paint on a second request: over slow 4G a linked stylesheet costs a round trip or a new connection, more
  // than the few kilobytes (compressed) the styles add to the document. One bundled stylesheet per page measured slower.
  build: { format: 'file', inlineStylesheets: 'always' },
  adapter: netlify({ staticHeaders: true, imageCDN: false }),
  integrations: [
    react(),
    interactionDirective(),
    sitemap({
      filter: (page) =>
        !page.includes('/admin') &&
        !page.includes('/course-not-found') &&
        !page.includes('/category-not-found') &&
        // The private applicant page: opened from an e-mailed link only.
        !page.includes('/apply') &&
        // The consent withdrawal page: opened from a signed e-mail link only.
        !page.includes('/marketing-withdrawal'),
      // Blog posts change without a deploy: /sitemap-blog.xml is rendered on request (src/pages/sitemap-blog.xml.ts).
      customSitemaps: [new URL('/sitemap-blog.xml', site).href],
    }),
  ],
  security: {
    csp: {
      algorithm: 'SHA-256',
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "media-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        'upgrade-insecure-requests',
      ],
      scriptDirective: { hashes: inlineScriptHashes },
      styleDirective: { hashes: inlineStyleHashes },
    },
  },
  // Self-hosted from the npm font packages (Kumbh Sans 400 and 700; 600 maps to 700). Text paints at once in a system
  // font adjusted to each brand font and weight (src/styles/font-fallbacks.css, measured from these files by
  // scripts/font-fallbacks.mjs); body text then swaps to Kumbh Sans (preloaded) without moving. Astro's own
  // fallbacks name only local("Arial"), which phones and Linux lack, so they are off.
  fonts: [
    {
      provider: fontProviders.local(),
      name: 'Kumbh Sans',
      cssVariable: '--font-kumbh-sans',
      fallbacks: ['Kumbh Sans fallback', 'Arial', 'sans-serif'],
      optimizedFallbacks: false,
      display: 'swap',
      options: {
        variants: [
          {
            weight: 400,
            style: 'normal',
            src: ['./node_modules/@fontsource/kumbh-sans/files/kumbh-sans-latin-400-normal.woff2'],
          },
          {
            weight: 700,
            style: 'normal',
            src: ['./node_modules/@fontsource/kumbh-sans/files/kumbh-sans-latin-700-normal.woff2'],
          },
        ],
      },
    },
    {
      provider: fontProviders.local(),
      name: 'Urbanist',
      cssVariable: '--font-urbanist',
      fallbacks: ['Urbanist fallback', 'Arial', 'sans-serif'],
      optimizedFallbacks: false,
      // Headings keep 'optional': not preloaded, a first visit over a slow network keeps the adjusted stand-in
      // for the whole page (cached, the brand font shows on the next page). With 'swap' a heading near a line's
      // end could wrap one word differently when Urbanist arrived (Lighthouse mobile measured CLS 0.03).
      display: 'optional',
      options: {
        variants: [
          {
            weight: '100 900',
            style: 'normal',
            src: ['./node_modules/@fontsource-variable/urbanist/files/urbanist-latin-wght-normal.woff2'],
          },
        ],
      },
    },
  ],
  // Assets (images, fonts) above 1 KB are files of their own, not data: URLs inside the CSS or scripts. A page script
  // with no imports of its own (the site script, src/scripts/site.ts) up to 12 KB travels inside the page instead:
  // a separate file would be one more request before the first paint on a slow phone.
  // lucide-react is bundled into the server code too, so a cold function loads the few icons the pages use instead of
  // the package's whole CommonJS build (about a quarter less CPU for each on-demand page that starts cold).
  vite: {
    build: { assetsInlineLimit: (file, content) => content.byteLength < (file.endsWith('.js') ? 12 * 1024 : 1024) },
    ssr: { noExternal: ['lucide-react'] },
    plugins: [productionReactOnTheServer],
    // Scripts bundled whole with `?worker&url` (the settings refresh, src/scripts/settings-refresh-run.ts) are ES modules:
    // V8 compiles a module's functions when first called, where a wrapped script (iife) is compiled whole at once.
    worker: { format: 'es' },
  },
  prefetch: false,
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
