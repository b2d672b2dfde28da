// After `astro build`: Astro writes one Content-Security-Policy per pre-rendered route into the
// Netlify framework config (.netlify/v1/config.json). Netlify matches "/about", but the local
// server matches the file it serves ("/about.html"), and not-found pages match no route at all.
// This adds the ".html" twins and a site-wide fallback policy (the union of every route's
// hashes, still without 'unsafe-inline'), so every HTML response carries a strict CSP.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { inlineHashes, parsePolicy, serializePolicy, withHashes } from '../src/lib/page-policy.mjs';

const file = new URL('../.netlify/v1/config.json', import.meta.url);
const config = JSON.parse(await readFile(file, 'utf8'));
const headers = config.headers ?? [];
const isPolicy = (rule) => typeof rule.values?.['Content-Security-Policy'] === 'string';
const routes = headers.filter((rule) => isPolicy(rule) && !rule.for.endsWith('.html') && rule.for !== '/*');

// Directives a single page opts into (the contact page's map frame) stay on that page only.
const PAGE_ONLY = new Set(['frame-src', 'child-src']);
// Astro lists every hash it knows on every route. Give each page exactly the hashes of the inline
// scripts and styles that page really contains (src/lib/page-policy.mjs): the policy stays as strict
// and the header shrinks by kilobytes, which keeps the first response of a page within the first round trip.
const htmlFor = (route) => new URL(`../dist${route === '/' ? '/index' : route}.html`, import.meta.url);
let pruned = 0;
for (const rule of routes) {
  const file = htmlFor(rule.for);
  if (!existsSync(file)) continue;
  const html = await readFile(file, 'utf8');
  const keep = {
    'script-src': inlineHashes(html, 'script'),
    'style-src': inlineHashes(html, 'style'),
  };
  // The admin islands render on the client only and may add styles Astro hashed for them (and the toast
  // library's, src/lib/csp-hashes.mjs); admin pages are not first-round-trip critical, so their style
  // list stays whole.
  if (rule.for.startsWith('/admin/')) delete keep['style-src'];
  const trimmed = withHashes(rule.values['Content-Security-Policy'], keep);
  pruned += trimmed.dropped;
  rule.values['Content-Security-Policy'] = trimmed.policy;
}

const union = new Map();
for (const rule of routes) {
  for (const [name, sources] of parsePolicy(rule.values['Content-Security-Policy'])) {
    if (PAGE_ONLY.has(name)) continue;
    union.set(name, [...new Set([...(union.get(name) ?? []), ...sources])]);
  }
}
const fallback = serializePolicy(union);

const twins = routes
  .filter((rule) => rule.for !== '/')
  .map((rule) => ({ for: `${rule.for}.html`, values: { ...rule.values } }));
config.headers = [
  ...(union.size ? [{ for: '/*', values: { 'Content-Security-Policy': fallback } }] : []),
  ...headers.filter((rule) => rule.for !== '/*' && !rule.for.endsWith('.html')),
  ...twins,
];
await writeFile(file, JSON.stringify(config));
console.log(
  `postbuild-headers: ${routes.length} route policies (${pruned} unused hashes dropped), ${twins.length} .html twins, fallback policy ${union.size ? 'added' : 'skipped'}`,
);
