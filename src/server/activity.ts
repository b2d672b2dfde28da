import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { db, empty, isoOf, json, sql } from '../platform/database.ts';
import {
  ActivityEntrySchema,
  type ActivityChange,
  type ActivityEntry,
  type ActivityKind,
  type ActivityPage,
} from '../schemas/activity.ts';

/**
 * The activity log (/admin/activity): who saved what, when, with the fields that changed. One row of the
 * `activity` table per entry; a page of the log is one query on its indexes (newest first, by person, by kind).
 * Recording is best-effort and always after the save: a failure is logged, never answered. Entries older than
 * RETENTION_DAYS are removed by the daily `activity-retention` function (pruneActivity).
 */
export const RETENTION_DAYS = 365;
/** An entry keeps at most this many changed fields (and says how many more there were). */
const MAX_CHANGES = 40;
/** Values are kept up to this many characters. */
const MAX_VALUE_LENGTH = 160;

/** Bookkeeping fields every record carries; their change says nothing a person did. */
const IGNORED = new Set(['version', 'updatedAt', 'updatedBy', 'createdAt', 'createdBy', 'views', 'statusRev', 'html']);

export interface Actor {
  username: string;
  name: string;
}

interface ActivityInput {
  actor: Actor;
  kind: ActivityKind;
  action: string;
  target: { id: string; label: string };
  changes?: ActivityChange[];
}

/** Text of a value as the log shows it: strings as they are (empty as none), the rest as JSON; cut to length. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

/** Every leaf of a value by its dotted path; a list of plain values is one leaf (its items joined). */
function flatten(value: unknown, path: string, into: Map<string, string | null>): void {
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) {
    into.set(path, asText(value.map(String).join(', ')));
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      flatten(item, path ? `${path}.${index}` : String(index), into);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (IGNORED.has(key)) continue;
      flatten(item, path ? `${path}.${key}` : key, into);
    }
  } else if (path) into.set(path, asText(value));
}

/**
 * The fields that differ between two versions of a record, by dotted path, old and new value as text. A field
 * whose path has a segment containing a word of `maskFields` (case-insensitive: `phone` covers `phoneSecondary`;
 * e-mail addresses, phone numbers, names, note texts) is reported as changed without either value.
 */
export function diff(before: unknown, after: unknown, maskFields: readonly string[] = []): ActivityChange[] {
  const masked = new Set(maskFields.map((field) => field.toLowerCase()));
  const old = new Map<string, string | null>();
  const next = new Map<string, string | null>();
  flatten(before ?? {}, '', old);
  flatten(after ?? {}, '', next);
  const changes: ActivityChange[] = [];
  for (const field of new Set([...old.keys(), ...next.keys()])) {
    const from = old.get(field) ?? null;
    const to = next.get(field) ?? null;
    if (from === to) continue;
    const segments = field.toLowerCase().split('.');
    if (segments.some((segment) => [...masked].some((word) => segment.includes(word))))
      changes.push({ field, from: null, to: null, masked: true });
    else changes.push({ field, from, to });
  }
  return changes;
}

/**
 * An entry's id: its time in milliseconds, a number counting up within one millisecond of this process, and
 * random characters. Ids of one time sort in the order they were made, so the log's order (time, then id, newest
 * first) keeps two entries of one save in the order they happened.
 */
let lastTime = -1;
let sequence = 0;
function newId(at: Date): string {
  const time = at.getTime();
  sequence = time === lastTime ? sequence + 1 : 0;
  lastTime = time;
  return `${String(time).padStart(13, '0')}-${String(sequence).padStart(4, '0')}-${randomBytes(4).toString('hex')}`;
}

interface ActivityRow {
  id: string;
  at: unknown;
  actor_username: string;
  actor_name: string;
  kind: string;
  action: string;
  target_id: string;
  target_label: string;
  changes: unknown;
  more: number | null;
}

/** An entry as the API answers it, or null (and a log line) when the row is not a valid entry. */
function fromRow(row: ActivityRow): ActivityEntry | null {
  const parsed = v.safeParse(ActivityEntrySchema, {
    id: row.id,
    at: isoOf(row.at),
    actor: { username: row.actor_username, name: row.actor_name },
    kind: row.kind,
    action: row.action,
    target: { id: row.target_id, label: row.target_label },
    changes: row.changes,
    ...(row.more === null ? {} : { more: row.more }),
  });
  if (parsed.success) return parsed.output;
  console.error(`Activity entry "${row.id}" is not valid and is left out.`);
  return null;
}

/**
 * Adds an entry to the log. Call it after the save has landed; it never throws (a failure is logged), so
 * the save it describes is never lost or answered as failed because the log could not be written.
 */
export async function recordActivity(input: ActivityInput, now = new Date()): Promise<ActivityEntry | null> {
  try {
    const all = input.changes ?? [];
    const entry: ActivityEntry = v.parse(ActivityEntrySchema, {
      id: newId(now),
      at: now.toISOString(),
      actor: { username: input.actor.username, name: input.actor.name.slice(0, 120) },
      kind: input.kind,
      action: input.action.slice(0, 80),
      target: { id: input.target.id.slice(0, 120), label: input.target.label.slice(0, 160) },
      changes: all.slice(0, MAX_CHANGES),
      ...(all.length > MAX_CHANGES ? { more: all.length - MAX_CHANGES } : {}),
    });
    await db().query(sql`
      INSERT INTO activity (id, at, actor_username, actor_name, kind, action, target_id, target_label, changes, more)
      VALUES (${entry.id}, ${entry.at}::timestamptz, ${entry.actor.username}, ${entry.actor.name}, ${entry.kind},
        ${entry.action}, ${entry.target.id}, ${entry.target.label}, ${json(entry.changes)}::jsonb, ${entry.more ?? null})`);
    return entry;
  } catch (cause) {
    console.error(`Could not record activity (${input.kind} ${input.action}): ${String(cause)}`);
    return null;
  }
}

/** One page of the log, newest first, filtered by person (username) and kind; `actors` is everyone in the log. */
export async function listActivity(query: {
  person?: string;
  kind?: ActivityKind;
  offset: number;
  limit: number;
}): Promise<Omit<ActivityPage, 'people'> & { actors: string[] }> {
  const where = sql`WHERE true
    ${query.person === undefined ? empty : sql`AND actor_username = ${query.person}`}
    ${query.kind === undefined ? empty : sql`AND kind = ${query.kind}`}`;
  const [rows, [{ total }], actors] = await Promise.all([
    db().query<ActivityRow>(sql`
      SELECT id, at, actor_username, actor_name, kind, action, target_id, target_label, changes, more
      FROM activity ${where}
      ORDER BY at DESC, id DESC
      LIMIT ${query.limit} OFFSET ${query.offset}`),
    db().query<{ total: number }>(sql`SELECT count(*)::int AS total FROM activity ${where}`),
    db().query<{ actor_username: string }>(
      sql`SELECT actor_username FROM activity GROUP BY actor_username ORDER BY actor_username`,
    ),
  ]);
  return {
    items: rows.map(fromRow).filter((item): item is ActivityEntry => item !== null),
    total,
    offset: query.offset,
    limit: query.limit,
    actors: actors.map((row) => row.actor_username),
  };
}

/** Removes every entry older than RETENTION_DAYS (the daily `activity-retention` function). Answers how many. */
export async function pruneActivity(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 24 * 60 * 60_000);
  const [{ removed }] = await db().query<{ removed: number }>(sql`
    WITH gone AS (DELETE FROM activity WHERE at < ${cutoff.toISOString()}::timestamptz RETURNING 1)
    SELECT count(*)::int AS removed FROM gone`);
  return removed;
}

/** The signed-in staff member as the log names them. */
export const actorOf = (user: { username: string; firstName: string; lastName: string }): Actor => ({
  username: user.username,
  name: `${user.firstName} ${user.lastName}`.trim() || user.username,
});
