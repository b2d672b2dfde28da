import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { dataStore } from './blobs.ts';
import {
  ActivityEntrySchema,
  type ActivityChange,
  type ActivityEntry,
  type ActivityKind,
  type ActivityPage,
} from '../schemas/activity.ts';

/**
 * The activity log (/admin/activity): who saved what, when, with the fields that changed. One blob per
 * entry in the `activity` store, keyed `YYYY-MM/<inverted time>.<kind>.<random>.<username>` (UTC month), so
 * the keys alone sort newest first, name the month, and carry what the filters need: a page reads only
 * its own entries. Recording is best-effort and always after the save: a failure is logged, never answered.
 * Entries older than RETENTION_DAYS are removed by the daily `activity-retention` function (pruneActivity).
 */
export const RETENTION_DAYS = 365;
/** An entry keeps at most this many changed fields (and says how many more there were). */
const MAX_CHANGES = 40;
/** Values are kept up to this many characters. */
const MAX_VALUE_LENGTH = 160;

/** Bookkeeping fields every record carries; their change says nothing a person did. */
const IGNORED = new Set(['version', 'updatedAt', 'updatedBy', 'createdAt', 'createdBy', 'views', 'statusRev', 'html']);

const store = () => dataStore('activity');
const MAX_TIME = 9_999_999_999_999;

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

const pad = (n: number) => String(n).padStart(13, '0');
const monthOf = (at: Date) => at.toISOString().slice(0, 7);
/** Key characters: the username's own ([a-z0-9._-]) and the schedule's marker; anything else is dropped. */
const keySafe = (text: string) => text.replace(/[^a-z0-9._~-]/gi, '').slice(0, 64) || 'unknown';

function keyFor(at: Date, kind: ActivityKind, username: string): string {
  return `${monthOf(at)}/${pad(MAX_TIME - at.getTime())}.${kind}.${randomBytes(4).toString('hex')}.${keySafe(username)}`;
}

interface KeyInfo {
  key: string;
  time: number;
  kind: string;
  username: string;
}

function parseKey(key: string): KeyInfo | null {
  const match = /^\d{4}-\d{2}\/(\d{13})\.([a-z]+)\.([0-9a-f]{8})\.(.+)$/.exec(key);
  if (!match) return null;
  return { key, time: MAX_TIME - Number(match[1]), kind: match[2], username: match[4] };
}

/**
 * Adds an entry to the log. Call it after the save has landed; it never throws (a failure is logged), so
 * the save it describes is never lost or answered as failed because the log could not be written.
 */
export async function recordActivity(input: ActivityInput, now = new Date()): Promise<ActivityEntry | null> {
  try {
    const all = input.changes ?? [];
    const key = keyFor(now, input.kind, input.actor.username);
    const entry: ActivityEntry = v.parse(ActivityEntrySchema, {
      id: key,
      at: now.toISOString(),
      actor: { username: input.actor.username, name: input.actor.name.slice(0, 120) },
      kind: input.kind,
      action: input.action.slice(0, 80),
      target: { id: input.target.id.slice(0, 120), label: input.target.label.slice(0, 160) },
      changes: all.slice(0, MAX_CHANGES),
      ...(all.length > MAX_CHANGES ? { more: all.length - MAX_CHANGES } : {}),
    });
    await store().setJSON(key, entry, { onlyIfNew: true });
    return entry;
  } catch (cause) {
    console.error(`Could not record activity (${input.kind} ${input.action}): ${String(cause)}`);
    return null;
  }
}

async function allKeys(): Promise<KeyInfo[]> {
  const { blobs } = await store().list();
  return blobs.map((blob) => parseKey(blob.key)).filter((info): info is KeyInfo => info !== null);
}

/** One page of the log, newest first, filtered by person (username) and kind. */
export async function listActivity(query: {
  person?: string;
  kind?: ActivityKind;
  offset: number;
  limit: number;
}): Promise<Omit<ActivityPage, 'people'> & { actors: string[] }> {
  const keys = (await allKeys()).sort((a, b) => b.time - a.time || a.key.localeCompare(b.key));
  const actors = [...new Set(keys.map((info) => info.username))];
  const matching = keys.filter(
    (info) =>
      (query.person === undefined || info.username === query.person) &&
      (query.kind === undefined || info.kind === query.kind),
  );
  const page = matching.slice(query.offset, query.offset + query.limit);
  const items = await Promise.all(
    page.map(async ({ key }) => {
      const parsed = v.safeParse(ActivityEntrySchema, await store().get(key, { type: 'json' }));
      if (parsed.success) return parsed.output;
      console.error(`Activity entry "${key}" is not valid and is left out.`);
      return null;
    }),
  );
  return {
    items: items.filter((item): item is ActivityEntry => item !== null),
    total: matching.length,
    offset: query.offset,
    limit: query.limit,
    actors,
  };
}

/** Removes every entry older than RETENTION_DAYS (the daily `activity-retention` function). Answers how many. */
export async function pruneActivity(now = new Date()): Promise<number> {
  const cutoff = now.getTime() - RETENTION_DAYS * 24 * 60 * 60_000;
  const expired = (await allKeys()).filter((info) => info.time < cutoff);
  for (const { key } of expired) await store().delete(key);
  return expired.length;
}

/** The signed-in staff member as the log names them. */
export const actorOf = (user: { username: string; firstName: string; lastName: string }): Actor => ({
  username: user.username,
  name: `${user.firstName} ${user.lastName}`.trim() || user.username,
});
