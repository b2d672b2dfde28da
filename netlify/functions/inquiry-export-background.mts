import type { Config } from '@netlify/functions';
import * as v from 'valibot';
import { authorize } from '../../src/server/roles';
import { ExportIdSchema } from '../../src/schemas/inbox';
import { runExport } from '../../src/server/inquiry-export';
import { parseJsonBody } from '../../src/server/validation';

/**
 * Background function (the platform answers 202 at once and lets it run up to 15 minutes): writes the CSV of a
 * queued export to the `exports` store, recording its progress. Called by POST /api/admin/inquiry-exports with
 * the staff member's own token, checked again here; an export that is not queued is left alone.
 */
export default async (request: Request) => {
  if (request.method !== 'POST') return;
  const auth = await authorize(request, 'inquiries');
  if (!auth.ok) return;
  const body = await parseJsonBody(v.object({ id: ExportIdSchema }), request, 1024);
  if (!body.ok) return;
  await runExport(body.data.id);
};

/** No address of its own: the platform's `/.netlify/functions/inquiry-export-background`, refused to visitors locally. */
export const config: Config = {};
