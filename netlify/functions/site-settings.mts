import type { Config, Context } from '@netlify/functions';
import { SiteSettingsInputSchema } from '../../src/schemas/site-settings';
import { publicSettings } from '../../src/lib/site-settings';
import { cachePolicies, error, json, methodNotAllowed, type FieldError } from '../../src/server/http';
import { loadCatalogue } from '../../src/server/catalogue';
import type { PartnerRto, Price } from '../../src/schemas/site-settings';
import { parseJsonBody } from '../../src/server/validation';
import { authorize } from '../../src/server/roles';
import { SETTINGS_CACHE_TAG, readSettings, saveSettings } from '../../src/server/settings';
import { actorOf, diff, recordActivity } from '../../src/server/activity';
import { rebuildAnswer, rebuildStatus, requestRebuild } from '../../src/server/rebuild';

/** When the change reaches the pre-rendered pages, by what the save's rebuild request got. */
const REBUILD_NOTES = {
  started:
    'The public pages are being rebuilt: the change shows on them when the rebuild below is live (usually a few minutes).',
  'not-configured':
    'No build hook is set up, so the pre-rendered pages show the change with the next deploy; the public settings answer has it at once.',
  failed:
    'Saved, but the public pages could not be rebuilt, so they still show the old details. Save again to retry, or ask a developer to redeploy.',
} as const;
const NOTHING_CHANGED = 'Nothing had changed, so the public pages were not rebuilt.';
const STAFF_ONLY_CHANGED =
  'Only staff notes changed (a claim’s source note or the reply-to address), which the public pages do not show, so they were not rebuilt.';

/** Contact details are shown as changed, never with their values, in the activity log. */
const SETTINGS_MASK = ['email', 'phone'];

/**
 * GET  /api/public/site-settings -> {contactInfo, socialMedia, business, partnerRtos, claims, prices}, cached at the CDN until the next save.
 * GET  /api/admin/site-settings  -> the same plus who saved it last (staff only).
 * POST /api/admin/site-settings  -> validates and saves the full settings object with the `version` it was
 *      loaded at (staff only): 200, or 409 with the newer settings when someone saved in between; a group
 *      added after launch that the body leaves out keeps its saved value. A save that changes what the pages
 *      show asks for a rebuild of them (the build hook, or `npm start`'s local one), as a catalogue save does,
 *      and answers its state; one that changes only staff notes does not.
 * GET  /api/admin/site-settings/rebuild -> the latest rebuild's state (the same rebuild the catalogue shows).
 */
export default async (request: Request, context?: Context) => {
  const path = new URL(request.url).pathname.replace(/\/+$/, '');
  const isAdmin = path.startsWith('/api/admin/');
  const deployId = context?.deploy?.id;
  if (!isAdmin) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
    return json(publicSettings(await readSettings()), {
      headers: {
        ...cachePolicies.siteSettings,
        'Netlify-Cache-Tag': SETTINGS_CACHE_TAG,
      },
    });
  }

  if (path === '/api/admin/site-settings/rebuild') {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    const auth = await authorize(request, 'settings');
    if (!auth.ok) return auth.response;
    return json(await rebuildStatus(deployId));
  }
  if (request.method !== 'GET' && request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const auth = await authorize(request, 'settings');
  if (!auth.ok) return auth.response;
  if (request.method === 'GET') return json(await readSettings());

  const body = await parseJsonBody(SiteSettingsInputSchema, request, 65536);
  if (!body.ok) return body.response;
  const current = await readSettings();
  const partnerRtos = body.data.partnerRtos ?? current.partnerRtos;
  const prices = body.data.prices ?? current.prices;
  const unknown = await unknownCatalogueTargets(body.data.partnerRtos ? partnerRtos : [], prices, partnerRtos);
  if (unknown.length) return error(400, unknown[0]!.message, unknown);
  const { version, ...sent } = body.data;
  const settings = {
    ...sent,
    business: sent.business ?? current.business,
    partnerRtos,
    claims: sent.claims ?? current.claims,
    prices,
  };
  // A save of exactly what is stored (Save pressed twice, or with nothing edited) stores nothing and logs
  // nothing, and asks for no rebuild unless the last one failed (the screen then says to save again to retry).
  // Over a newer version it is still a conflict, below.
  const { version: _version, updatedAt: _at, updatedBy: _by, ...stored } = current;
  if (version === current.version && diff(stored, settings).length === 0) {
    const saved = { success: true, message: 'Settings saved successfully!', settings: current };
    if ((await rebuildStatus(deployId)).state !== 'failed') return json({ ...saved, note: NOTHING_CHANGED });
    const retried = await requestRebuild(auth.user.username, deployId);
    return json({ ...saved, rebuild: rebuildAnswer(retried), note: REBUILD_NOTES[retried.outcome] });
  }
  const result = await saveSettings(settings, version, auth.user.username);
  if (!result.ok) {
    const by = result.current.updatedBy ?? 'someone else';
    return json(
      {
        message: `These settings were changed by ${by} after you opened them, so your changes were not saved. Compare the two versions and choose what to keep.`,
        current: result.current,
      },
      { status: 409 },
    );
  }
  // The pages are built from the public part of the settings (src/build/site-settings.ts): a save that leaves it
  // as it was (staff notes only) cannot change a page, so it asks for no rebuild, unless the last one failed.
  const pagesChange = diff(publicSettings(current), publicSettings(result.settings)).length > 0;
  const requested =
    pagesChange || (await rebuildStatus(deployId)).state === 'failed'
      ? await requestRebuild(auth.user.username, deployId)
      : null;
  await recordActivity({
    actor: actorOf(auth.user),
    kind: 'settings',
    action: 'updated',
    target: { id: 'site', label: 'Site settings' },
    changes: diff(current, result.settings, SETTINGS_MASK),
  });
  return json({
    success: true,
    message: 'Settings saved successfully!',
    settings: result.settings,
    ...(requested
      ? { rebuild: rebuildAnswer(requested), note: REBUILD_NOTES[requested.outcome] }
      : { note: STAFF_ONLY_CHANGED }),
  });
};

/**
 * Partner RTOs (when the body sends them) may only list qualifications and categories of the catalogue as it
 * is now (with staff edits). Fees may only name a published qualification or a category, and only a partner
 * RTO saved with them; one fee per qualification and per category.
 */
async function unknownCatalogueTargets(
  sentRtos: readonly PartnerRto[],
  prices: readonly Price[],
  rtos: readonly PartnerRto[],
): Promise<FieldError[]> {
  const listsSomething = sentRtos.some((rto) => rto.courses.length || rto.categories.length);
  if (!prices.length && !listsSomething) return [];
  const { courses, findCategory } = (await loadCatalogue()).catalogue.api;
  const codes = new Set(courses.map((course) => course.code));
  const problems: FieldError[] = [];
  for (const [index, rto] of sentRtos.entries()) {
    for (const [n, code] of rto.courses.entries())
      if (!codes.has(code))
        problems.push({
          field: `partnerRtos.${index}.courses.${n}`,
          message: `No published qualification has the code ${code}`,
        });
    for (const [n, slug] of rto.categories.entries())
      if (!findCategory(slug))
        problems.push({
          field: `partnerRtos.${index}.categories.${n}`,
          message: `No category has the address ${slug}`,
        });
  }
  const rtoCodes = new Set(rtos.map((rto) => rto.code));
  const seen = new Set<string>();
  for (const [index, price] of prices.entries()) {
    const at = (field: string) => `prices.${index}.${field}`;
    if (price.scope === 'course' ? !codes.has(price.target) : !findCategory(price.target))
      problems.push({
        field: at('target'),
        message: `${price.scope === 'course' ? 'No published qualification has the code' : 'No category has the address'} ${price.target}`,
      });
    else if (seen.has(`${price.scope} ${price.target}`))
      problems.push({ field: at('target'), message: `${price.target} has more than one fee` });
    seen.add(`${price.scope} ${price.target}`);
    if (!rtoCodes.has(price.rtoCode))
      problems.push({ field: at('rtoCode'), message: `No partner RTO with the code ${price.rtoCode} is saved` });
  }
  return problems;
}

export const config: Config = {
  path: ['/api/public/site-settings', '/api/admin/site-settings', '/api/admin/site-settings/rebuild'],
};
