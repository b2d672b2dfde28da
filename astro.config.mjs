// @ts-check
import { defineConfig, fontProviders } from 'astro/config';
import react from '@astrojs/react';
import netlify from '@astrojs/netlify';
import sitemap from '@astrojs/sitemap';
import interactionDirective from './src/directives/integration.mjs';
import { inlineScriptHashes, inlineStyleHashes } from './src/lib/inline-scripts.mjs';

const site = process.env.SITE_URL ?? process.env.URL ?? 'https://rplpathways.com.au';

export default defineConfig({
  site,
  output: 'static',
  scopedStyleStrategy: 'class',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'auto' },
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
  // Self-hosted from the npm font packages (Kumbh Sans 400 and 700; 600 maps to 700); Astro adds metric-matched fallbacks so the swap does not shift layout.
  // Body text swaps (the hero paragraph is the mobile LCP element and must paint at once); headings stay 'optional'.
  fonts: [
    {
      provider: fontProviders.local(),
      name: 'Kumbh Sans',
      cssVariable: '--font-kumbh-sans',
      fallbacks: ['Arial', 'sans-serif'],
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
      fallbacks: ['Arial', 'sans-serif'],
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
  // Stylesheets above this size are linked (cached across pages), not inlined: page HTML has to fit the first round trip.
  // lucide-react is bundled into the server code too, so a cold function loads the few icons the pages use instead of
  // the package's whole CommonJS build (about a quarter less CPU for each on-demand page that starts cold).
  vite: { build: { assetsInlineLimit: 1024 }, ssr: { noExternal: ['lucide-react'] } },
  prefetch: false,
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
