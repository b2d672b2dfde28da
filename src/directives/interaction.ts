import type { ClientDirective } from 'astro';

/**
 * Hydrates an island only when the visitor reaches for it (pointer over, focus, touch or click),
 * so pages that merely contain the island ship no framework code until it is needed.
 * A click that lands before hydration has finished is replayed once the island is live.
 */
const TRIGGERS = ['pointerover', 'focusin', 'touchstart', 'click'] as const;

const interaction: ClientDirective = (load, _options, el) => {
  let started = false;
  let pendingClick: HTMLElement | null = null;

  const remember = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('button, a, [role="button"]') : null;
    if (target) pendingClick = target;
  };

  const start = async () => {
    if (started) return;
    started = true;
    for (const name of TRIGGERS) el.removeEventListener(name, start);
    const hydrate = await load();
    await hydrate();
    el.removeEventListener('click', remember, true);
    // Let React attach its listeners before replaying the click that woke the island.
    requestAnimationFrame(() => pendingClick?.click());
  };

  el.addEventListener('click', remember, true);
  for (const name of TRIGGERS) el.addEventListener(name, start, { passive: true });
};

export default interaction;
