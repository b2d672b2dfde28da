import * as v from 'valibot';
import { UsernameSchema } from './auth.ts';
import { limitParam } from './query.ts';

/** What an activity entry is about: the kinds of record staff save in the admin. */
export const ACTIVITY_KINDS = ['settings', 'catalogue', 'post', 'user', 'inquiry'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The actor of changes nobody made by hand (the publishing schedule); never a valid username. */
export const SCHEDULE_ACTOR = { username: '~schedule', name: 'Publishing schedule' } as const;

/** One changed field: its old and new value as text, or `masked` (personal data: neither value is kept). */
export const ActivityChangeSchema = v.object({
  field: v.string(),
  from: v.nullable(v.string()),
  to: v.nullable(v.string()),
  masked: v.optional(v.boolean()),
});
export type ActivityChange = v.InferOutput<typeof ActivityChangeSchema>;

export const ActivityEntrySchema = v.object({
  id: v.string(),
  at: v.string(),
  actor: v.object({ username: v.string(), name: v.string() }),
  kind: v.picklist(ACTIVITY_KINDS),
  action: v.string(),
  target: v.object({ id: v.string(), label: v.string() }),
  changes: v.array(ActivityChangeSchema),
  /** Changed fields beyond the ones kept (an entry keeps at most MAX_CHANGES). */
  more: v.optional(v.number()),
});
export type ActivityEntry = v.InferOutput<typeof ActivityEntrySchema>;

/** GET /api/admin/activity?person&kind&offset&limit */
export const ActivityQuerySchema = v.object({
  person: v.optional(
    v.union([v.literal(SCHEDULE_ACTOR.username), v.pipe(v.string(), UsernameSchema)], 'person must be a username'),
  ),
  kind: v.optional(v.picklist(ACTIVITY_KINDS, `kind must be one of: ${ACTIVITY_KINDS.join(', ')}`)),
  offset: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'offset must be a whole number'), v.transform(Number)),
    '0',
  ),
  limit: limitParam(100, 25),
});

/** One page of the log, newest first, with everyone who appears in it (for the person filter). */
export interface ActivityPage {
  items: ActivityEntry[];
  total: number;
  offset: number;
  limit: number;
  people: { username: string; name: string }[];
}
