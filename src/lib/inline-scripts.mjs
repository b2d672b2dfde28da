// Scripts that must run before first paint, so they cannot be external modules. Their SHA-256 hashes are added to
// the Content-Security-Policy when the site is built (src/lib/csp-hashes.mjs, read by astro.config.mjs). Pages
// import this file when they render, on a request too: it reads nothing from disk.

/**
 * Before the first paint: sets the page in the brand fonts when an earlier page has put them in the cache
 * (src/scripts/brand-fonts.ts), and shows the logo overlay only when the visitor arrives from a link inside the
 * site (set by site.ts).
 */
export const arrivalScript =
  "try{var c=document.documentElement.classList;if(sessionStorage.getItem('brand-fonts')==='1')c.add('has-fonts');if(sessionStorage.getItem('nav-overlay')){sessionStorage.removeItem('nav-overlay');if(!matchMedia('(prefers-reduced-motion: reduce)').matches)c.add('is-arriving')}}catch(e){}";
