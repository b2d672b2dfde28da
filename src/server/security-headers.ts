/**
 * The one list of security headers. Static files get SITE_SECURITY_HEADERS from netlify.toml (a unit
 * test keeps the two equal: tests/unit/security-headers-config.test.ts); answers from functions and
 * pages rendered on request get SECURITY_HEADERS from code (src/server/http.ts, src/middleware.ts),
 * since Netlify's header rules only reach the files it serves itself. Each page's
 * Content-Security-Policy comes from Astro (scripts/postbuild-headers.mjs trims it).
 */
export const SITE_SECURITY_HEADERS = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const satisfies Record<string, string>;

/**
 * Function answers add a policy that loads nothing (pages rendered on request keep Astro's own) and keep
 * their bodies to this origin.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  ...SITE_SECURITY_HEADERS,
  'Cross-Origin-Resource-Policy': 'same-origin',
};
