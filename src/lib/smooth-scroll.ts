/** Scroll constants. */
export const SMOOTH_SCROLL_DURATION = 800;
export const SMOOTH_SCROLL_OFFSET = 80;
export const FIXED_HEADER_OFFSET = 120;
export const BACK_TO_TOP_THRESHOLD = 300;
export const BACK_TO_TOP_DURATION = 600;

export const prefersReducedMotion = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

const easeInOutCubic = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);

/** Scrolls the window to `top` over `duration` ms, or at once when the visitor prefers reduced motion. */
export function scrollToY(top: number, duration = SMOOTH_SCROLL_DURATION): Promise<void> {
  const target = Math.max(0, top);
  if (prefersReducedMotion() || duration <= 0) {
    window.scrollTo(0, target);
    return Promise.resolve();
  }
  const start = window.scrollY;
  const distance = target - start;
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const step = (now: number) => {
      const progress = Math.min(1, (now - startedAt) / duration);
      window.scrollTo(0, start + distance * easeInOutCubic(progress));
      if (progress < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

/** Scrolls so that `element` sits `offset` px below the top of the viewport. */
export function scrollToElement(element: Element, offset = SMOOTH_SCROLL_OFFSET, duration = SMOOTH_SCROLL_DURATION) {
  const top = element.getBoundingClientRect().top + window.scrollY - offset;
  return scrollToY(top, duration);
}

/** Scroll progress through the page, 0 to 1. */
export function scrollProgress(scrollY: number, scrollHeight: number, viewportHeight: number): number {
  const scrollable = scrollHeight - viewportHeight;
  if (scrollable <= 0) return 0;
  return Math.min(1, Math.max(0, scrollY / scrollable));
}
