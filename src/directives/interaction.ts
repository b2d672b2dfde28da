import type { ClientDirective } from 'astro';

/**
 * Hydrates an island only when the visitor reaches for it (pointer over, focus, touch or click),
 * so pages that merely contain the island ship no framework code until it is needed.
 * A click or a form submission (Enter in a field) that lands before hydration has finished is held
 * and replayed once the island is live, so nothing the visitor did is lost or sent the native way (except a
 * click on an invoker button, `commandfor`, which opens or closes its dialog without the island). Typing after
 * it drops it: the visitor has moved on, and the replay would act on the newer words.
 * With `{ resume: key }` the island hydrates on load when sessionStorage holds `key`, so progress a
 * visitor saved in this tab shows again at once; with `{ params: ['name', ...] }` it also hydrates on
 * load when the address carries one of those query parameters (a link that preselects something).
 */
const TRIGGERS = ['pointerover', 'focusin', 'touchstart', 'click'] as const;

/** `client:interaction={{ resume: 'key' }}`: also hydrate at once when sessionStorage holds `key` (saved progress to show). */
function hasSavedProgress(value: unknown): boolean {
  const key = value && typeof value === 'object' && 'resume' in value ? (value as { resume: unknown }).resume : null;
  if (typeof key !== 'string') return false;
  try {
    return window.sessionStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

/** `client:interaction={{ params: ['course'] }}`: also hydrate at once when the address has one of these query parameters. */
function hasWakingParam(value: unknown): boolean {
  const names = value && typeof value === 'object' && 'params' in value ? (value as { params: unknown }).params : null;
  if (!Array.isArray(names)) return false;
  const query = new URLSearchParams(window.location.search);
  return names.some((name) => typeof name === 'string' && (query.get(name) ?? '').trim() !== '');
}

const interaction: ClientDirective = (load, options, el) => {
  let started = false;
  let live = false;
  let pendingClick: HTMLElement | null = null;
  let pendingSubmit: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;

  const remember = (event: Event) => {
    const target =
      event.target instanceof Element ? event.target.closest<HTMLElement>('button, a, [role="button"]') : null;
    // An invoker (`commandfor`) already did its work natively (or through site.ts): replaying it would reopen a
    // dialog the visitor may have closed meanwhile.
    if (!target || target.hasAttribute('commandfor')) return;
    pendingClick = target;
    // A submit button's native submission is held too; replaying the click submits once the island listens.
    if (target instanceof HTMLButtonElement && target.type === 'submit') event.preventDefault();
  };

  const holdSubmit = (event: SubmitEvent) => {
    if (live || !(event.target instanceof HTMLFormElement)) return;
    event.preventDefault();
    if (!pendingClick) pendingSubmit = { form: event.target, submitter: event.submitter };
    void start();
  };

  const start = async () => {
    if (started) return;
    started = true;
    for (const name of TRIGGERS) el.removeEventListener(name, start);
    const hydrate = await load();
    await hydrate();
    // Let React attach its listeners before replaying what woke the island.
    requestAnimationFrame(() => {
      live = true;
      el.removeEventListener('click', remember, true);
      el.removeEventListener('submit', holdSubmit, true);
      el.removeEventListener('input', superseded, true);
      if (pendingClick?.isConnected) pendingClick.click();
      else if (pendingSubmit?.form.isConnected) {
        const { form, submitter } = pendingSubmit;
        form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
      }
      pendingClick = null;
      pendingSubmit = null;
    });
  };

  // Typing after a held click or submission supersedes it: the replay would otherwise act on words the visitor
  // typed since (a blank search clicked, then "aged care" typed, went to the results for "aged care" by itself).
  const superseded = () => {
    if (live) return el.removeEventListener('input', superseded, true);
    pendingClick = null;
    pendingSubmit = null;
  };

  el.addEventListener('click', remember, true);
  el.addEventListener('submit', holdSubmit, true);
  el.addEventListener('input', superseded, true);
  for (const name of TRIGGERS) el.addEventListener(name, start, { passive: true });
  if (hasSavedProgress(options.value) || hasWakingParam(options.value)) void start();
};

export default interaction;
