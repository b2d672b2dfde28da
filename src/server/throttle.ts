import { createHash, randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import * as v from 'valibot';
import { db, json, sql, type Queryable } from '../platform/database.ts';
import { ThrottleCounterSchema, type ThrottleCounter } from '../schemas/throttle.ts';

/**
 * Brute-force protection for sign-in. Failures are counted per (account, IP) pair, per IP across all
 * accounts and per account across all IPs; past a threshold each further failure locks that scope for
 * longer (doubling), up to a cap. Locks always end, counters are forgotten after an hour without
 * failures, attempts made while locked are refused without being counted, and the account-wide lock
 * never applies to an address the account has signed in from before, so nobody can keep the owner out.
 * An address means an IPv4 address, or an IPv6 /64 (one customer's network: a single client can pick any
 * address inside it at will), so fresh addresses of one network share their counters.
 *
 * The counters are rows of `sign_in_counters`, one per scope. Every change to them is a read-modify-write in
 * one short transaction that holds the rows locked (created first if missing, locked in key order), so
 * parallel attempts from any number of function instances queue in the database and never lose a count.
 */
export interface Policy {
  threshold: number;
  baseMs: number;
  capMs: number;
}

export const POLICIES = {
  pair: { threshold: 5, baseMs: 30_000, capMs: 15 * 60_000 },
  ip: { threshold: 30, baseMs: 60_000, capMs: 60 * 60_000 },
  account: { threshold: 100, baseMs: 60_000, capMs: 15 * 60_000 },
} satisfies Record<string, Policy>;

export const FORGET_AFTER_MS = 60 * 60_000;

type Counter = ThrottleCounter;

interface CounterRow {
  key: string;
  failures: number;
  last_failure_at: number;
  locked_until: number;
  trusted: string[];
  pending: unknown;
}
const COUNTER_COLUMNS = sql`key, failures, last_failure_at::float8 AS last_failure_at,
  locked_until::float8 AS locked_until, trusted, pending`;

/** A counter row as the code uses it; a `pending` list of the wrong shape counts as empty (never blocks sign-in). */
function fromRow(row: CounterRow): Counter {
  const parsed = v.safeParse(ThrottleCounterSchema, {
    failures: row.failures,
    lastFailureAt: row.last_failure_at,
    lockedUntil: row.locked_until,
    trusted: row.trusted,
    pending: row.pending,
  });
  if (parsed.success) return parsed.output;
  console.error(`Sign-in counter "${row.key}" is not valid; its attempts in flight are forgotten.`);
  return {
    failures: row.failures,
    lastFailureAt: row.last_failure_at,
    lockedUntil: row.locked_until,
    trusted: row.trusted.slice(-20),
  };
}

/** The counters of these keys that exist (a plain read: nothing is locked or written). */
async function readCounters(keys: string[]): Promise<Map<string, Counter>> {
  const rows = await db().query<CounterRow>(
    sql`SELECT ${COUNTER_COLUMNS} FROM sign_in_counters WHERE key = ANY(${keys})`,
  );
  return new Map(rows.map((row) => [row.key, fromRow(row)]));
}

/**
 * The rows of these keys in this transaction, created if missing and locked, in key order (every transaction
 * here takes them in that order, so two never wait for each other in a circle). A row the daily clean-up
 * deleted between the insert and the lock is simply made again.
 */
async function lockRows(tx: Queryable, keys: string[]): Promise<Map<string, Counter>> {
  for (let round = 0; ; round++) {
    await tx.query(
      sql`INSERT INTO sign_in_counters (key) SELECT unnest(${keys}::text[]) ORDER BY 1 ON CONFLICT (key) DO NOTHING`,
    );
    const rows = await tx.query<CounterRow>(
      sql`SELECT ${COUNTER_COLUMNS} FROM sign_in_counters WHERE key = ANY(${keys}) ORDER BY key FOR UPDATE`,
    );
    if (rows.length === keys.length || round >= 2) return new Map(rows.map((row) => [row.key, fromRow(row)]));
  }
}

/**
 * Read-modify-write of the counters of `keys` in one short transaction with their rows locked: `change` sees
 * every counter (a new one is all zeros) and answers the counters to write and what to return.
 */
async function changeCounters<T>(
  keys: string[],
  change: (counters: Map<string, Counter>) => { write: Map<string, Counter>; answer: T },
): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  return db().transaction(async (tx) => {
    const { write, answer } = change(await lockRows(tx, sorted));
    for (const [key, counter] of write)
      await tx.query(sql`
        UPDATE sign_in_counters SET failures = ${counter.failures}, last_failure_at = ${counter.lastFailureAt},
          locked_until = ${counter.lockedUntil}, trusted = ${counter.trusted ?? []}::text[],
          pending = ${json(counter.pending ?? [])}::jsonb, updated_at = now()
        WHERE key = ${key}`);
    return answer;
  });
}

const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 40);

export function lockDuration(failures: number, policy: Policy): number {
  if (failures < policy.threshold) return 0;
  return Math.min(policy.baseMs * 2 ** Math.min(failures - policy.threshold, 30), policy.capMs);
}

/** The eight 16-bit groups of a valid IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const before = groups(head);
  const after = groups(tail);
  const gap = tail === undefined ? 0 : 8 - before.length - after.length;
  return [...before, ...Array<number>(gap).fill(0), ...after];
}

/**
 * The address a client is counted by: an IPv4 address as it is (also when written as IPv4-mapped IPv6,
 * ::ffff:a.b.c.d), an IPv6 address by its /64 network. Anything else (no address known) as given.
 */
export function addressScope(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, '');
  if (isIPv4(address) || !isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

function scopes(username: string, ip: string) {
  const user = username.trim().toLowerCase();
  const address = addressScope(ip);
  const ipHash = hash(`ip:${address}`);
  return {
    ipHash,
    keys: {
      // Prefixed by the account, so an unlock can find every address's counter of the account.
      pair: `pair-${hash(user)}-${hash(`${user}\n${address}`)}`,
      ip: `ip-${ipHash}`,
      account: `account-${hash(user)}`,
    } as const,
  };
}

export type ScopeName = keyof typeof POLICIES;

/**
 * On this machine every browser, test and script shares the loopback address, so the address-wide
 * scope would lock them all together; the pair and account scopes still apply. Deployed, the platform
 * gives each request the client's real address, never a loopback one.
 */
function isLoopback(ip: string): boolean {
  const address = ip.trim().toLowerCase().replace(/%.*$/, '');
  if (isIPv6(address) && ipv6Groups(address).join(':') === '0:0:0:0:0:0:0:1') return true;
  return addressScope(address).startsWith('127.') && isIPv4(addressScope(address));
}
const scopesFor = (ip: string): ScopeName[] => (isLoopback(ip) ? ['pair', 'account'] : ['pair', 'ip', 'account']);

/** How long a reserved attempt counts as in flight if its instance dies before settling it. */
export const PENDING_MS = 30_000;

/** Failures that count now: counters are forgotten an hour after their last failure. */
const liveFailures = (counter: Counter | null, now: number) =>
  !counter || now - counter.lastFailureAt > FORGET_AFTER_MS ? 0 : counter.failures;
const livePending = (counter: Counter | null, now: number) =>
  (counter?.pending ?? []).filter((entry) => entry.until > now);

/** The locks in force for this client and account now (attempts in flight aside). */
export async function lockState(
  username: string,
  ip: string,
  now = Date.now(),
): Promise<{ waitMs: number; lockedScopes: ScopeName[] }> {
  const { ipHash, keys } = scopes(username, ip);
  const wanted = scopesFor(ip);
  const counters = await readCounters(wanted.map((scope) => keys[scope]));
  let waitMs = 0;
  const lockedScopes: ScopeName[] = [];
  for (const scope of wanted) {
    const counter = counters.get(keys[scope]);
    if (!counter || counter.lockedUntil <= now) continue;
    if (scope === 'account' && counter.trusted?.includes(ipHash)) continue;
    lockedScopes.push(scope);
    waitMs = Math.max(waitMs, counter.lockedUntil - now);
  }
  return { waitMs, lockedScopes };
}

/** Milliseconds until this client may try this account again; 0 when it may try now (ignores attempts in flight). */
export async function lockedFor(username: string, ip: string, now = Date.now()): Promise<number> {
  return (await lockState(username, ip, now)).waitMs;
}

export type Reservation =
  | { ok: true; id: string; username: string; ip: string; scopes: ScopeName[] }
  /** `refusedBy` names the scopes that said no; `failed` is set when a counter could not be written at all. */
  | { ok: false; waitMs: number; refusedBy: ScopeName[]; failed?: boolean };

/**
 * Reserves one password check before any hashing, for all scopes at once in one transaction with their rows
 * locked: the attempt is refused while a scope is locked, or when the failures counted plus the attempts
 * already in flight would pass the scope's threshold (past it, one attempt at a time). A burst of parallel
 * guesses queues on the rows' locks, so N of them can never check more passwords than the policy allows. If
 * the counters cannot be written (database down) the attempt is refused too: no check without bookkeeping.
 * `skip` leaves scopes out (the sign-in link path checks a password past the account-wide lock).
 */
export async function reserveAttempt(
  username: string,
  ip: string,
  now = Date.now(),
  skip: ScopeName[] = [],
): Promise<Reservation> {
  const { ipHash, keys } = scopes(username, ip);
  const id = randomUUID();
  const wanted = scopesFor(ip).filter((scope) => !skip.includes(scope));
  try {
    // A lock in force refuses at once, without writing anything; the reservation below settles races.
    const state = await lockState(username, ip, now);
    const locked = state.lockedScopes.filter((scope) => wanted.includes(scope));
    if (locked.length) return { ok: false, waitMs: state.waitMs, refusedBy: locked };

    return await changeCounters(
      wanted.map((scope) => keys[scope]),
      (counters): { write: Map<string, Counter>; answer: Reservation } => {
        const write = new Map<string, Counter>();
        const refused: { scope: ScopeName; wait: number }[] = [];
        for (const scope of wanted) {
          const current = counters.get(keys[scope]) ?? emptyCounter();
          const pending = livePending(current, now);
          const exempt = scope === 'account' && Boolean(current.trusted?.includes(ipHash));
          if (!exempt) {
            if (current.lockedUntil > now) {
              refused.push({ scope, wait: current.lockedUntil - now });
              continue;
            }
            if (pending.length >= Math.max(POLICIES[scope].threshold - liveFailures(current, now), 1)) {
              refused.push({ scope, wait: Math.max(1000, Math.min(...pending.map((entry) => entry.until)) - now) });
              continue;
            }
          }
          write.set(keys[scope], { ...current, pending: [...pending, { id, until: now + PENDING_MS }] });
        }
        // All scopes or none: a refused attempt reserves nothing.
        if (refused.length)
          return {
            write: new Map(),
            answer: {
              ok: false,
              waitMs: Math.max(...refused.map((entry) => entry.wait)),
              refusedBy: refused.map((entry) => entry.scope),
            },
          };
        return { write, answer: { ok: true, id, username, ip, scopes: wanted } };
      },
    );
  } catch (cause) {
    console.error(`Sign-in throttle: could not reserve an attempt: ${String(cause)}`);
    return { ok: false, waitMs: 1000, refusedBy: wanted, failed: true };
  }
}

const emptyCounter = (): Counter => ({ failures: 0, lastFailureAt: 0, lockedUntil: 0 });

/**
 * Ends a reserved attempt: 'failure' counts it (and may lock), 'success' clears the pair's failures and
 * trusts the address for the account, 'release' just gives the reservation back. Throws if the counters
 * cannot be written; the caller then refuses the attempt.
 */
export async function settle(
  reservation: Extract<Reservation, { ok: true }>,
  outcome: 'failure' | 'success' | 'release',
  now = Date.now(),
): Promise<void> {
  if (!reservation.scopes.length) return;
  const { ipHash, keys } = scopes(reservation.username, reservation.ip);
  await changeCounters(
    reservation.scopes.map((scope) => keys[scope]),
    (counters) => {
      const write = new Map<string, Counter>();
      for (const scope of reservation.scopes) {
        const current = counters.get(keys[scope]) ?? emptyCounter();
        const base: Counter = {
          ...current,
          pending: livePending(current, now).filter((entry) => entry.id !== reservation.id),
        };
        if (outcome === 'release') write.set(keys[scope], base);
        else if (outcome === 'success') {
          if (scope === 'pair') write.set(keys[scope], { ...base, failures: 0, lastFailureAt: 0, lockedUntil: 0 });
          else if (scope === 'account')
            write.set(keys[scope], {
              ...base,
              trusted: [...(current.trusted ?? []).filter((entry) => entry !== ipHash), ipHash].slice(-20),
            });
          else write.set(keys[scope], base);
        } else {
          const failures = liveFailures(current, now) + 1;
          const lock = lockDuration(failures, POLICIES[scope]);
          write.set(keys[scope], { ...base, failures, lastFailureAt: now, lockedUntil: lock ? now + lock : 0 });
        }
      }
      return { write, answer: undefined };
    },
  );
}

/** Counts a failure for this client without a reservation (tests and tools). */
export async function recordFailure(username: string, ip: string, now = Date.now()): Promise<void> {
  await settle({ ok: true, id: '', username, ip, scopes: scopesFor(ip) }, 'failure', now);
}

/** A correct password from this address: clear its pair counter and remember the address for the account. */
export async function recordSuccess(username: string, ip: string, now = Date.now()): Promise<void> {
  await settle(
    { ok: true, id: '', username, ip, scopes: scopesFor(ip).filter((scope) => scope !== 'ip') },
    'success',
    now,
  );
}

/**
 * Staff unlock (users CLI): forgets the account's failures and locks, account-wide and for every address
 * (its pair counters all start with the account's hash, so one statement finds them), keeping the addresses
 * it is trusted from. Address-wide counters (shared by all accounts) are left alone. Returns how many
 * counters were cleared.
 */
export async function unlockAccount(username: string): Promise<number> {
  const { keys } = scopes(username, 'unlock');
  const pairs = `pair-${hash(username.trim().toLowerCase())}-%`;
  const [{ cleared }] = await db().query<{ cleared: number }>(sql`
    WITH gone AS (DELETE FROM sign_in_counters WHERE key LIKE ${pairs} RETURNING 1)
    SELECT count(*)::int AS cleared FROM gone`);
  const account = await db().query(sql`
    UPDATE sign_in_counters SET failures = 0, last_failure_at = 0, locked_until = 0, updated_at = now()
    WHERE key = ${keys.account} RETURNING key`);
  return cleared + account.length;
}

/**
 * Deletes the counters nobody has failed on for longer than FORGET_AFTER_MS (they count for nothing any more),
 * except account counters that remember trusted addresses: the daily `activity-retention` run, so the table
 * does not grow for ever. Answers how many went.
 */
export async function forgetOldCounters(now = Date.now()): Promise<number> {
  const cutoff = now - FORGET_AFTER_MS;
  const [{ gone }] = await db().query<{ gone: number }>(sql`
    WITH gone AS (
      DELETE FROM sign_in_counters
      WHERE last_failure_at < ${cutoff} AND locked_until <= ${now} AND cardinality(trusted) = 0
        AND updated_at < ${new Date(cutoff).toISOString()}::timestamptz
      RETURNING 1)
    SELECT count(*)::int AS gone FROM gone`);
  return gone;
}

export function lockedMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
