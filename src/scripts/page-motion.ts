/**
 * The two scroll-driven effects some pages have: the process steps light up one by one, and statistics count
 * up, each as it comes into view. They run from the site script, so a page has one script and no shared chunk
 * to fetch before it can start (the site script is then small enough to travel inside the page).
 */
import { countUp } from '../lib/count-up';
import { prefersReducedMotion } from '../lib/smooth-scroll';

const belowTheFold = (el: Element) => el.getBoundingClientRect().top > window.innerHeight;

/** Steps of `[data-process]` already on screen at load start lit; the rest light up as the visitor reaches them. */
export function lightProcessSteps(): void {
  const steps = [...document.querySelectorAll<HTMLElement>('[data-process] [data-step]')];
  if (!steps.length || !('IntersectionObserver' in window) || prefersReducedMotion()) return;
  let reached = -1;
  const activateUpTo = (index: number) => {
    reached = Math.max(reached, index);
    for (const [i, step] of steps.entries()) step.classList.toggle('is-active', i <= reached);
  };
  const below = steps.filter(belowTheFold);
  for (const step of below) step.classList.remove('is-active');
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        activateUpTo(steps.indexOf(entry.target as HTMLElement));
        observer.unobserve(entry.target);
      }
    },
    { threshold: 0.4 },
  );
  for (const step of below) observer.observe(step);
}

/** Figures marked `data-count-to` count up when they come into view; those already on screen stay as they are. */
export function countUpStatistics(): void {
  const counters = document.querySelectorAll<HTMLElement>('[data-count-to]');
  if (!counters.length || prefersReducedMotion() || !('IntersectionObserver' in window)) return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const el = entry.target as HTMLElement;
        countUp(Number(el.dataset.countTo), Number(el.dataset.decimals ?? 0), (text) => (el.textContent = text));
      }
    },
    { threshold: 0.2 },
  );
  counters.forEach((el) => {
    // Only figures still below the fold are reset, so nothing already on screen flickers to zero.
    if (belowTheFold(el)) {
      el.textContent = '0';
      observer.observe(el);
    }
  });
}
