// After `astro build`: Astro writes one Content-Security-Policy per pre-rendered route into the
// Netlify framework config (.netlify/v1/config.json). Netlify matches "/about", but the local
// server matches the file it serves ("/about.html"), and not-found pages match no route at all.
// This adds the ".html" twins and a site-wide fallback policy (the union of every route's
// hashes, still without 'unsafe-inline'), so every HTML response carries a strict CSP.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { runtimeStyleHashes } from '../src/lib/inline-scripts.mjs';

const file = new URL('../.netlify/v1/config.json', import.meta.url);
const config = JSON.parse(await readFile(file, 'utf8'));
const headers = config.headers ?? [];
const isPolicy = (rule) => typeof rule.values?.['Content-Security-Policy'] === 'string';
const routes = headers.filter((rule) => isPolicy(rule) && !rule.for.endsWith('.html') && rule.for !== '/*');

const parse = (policy) =>
  new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name, sources];
      }),
  );

// Directives a single page opts into (the contact page's map frame) stay on that page only.
const PAGE_ONLY = new Set(['frame-src', 'child-src']);
// Astro lists every hash it knows on every route. Give each page exactly the hashes of the inline
// scripts and styles that page really contains (plus styles a library injects at run time on admin
// pages): the policy stays as strict and the header shrinks by more than a kilobyte, which keeps
// the first response of a page within the first round trip.
const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const inlineHashes = (html, tag) => {
  const found = new Set();
  const pattern = new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi');
  for (const [, attributes = '', body] of html.matchAll(pattern)) {
    if (tag === 'script' && /\bsrc=|type="application\/ld\+json"/i.test(attributes)) continue;
    found.add(hash(body));
  }
  return found;
};
const htmlFor = (route) => new URL(`../dist${route === '/' ? '/index' : route}.html`, import.meta.url);
let pruned = 0;
for (const rule of routes) {
  const file = htmlFor(rule.for);
  if (!existsSync(file)) continue;
  const html = await readFile(file, 'utf8');
  const keep = {
    'script-src': inlineHashes(html, 'script'),
    'style-src': new Set([...inlineHashes(html, 'style'), ...runtimeStyleHashes.map((h) => `'${h}'`)]),
  };
  // The admin islands render on the client only and may add styles Astro hashed for them; admin pages
  // are not first-round-trip critical, so their style list stays whole.
  if (rule.for.startsWith('/admin/')) delete keep['style-src'];
  const directives = parse(rule.values['Content-Security-Policy']);
  for (const [name, allowed] of Object.entries(keep)) {
    const sources = directives.get(name);
    if (!sources) continue;
    // Exactly the page's own hashes: Astro's list can also miss one (a stylesheet whose hash a layout
    // inserts after the route's policy was settled), which would block that stylesheet.
    const kept = [...sources.filter((source) => !source.startsWith("'sha256-")), ...allowed];
    pruned += sources.filter((source) => source.startsWith("'sha256-") && !allowed.has(source)).length;
    directives.set(name, kept);
  }
  rule.values['Content-Security-Policy'] = [...directives]
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

const union = new Map();
for (const rule of routes) {
  for (const [name, sources] of parse(rule.values['Content-Security-Policy'])) {
    if (PAGE_ONLY.has(name)) continue;
    union.set(name, [...new Set([...(union.get(name) ?? []), ...sources])]);
  }
}
const fallback = [...union].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');

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
