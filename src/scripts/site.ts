/**
 * Behaviour shared by every page in plain script: no framework needed.
 */
import {
  BACK_TO_TOP_DURATION,
  BACK_TO_TOP_THRESHOLD,
  FIXED_HEADER_OFFSET,
  scrollProgress,
  scrollToElement,
  scrollToY,
} from '../lib/smooth-scroll';
import { supportInvokers } from '../lib/invokers';
import { settingsFingerprint } from '../lib/settings-fingerprint';
import { cacheBrandFonts } from './brand-fonts';
import { countUpStatistics, lightProcessSteps } from './page-motion';
import settingsRefreshUrl from './settings-refresh-run.ts?worker&url';

const root = document.documentElement;

// Scroll progress bar and back-to-top button, updated at most once a frame.
const progressBar = document.querySelector<HTMLElement>('[data-scroll-progress]');
const backToTop = document.querySelector<HTMLButtonElement>('[data-back-to-top]');
let ticking = false;
const onScroll = () => {
  if (ticking) return;
  ticking = true;
  requestAnimationFrame(() => {
    ticking = false;
    const progress = scrollProgress(window.scrollY, root.scrollHeight, window.innerHeight);
    progressBar?.style.setProperty('transform', `scaleX(${progress})`);
    const wanted = window.scrollY > BACK_TO_TOP_THRESHOLD;
    backToTop?.classList.toggle('is-visible', wanted);
    // It steps aside (hidden) while it would cover a form control, a link or a line of text.
    backToTop?.classList.toggle('is-covering', wanted && coversContent(backToTop));
  });
};

const CONTROLS =
  'input, textarea, select, button, a[href], label, summary, [role="button"], [contenteditable=""], [contenteditable="true"]';
const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Whether the button's box lies over a control or over text: the text's own line boxes, not the whole paragraph. */
function coversContent(button: HTMLElement): boolean {
  const box = button.getBoundingClientRect();
  if (!box.width) return false;
  const near = new DOMRect(box.x - 4, box.y - 4, box.width + 8, box.height + 8);
  // Five points a side, reaching 4px beyond the edges, so content just touching the button counts too.
  const spread = (start: number, end: number, limit: number) =>
    [0, 0.25, 0.5, 0.75, 1].map((f) => Math.min(limit - 1, Math.max(0, start - 4 + f * (end - start + 8))));
  const xs = spread(box.left, box.right, window.innerWidth);
  const ys = spread(box.top, box.bottom, window.innerHeight);
  const checked = new Set<Element>();
  const range = document.createRange();
  for (const x of xs) {
    for (const y of ys) {
      let depth = 0;
      for (const element of document.elementsFromPoint(x, y)) {
        if (button.contains(element) || element === document.body || element === root) continue;
        if (++depth > 8) break;
        if (checked.has(element)) continue;
        checked.add(element);
        if (element.matches(CONTROLS)) return true;
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
          range.selectNodeContents(node);
          for (const line of range.getClientRects()) if (overlaps(line, near)) return true;
        }
      }
    }
  }
  return false;
}
window.addEventListener('scroll', onScroll, { passive: true });
window.addEventListener('resize', onScroll, { passive: true });
// Content that changes under the button without a scroll (an opened FAQ answer, the next quote step).
for (const name of ['click', 'input', 'transitionend']) document.addEventListener(name, onScroll, { passive: true });
if ('ResizeObserver' in window) new ResizeObserver(onScroll).observe(document.body);
onScroll();
backToTop?.addEventListener('click', () => {
  void scrollToY(0, BACK_TO_TOP_DURATION).then(() =>
    document.querySelector<HTMLElement>('#main')?.focus({ preventScroll: true }),
  );
});

// In-page anchors scroll smoothly below the fixed header.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href^="#"]') : null;
  if (!link || link.classList.contains('skip-link')) return;
  const id = decodeURIComponent(link.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) return;
  event.preventDefault();
  history.pushState(null, '', link.hash);
  void scrollToElement(target, FIXED_HEADER_OFFSET);
});

// Logo overlay between pages: flag internal navigations; the next page shows and fades the overlay.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href]') : null;
  if (!link || link.target || link.hasAttribute('download') || link.origin !== location.origin) return;
  if (link.pathname === location.pathname && link.search === location.search) return;
  try {
    sessionStorage.setItem('nav-overlay', '1');
  } catch {
    /* storage may be disabled; the overlay is cosmetic */
  }
});
const loader = document.querySelector<HTMLElement>('[data-page-loader]');
if (root.classList.contains('is-arriving') && loader) {
  // The overlay's fade may already have ended before this script ran (a slow phone): its animation is then
  // finished (kept by `forwards`), and the overlay goes at once instead of waiting for an end already past.
  const arrived = () => root.classList.remove('is-arriving');
  const fades = loader.getAnimations();
  if (fades.length === 0) arrived();
  else void Promise.all(fades.map((fade) => fade.finished)).then(arrived, arrived);
}
// Coming back through the history cache restores the old page: start at the top as on any path change.
window.addEventListener('pageshow', (event) => {
  if (event.persisted) root.classList.remove('is-arriving');
});

// A stored staff session shows the Dashboard links.
try {
  if (localStorage.getItem('token') && localStorage.getItem('user')) {
    for (const el of document.querySelectorAll<HTMLElement>('[data-auth-only]')) el.removeAttribute('hidden');
  }
} catch {
  /* no storage, no session */
}

// Keep the footer year current between builds.
document.querySelectorAll('[data-current-year]').forEach((el) => {
  el.textContent = String(new Date().getFullYear());
});

// Mobile menu: a modal dialog (focus trap, Escape), with page scroll locked while it is open.
const menu = document.querySelector<HTMLDialogElement>('#mobile-menu');
const menuButton = document.querySelector<HTMLButtonElement>('[data-menu-open]');
if (menu && menuButton) {
  const closeMenu = () => menu.open && menu.close();
  menuButton.addEventListener('click', () => {
    menu.showModal();
    root.classList.add('is-locked');
    menuButton.setAttribute('aria-expanded', 'true');
  });
  menu.addEventListener('close', () => {
    root.classList.remove('is-locked');
    menuButton.setAttribute('aria-expanded', 'false');
  });
  menu.querySelector('[data-menu-close]')?.addEventListener('click', closeMenu);
  menu.addEventListener('click', (event) => {
    if (event.target === menu) closeMenu();
    if (event.target instanceof Element && event.target.closest('a[href]')) closeMenu();
  });
  // Growing past the mobile breakpoint closes it too.
  matchMedia('(min-width: 769px)').addEventListener('change', (event) => event.matches && closeMenu());
}

// Invoker buttons open and close dialogs natively (the header search answers the first tap before its island
// loads); where a browser lacks them, this does the same.
supportInvokers();

lightProcessSteps();
countUpStatistics();

// A second after the page has loaded, once the browser is idle: the brand fonts go into the cache for the next page,
// and the contact details and social links in the pre-rendered header and footer are refreshed from the saved site
// settings, so a change made in the admin shows before the next rebuild. Neither may compete with what the first
// screen still paints after the load event (a lazy picture that turns out to be the largest).
const whenIdle = (task: () => void) =>
  'requestIdleCallback' in window ? requestIdleCallback(task, { timeout: 3000 }) : setTimeout(task, 1500);
const AFTER_LOAD_MS = 1000;
const afterLoad = (task: () => void) => {
  const later = () => setTimeout(() => whenIdle(task), AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true });
};
afterLoad(() => {
  cacheBrandFonts();
  void settingsChangedSinceBuild().then((changed) => {
    if (!changed) return;
    const script = document.createElement('script');
    script.type = 'module';
    script.src = settingsRefreshUrl;
    document.head.append(script);
  });
});

/** Whether the live public settings differ from those the page was built with (or that cannot be told). */
async function settingsChangedSinceBuild(): Promise<boolean> {
  const built = root.dataset.settings;
  if (!built) return true;
  try {
    const response = await fetch('/api/public/site-settings', { headers: { Accept: 'application/json' } });
    if (!response.ok) return false;
    return (await settingsFingerprint(await response.text())) !== built;
  } catch {
    return false; // offline: the built-in values stay
  }
}
