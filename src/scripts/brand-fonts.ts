/**
 * The first page of a visit is set in system fonts adjusted to the brand fonts (src/styles/tokens.css), so its
 * first paint waits for no font file and nothing moves later. Once the page has loaded and the browser is idle,
 * this fetches the brand fonts into the cache and notes it for the visit (sessionStorage, which ends with the
 * tab: a note kept for good could outlive the cached files, and the fonts would be back before the first paint);
 * the inline head script then sets every later page of the visit in them. The page being read is left as it
 * is: swapping fonts under a reader could rewrap a line.
 */
const FLAG = 'brand-fonts';
const FACES = [
  ['--font-kumbh-sans', '400'],
  ['--font-kumbh-sans', '700'],
  ['--font-urbanist', '800'],
] as const;

export function cacheBrandFonts(root: HTMLElement = document.documentElement): void {
  if (root.classList.contains('has-fonts') || !('fonts' in document)) return;
  const style = getComputedStyle(root);
  // The families as Astro named them (e.g. "Kumbh Sans-1a2b3c"), from the variables its <Font> component sets.
  const loads = FACES.map(([variable, weight]) => {
    const families = style.getPropertyValue(variable).trim();
    return families ? document.fonts.load(`${weight} 1em ${families}`) : Promise.reject(new Error(variable));
  });
  void Promise.all(loads).then(
    (faces) => {
      if (faces.some((loaded) => loaded.length === 0)) return;
      try {
        sessionStorage.setItem(FLAG, '1');
      } catch {
        /* no storage: every page keeps the adjusted system fonts */
      }
    },
    () => {
      /* offline or blocked: try again on the next page */
    },
  );
}
