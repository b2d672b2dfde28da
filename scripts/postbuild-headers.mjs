// After `astro build`: Astro writes one Content-Security-Policy per pre-rendered route into the
// Netlify framework config (.netlify/v1/config.json). Netlify matches "/about", but the local
// server matches the file it serves ("/about.html"), and not-found pages match no route at all.
// This adds the ".html" twins and a site-wide fallback policy (the union of every route's
// hashes, still without 'unsafe-inline'), so every HTML response carries a strict CSP.
import { readFile, writeFile } from 'node:fs/promises';

const file = new URL('../.netlify/v1/config.json', import.meta.url);
const config = JSON.parse(await readFile(file, 'utf8'));
const headers = config.headers ?? [];
const isPolicy = (rule) => typeof rule.values?.['Content-Security-Policy'] === 'string';
const routes = headers.filter((rule) => isPolicy(rule) && !rule.for.endsWith('.html') && rule.for !== '/*');

const parse = (policy) =>
  new Map(policy.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...sources] = d.split(/\s+/);
    return [name, sources];
  }));

// Directives a single page opts into (the contact page's map frame) stay on that page only.
const PAGE_ONLY = new Set(['frame-src', 'child-src']);
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
console.log(`postbuild-headers: ${routes.length} route policies, ${twins.length} .html twins, fallback policy ${union.size ? 'added' : 'skipped'}`);
