import * as v from 'valibot';
import { isShownSocialLink, telHref } from './social.ts';
import { partsFor, type Part, type PartsKind } from './partner-rto.ts';
import { BusinessSchema, PartnerRtoSchema, PriceSchema } from '../schemas/site-settings.ts';

/** What the sentences naming RTOs, the business and fees need of the public settings answer. */
const PartsInputSchema = v.object({
  partnerRtos: v.array(PartnerRtoSchema),
  business: BusinessSchema,
  prices: v.optional(v.array(PriceSchema), []),
});

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
    const href =
      kind === 'mailto' ? `mailto:${value}` : kind === 'tel' ? telHref(value) : kind === 'url' ? value : undefined;
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
  return changed + applyClaims(root, settings) + applyParts(root, settings);
}

type ClaimValue = { value?: unknown; enabled?: unknown; publicSource?: unknown };

/**
 * Claims staff own (`data-claim="completionTime"`): hidden when switched off; their `data-claim-value`
 * elements show the saved figure (a count-up figure, `data-claim-value="count"`, also gets its target).
 */
export function applyClaims(root: ParentNode, settings: Settings): number {
  const claims = settings.claims as Record<string, ClaimValue> | undefined;
  if (!claims || typeof claims !== 'object') return 0;
  let changed = 0;
  for (const node of root.querySelectorAll<HTMLElement>('[data-claim]')) {
    const claim = claims[node.dataset.claim ?? ''];
    if (!claim || typeof claim.enabled !== 'boolean' || typeof claim.value !== 'string') continue;
    // `data-claim-exact`: content that states the figure itself (the explainer video) shows only with that figure.
    const exact = node.dataset.claimExact;
    const shown = claim.enabled && (exact === undefined || exact === claim.value.trim());
    if (node.hidden === shown) {
      node.hidden = !shown;
      changed++;
    }
    const source = typeof claim.publicSource === 'string' ? claim.publicSource.trim() : undefined;
    for (const target of node.querySelectorAll<HTMLElement>('[data-claim-source]')) {
      if (source === undefined || target.closest('[data-claim]') !== node) continue;
      if (target.textContent !== source || target.hidden !== !source) {
        target.textContent = source;
        target.hidden = !source;
        changed++;
      }
    }
    const value = claim.value.trim();
    for (const target of node.querySelectorAll<HTMLElement>('[data-claim-value]')) {
      if (target.closest('[data-claim]') !== node || !value) continue;
      let text = value;
      if (target.dataset.claimValue === 'count') {
        const figure = Number(value);
        if (!Number.isFinite(figure)) continue;
        // The same figure: the count-up owns the text (it may be at 0, waiting to be scrolled to).
        if (Number(target.dataset.countTo) === figure) continue;
        const decimals = value.split('.')[1]?.length ?? 0;
        target.dataset.countTo = String(figure);
        target.dataset.decimals = String(decimals);
        // A count-up still waiting shows 0 and reads its new target when it starts.
        if (target.textContent === '0') continue;
        text = figure.toLocaleString('en-AU', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
      }
      if (target.textContent !== text) {
        target.textContent = text;
        changed++;
      }
    }
  }
  return changed;
}

/** Sentences naming the partner RTOs or the business (`data-parts`), rebuilt from the saved settings. */
export function applyParts(root: ParentNode, settings: Settings): number {
  const parsed = v.safeParse(PartsInputSchema, settings);
  if (!parsed.success) return 0;
  const input = parsed.output;
  let changed = 0;
  for (const node of root.querySelectorAll<HTMLElement>('[data-parts]')) {
    const { courseCode: code, courseCategory: category } = node.dataset;
    const parts = partsFor(node.dataset.parts as PartsKind, input, code && category ? { code, category } : undefined);
    const next = parts.map(partNode);
    const html = next.map((n) => (n instanceof HTMLElement ? n.outerHTML : n.textContent)).join('');
    if (node.innerHTML === html && node.hidden === (parts.length === 0)) continue;
    node.replaceChildren(...next);
    node.hidden = parts.length === 0;
    changed++;
  }
  return changed;
}

function partNode(part: Part): Node {
  if (typeof part === 'string') return document.createTextNode(part);
  const link = document.createElement('a');
  link.textContent = part.text;
  // Only https register links and this site's own pages (the free quote) are shown as links.
  if (/^https:\/\//i.test(part.href)) {
    link.href = part.href;
    link.rel = 'external';
  } else if (/^\/(?!\/)/.test(part.href)) link.href = part.href;
  return link;
}

/** Fetches the public settings and applies them; failures keep the built-in values (only logged). */
export async function refreshSettings(root: ParentNode = document): Promise<void> {
  if (!root.querySelector('[data-setting], [data-claim], [data-parts]')) return;
  try {
    const response = await fetch('/api/public/site-settings', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    applySettings(root, (await response.json()) as Settings);
  } catch (cause) {
    console.warn('Site settings could not be refreshed; showing the built-in values.', cause);
  }
}
