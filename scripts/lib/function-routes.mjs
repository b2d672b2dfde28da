// The paths a request body may go to on the local site, read from the build output, so the front door
// (scripts/compressing-proxy.mjs) never keeps a hand-made copy: the paths the functions declare in their
// `config.path` (as the CLI's bundler lists them in .netlify/functions/manifest.json) and the pages Astro
// renders on request (the routes marked `prerender: false` in the server build's manifest). Astro's own
// catch-all function (path `/*`) and routes that yield to a static file (`preferStatic`) are left out: a
// body sent there would reach the CLI's static file server, which cannot take one.
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

/** The JSON object literal starting at `start` in `text` (strings and nesting respected). */
function objectAt(text, start) {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** Routes of the functions' config.path, without the catch-all and preferStatic ones. */
function functionRoutes(directory) {
  const manifest = JSON.parse(readFileSync(new URL('.netlify/functions/manifest.json', directory), 'utf8'));
  const routes = [];
  for (const fn of manifest.functions ?? []) {
    for (const route of fn.routes ?? []) {
      if (route.prefer_static || route.pattern === '/*') continue;
      if (route.literal) routes.push(new RegExp(`^${route.literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`));
      else if (route.expression) routes.push(new RegExp(route.expression));
    }
  }
  return routes;
}

/** Pages Astro renders on request (`prerender = false`), from the server build's serialized manifest. */
function serverRenderedRoutes(directory) {
  const entry = readFileSync(new URL('.netlify/build/entry.mjs', directory), 'utf8');
  const call = entry.indexOf('deserializeManifest({');
  const literal = call < 0 ? null : objectAt(entry, call + 'deserializeManifest('.length);
  if (!literal) return [];
  const routes = [];
  for (const { routeData } of JSON.parse(literal).routes ?? []) {
    if (routeData?.prerender === false && routeData.origin === 'project' && routeData.pattern)
      routes.push(new RegExp(routeData.pattern));
  }
  return routes;
}

/**
 * Every route a request body may go to besides /api/ and /.netlify/functions/ (which the proxy allows
 * anyway). Missing or unreadable build output gives fewer routes, never more: bodies are then refused.
 * @returns {RegExp[]}
 */
export function loadBodyRoutes(directory = root, log = (message) => console.error(message)) {
  const routes = [];
  for (const read of [functionRoutes, serverRenderedRoutes]) {
    try {
      routes.push(...read(directory));
    } catch (cause) {
      log(`  Could not read the routes of the build (${read.name}): ${cause.message}`);
    }
  }
  return routes;
}
