import { isShownSocialLink, telHref } from './social.ts';

type Settings = Record<string, Record<string, unknown>>;

function valueAt(settings: Settings, path: string): string | undefined {
  const [group, field] = path.split('.');
  const value = group && field ? settings[group]?.[field] : undefined;
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * Brings every settings-bound element on the page up to date with the saved site settings.
 * Markup contract: `data-setting="contactInfo.email"` names the value; `data-setting-link` ("mailto",
 * "tel" or "url") makes it a link target; `data-setting-item` marks the element hidden when the value is
 * empty (for social links also '#' or 'javascript:void(0)'); `data-setting-fallback` gives a value to show
 * instead of an empty one. Link targets of kind "url" keep their content
 * (icons); the others show the value as text. Returns how many elements changed.
 */
export function applySettings(root: ParentNode, settings: Settings): number {
  let changed = 0;
  for (const node of root.querySelectorAll<HTMLElement>('[data-setting]')) {
    const path = node.dataset.setting ?? '';
    const saved = valueAt(settings, path);
    if (saved === undefined) continue;
    // Some values have a built-in fallback instead of being hidden (the contact page's street address).
    const value = saved === '' && node.dataset.settingFallback ? node.dataset.settingFallback : saved;
    const kind = node.dataset.settingLink;
    const shown = path.startsWith('socialMedia.') ? isShownSocialLink(value) : value !== '';
    const item = node.closest<HTMLElement>('[data-setting-item]');
    if (item && item.hidden === shown) {
      item.hidden = !shown;
      changed++;
    }
    if (!shown) continue;
    const link = node instanceof HTMLAnchorElement ? node : node.closest('a');
    const href = kind === 'mailto' ? `mailto:${value}` : kind === 'tel' ? telHref(value) : kind === 'url' ? value : undefined;
    if (link && href !== undefined && link.getAttribute('href') !== href) {
      // Only http(s) addresses become social links; anything else stays hidden.
      if (kind === 'url' && !/^https?:\/\//i.test(value)) {
        if (item) item.hidden = true;
        continue;
      }
      link.setAttribute('href', href);
      changed++;
    }
    if (kind !== 'url' && node.textContent !== value) {
      node.textContent = value;
      changed++;
    }
  }
  return changed;
}

/** Fetches the public settings and applies them; failures keep the built-in values (SPEC 8: only logged). */
export async function refreshSettings(root: ParentNode = document): Promise<void> {
  if (!root.querySelector('[data-setting]')) return;
  try {
    const response = await fetch('/api/public/site-settings', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    applySettings(root, (await response.json()) as Settings);
  } catch (cause) {
    console.warn('Site settings could not be refreshed; showing the built-in values.', cause);
  }
}
