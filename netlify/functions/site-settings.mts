import type { Config } from '@netlify/functions';
import { SiteSettingsInputSchema } from '../../src/schemas/site-settings';
import { publicSettings } from '../../src/lib/site-settings';
import { cachePolicies, json, methodNotAllowed } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { authorize } from '../../src/server/roles';
import { SETTINGS_CACHE_TAG, readSettings, saveSettings } from '../../src/server/settings';

const REBUILD_NOTES = {
  started: 'The public pages are being rebuilt; the change shows everywhere within a few minutes.',
  'not-configured': 'The change shows on the public pages at once.',
  failed:
    'Saved, but the public pages could not be rebuilt. They show the change as visitors load them; ask a developer to redeploy.',
} as const;

/**
 * GET  /api/public/site-settings -> {contactInfo, socialMedia, business, partnerRtos, claims}, cached at the CDN until the next save.
 * GET  /api/admin/site-settings  -> the same plus who saved it last (staff only).
 * POST /api/admin/site-settings  -> validates and saves the full settings object (staff only); a group
 *      added after launch that the body leaves out keeps its saved value.
 */
export default async (request: Request) => {
  const isAdmin = new URL(request.url).pathname.startsWith('/api/admin/');
  if (!isAdmin) {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
    return json(publicSettings(await readSettings()), {
      headers: {
        ...cachePolicies.siteSettings,
        'Netlify-Cache-Tag': SETTINGS_CACHE_TAG,
      },
    });
  }

  if (request.method !== 'GET' && request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const auth = await authorize(request, 'settings');
  if (!auth.ok) return auth.response;
  if (request.method === 'GET') return json(await readSettings());

  const body = await parseJsonBody(SiteSettingsInputSchema, request, 16384);
  if (!body.ok) return body.response;
  const current = await readSettings();
  const { settings, rebuild } = await saveSettings(
    {
      ...body.data,
      business: body.data.business ?? current.business,
      partnerRtos: body.data.partnerRtos ?? current.partnerRtos,
      claims: body.data.claims ?? current.claims,
    },
    auth.user.username,
  );
  return json({
    success: true,
    message: 'Settings saved successfully!',
    settings,
    rebuild,
    note: REBUILD_NOTES[rebuild],
  });
};

export const config: Config = {
  path: ['/api/public/site-settings', '/api/admin/site-settings'],
};
