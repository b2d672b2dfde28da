// Hashes for the Content-Security-Policy, worked out when the site is built (astro.config.mjs reads this file;
// nothing that runs on a request does, since a deployed function has no node_modules to read the library from).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arrivalScript } from './inline-scripts.mjs';

const sha256 = (source) =>
  /** @type {`sha256-${string}`} */ (`sha256-${createHash('sha256').update(source).digest('base64')}`);

/** @type {`sha256-${string}`[]} */
export const inlineScriptHashes = [arrivalScript].map(sha256);

/**
 * The admin's toast library (sonner) injects its stylesheet as a <style> element at run time; allow
 * exactly that text by hash instead of opening the policy to any inline style.
 */
function sonnerCss() {
  const source = readFileSync(createRequire(import.meta.url).resolve('sonner'), 'utf8').toString();
  const match = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(source);
  if (!match) throw new Error('Could not find the stylesheet sonner injects; update src/lib/csp-hashes.mjs');
  return JSON.parse(match[1]);
}

/**
 * Styles a library inserts while the page runs (admin pages only). Sonner adds its <style> to the page empty and
 * fills it afterwards; the browser checks the empty element too, so the empty text (which styles nothing) is
 * allowed as well, or every admin page would report a blocked style.
 */
export const runtimeStyleHashes = [sonnerCss(), ''].map(sha256);

// The category colours' stylesheet is hashed where it is written (BaseLayout), since staff can edit the colours.
/** @type {`sha256-${string}`[]} */
export const inlineStyleHashes = [...runtimeStyleHashes];
