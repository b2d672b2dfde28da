// Scripts that must run before first paint, so they cannot be external modules.
// Their SHA-256 hashes are added to the Content-Security-Policy by astro.config.mjs.
import { createHash } from 'node:crypto';

/**
 * Before the first paint: sets the page in the brand fonts when an earlier page has put them in the cache
 * (src/scripts/brand-fonts.ts), and shows the logo overlay only when the visitor arrives from a link inside the
 * site (set by site.ts).
 */
export const arrivalScript =
  "try{var c=document.documentElement.classList;if(sessionStorage.getItem('brand-fonts')==='1')c.add('has-fonts');if(sessionStorage.getItem('nav-overlay')){sessionStorage.removeItem('nav-overlay');if(!matchMedia('(prefers-reduced-motion: reduce)').matches)c.add('is-arriving')}}catch(e){}";

/** @type {`sha256-${string}`[]} */
export const inlineScriptHashes = [arrivalScript].map(
  (source) => `sha256-${createHash('sha256').update(source).digest('base64')}`,
);

/**
 * The admin's toast library (sonner) injects its stylesheet as a <style> element at run time; allow
 * exactly that text by hash instead of opening the policy to any inline style.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

function sonnerCss() {
  const source = readFileSync(createRequire(import.meta.url).resolve('sonner'), 'utf8').toString();
  const match = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(source);
  if (!match) throw new Error('Could not find the stylesheet sonner injects; update src/lib/inline-scripts.mjs');
  return JSON.parse(match[1]);
}

const sha256 = (source) =>
  /** @type {`sha256-${string}`} */ (`sha256-${createHash('sha256').update(source).digest('base64')}`);

/**
 * Styles a library inserts while the page runs (admin pages only). Sonner adds its <style> to the page empty and
 * fills it afterwards; the browser checks the empty element too, so the empty text (which styles nothing) is
 * allowed as well, or every admin page would report a blocked style.
 */
export const runtimeStyleHashes = [sonnerCss(), ''].map(sha256);

// The category colours' stylesheet is hashed where it is written (BaseLayout), since staff can edit the colours.
/** @type {`sha256-${string}`[]} */
export const inlineStyleHashes = [...runtimeStyleHashes];
