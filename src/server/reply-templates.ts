import * as v from 'valibot';
import { dataStore, updateJSON } from './blobs.ts';
import { ReplyTemplateSchema, type ReplyTemplate, type ReplyTemplates } from '../schemas/replies.ts';

/**
 * The reply templates staff keep for the inbox: one entry, `reply-templates` in the `settings` store, with a
 * version that grows with every save (a save names the version it was loaded at and is refused when someone
 * saved in between). Until the first save the three defaults below are offered.
 */
const KEY = 'reply-templates';

export const DEFAULT_TEMPLATES: ReplyTemplate[] = [
  {
    id: 'quote-sent',
    name: 'Quote sent',
    subject: 'Your RPL quote – {reference}',
    body: 'Hi {firstName},\n\nThank you for your patience. We have sent you a quote for your recognition of prior learning (reference {reference}).\n\nIf you have any questions about it, simply reply to this e-mail or give us a call.\n\nRPL Pathways',
  },
  {
    id: 'need-more-evidence',
    name: 'Need more evidence',
    subject: 'A little more evidence for {reference}',
    body: 'Hi {firstName},\n\nThank you for what you have sent so far. To go ahead with your application (reference {reference}) we need a little more evidence of your work, such as payslips, a reference from an employer or photos of your work.\n\nReply to this e-mail with what you have, and we will let you know if anything else is needed.\n\nRPL Pathways',
  },
  {
    id: 'call-back-booked',
    name: 'Call-back booked',
    subject: 'Your call-back is booked – {reference}',
    body: 'Hi {firstName},\n\nThank you for asking us to call you. Your call-back is booked, and one of our team will ring you at the time we agreed.\n\nIf the time no longer suits you, reply to this e-mail and quote your reference {reference}.\n\nRPL Pathways',
  },
];

const StoredSchema = v.object({
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  templates: v.array(ReplyTemplateSchema),
  updatedBy: v.string(),
  updatedAt: v.string(),
});

function fromStored(stored: unknown): ReplyTemplates {
  const parsed = v.safeParse(StoredSchema, stored);
  if (parsed.success) return parsed.output;
  if (stored !== null)
    console.error('Stored reply templates are invalid; offering the defaults.', parsed.issues[0]?.message);
  return { version: 0, templates: DEFAULT_TEMPLATES };
}

export async function readTemplates(): Promise<ReplyTemplates> {
  return fromStored(await dataStore('settings').get(KEY, { type: 'json' }));
}

/** Saves the whole list if the stored one still has `baseVersion`; else gives back the newer one, changing nothing. */
export async function saveTemplates(
  templates: ReplyTemplate[],
  baseVersion: number,
  updatedBy: string,
): Promise<{ ok: true; saved: ReplyTemplates } | { ok: false; current: ReplyTemplates }> {
  const next = { version: baseVersion + 1, templates, updatedBy, updatedAt: new Date().toISOString() };
  let current: ReplyTemplates = { version: 0, templates: DEFAULT_TEMPLATES };
  let stale = false;
  await updateJSON<unknown>(dataStore('settings'), KEY, (stored) => {
    current = fromStored(stored);
    stale = current.version !== baseVersion;
    return stale ? undefined : next;
  });
  return stale ? { ok: false, current } : { ok: true, saved: next };
}
