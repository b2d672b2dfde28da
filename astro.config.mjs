// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import netlify from '@astrojs/netlify';
import sitemap from '@astrojs/sitemap';
import interactionDirective from './src/directives/integration.mjs';
import { inlineScriptHashes } from './src/lib/inline-scripts.mjs';

export default defineConfig({
  site: process.env.SITE_URL ?? process.env.URL ?? 'https://rplpathways.com.au',
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'always' },
  adapter: netlify({ staticHeaders: true, imageCDN: false }),
  integrations: [
    react(),
    interactionDirective(),
    sitemap({ filter: (page) => !page.includes('/admin') }),
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
    },
  },
  prefetch: false,
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
