// A page's Content-Security-Policy with exactly the hashes of the inline scripts and styles that page
// contains. Astro lists every hash it knows on every page; since every page carries its CSS inline, that
// list grew to kilobytes, all sent before the page's first byte. Used by scripts/postbuild-headers.mjs for
// pre-rendered pages and by src/middleware.ts for pages rendered on request.
import { createHash } from 'node:crypto';

/** @param {string} text */
const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Hashes of a page's inline scripts (not external ones or JSON-LD data) or styles, as CSP sources.
 * @param {string} html
 * @param {'script' | 'style'} tag
 */
export function inlineHashes(html, tag) {
  const found = new Set();
  const pattern = new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi');
  for (const [, attributes = '', body] of html.matchAll(pattern)) {
    if (tag === 'script' && /\bsrc=|type="application\/ld\+json"/i.test(attributes)) continue;
    found.add(hash(body));
  }
  return found;
}

/**
 * The policy's directives in order, each with its sources.
 * @param {string} policy
 * @returns {Map<string, string[]>}
 */
export function parsePolicy(policy) {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name, sources];
      }),
  );
}

/** @param {Map<string, string[]>} directives */
export const serializePolicy = (directives) =>
  [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');

/**
 * `policy` with exactly these hashes in the named directives (other sources kept as they are); the
 * number of hashes dropped.
 * @param {string} policy
 * @param {Record<string, Set<string>>} keep e.g. { 'script-src': Set, 'style-src': Set }
 */
export function withHashes(policy, keep) {
  const directives = parsePolicy(policy);
  let dropped = 0;
  for (const [name, allowed] of Object.entries(keep)) {
    const sources = directives.get(name);
    if (!sources) continue;
    // Exactly the page's own hashes: Astro's list can also miss one (a stylesheet whose hash a layout
    // inserts after the route's policy was settled), which would block that stylesheet.
    dropped += sources.filter((source) => source.startsWith("'sha256-") && !allowed.has(source)).length;
    directives.set(name, [...sources.filter((source) => !source.startsWith("'sha256-")), ...allowed]);
  }
  return { policy: serializePolicy(directives), dropped };
}

/**
 * The policy for one page: its own inline scripts and styles, nothing else.
 * @param {string} policy
 * @param {string} html
 */
export const pagePolicy = (policy, html) =>
  withHashes(policy, { 'script-src': inlineHashes(html, 'script'), 'style-src': inlineHashes(html, 'style') }).policy;
