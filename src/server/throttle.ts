import { createHash, randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import * as v from 'valibot';
import { acrossThreads, dataStore, updateJSON } from './blobs.ts';
import { ThrottleCounterSchema, type ThrottleCounter } from '../schemas/throttle.ts';

/**
 * Brute-force protection for sign-in. Failures are counted per (account, IP) pair, per IP across all
 * accounts and per account across all IPs; past a threshold each further failure locks that scope for
 * longer (doubling), up to a cap. Locks always end, counters are forgotten after an hour without
 * failures, attempts made while locked are refused without being counted, and the account-wide lock
 * never applies to an address the account has signed in from before, so nobody can keep the owner out.
 * An address means an IPv4 address, or an IPv6 /64 (one customer's network: a single client can pick any
 * address inside it at will), so fresh addresses of one network share their counters.
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

/** A stored counter, or null when it is missing or damaged (empty, not JSON, wrong shape): damage counts as absent. */
function parseCounter(key: string, stored: unknown): Counter | null {
  if (stored === null || stored === undefined) return null;
  const parsed = v.safeParse(ThrottleCounterSchema, stored);
  if (parsed.success) return parsed.output;
  console.error(`Sign-in counter "${key}" is not valid and counts as absent:`, parsed.issues[0]?.message);
  return null;
}

async function readCounter(key: string): Promise<Counter | null> {
  const raw = await store().get(key, { type: 'text' });
  if (raw === null || raw === '') return null;
  try {
    return parseCounter(key, JSON.parse(raw));
  } catch {
    console.error(`Sign-in counter "${key}" is not JSON and counts as absent.`);
    return null;
  }
}

/**
 * Read-modify-write of a counter (conditional writes, see updateJSON), one at a time across the threads
 * of this process (the local emulation's instances, see acrossThreads); a damaged one reads as absent.
 */
function updateCounter(
  key: string,
  change: (current: Counter | null) => Counter | undefined,
  maxWaitMs = Number.POSITIVE_INFINITY,
) {
  return acrossThreads(
    `throttle\n${key}`,
    () => updateJSON<unknown>(store(), key, (stored) => change(parseCounter(key, stored))),
    maxWaitMs,
  );
}

/**
 * How long a sign-in request waits for a counter another instance is updating: a burst of parallel sign-ins
 * queues there, and one that would wait longer is refused as busy (429) instead of holding its function
 * instance until the platform's time limit. (Tools and tests that count failures wait as long as it takes.)
 */
export const SIGN_IN_LOCK_WAIT_MS = 8000;

const store = () => dataStore('throttle');
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
  const entries = await Promise.all(
    scopesFor(ip).map(async (scope) => [scope, await readCounter(keys[scope])] as const),
  );
  let waitMs = 0;
  const lockedScopes: ScopeName[] = [];
  for (const [scope, counter] of entries) {
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
  | {
      ok: true;
      id: string;
      username: string;
      ip: string;
      scopes: ScopeName[];
      /** How long its counter updates wait for another instance's (a sign-in request: SIGN_IN_LOCK_WAIT_MS). */
      maxWaitMs?: number;
    }
  /** `refusedBy` names the scopes that said no; `failed` is set when a counter could not be written at all. */
  | { ok: false; waitMs: number; refusedBy: ScopeName[]; failed?: boolean };

/**
 * Reserves one password check before any hashing, atomically per scope (conditional writes with retry,
 * see updateJSON): the attempt is refused while a scope is locked, or when the failures counted plus the
 * attempts already in flight would pass the scope's threshold (past it, one attempt at a time). So N
 * parallel guesses can never check more passwords than the policy allows. If a counter cannot be written
 * (too many concurrent writers, store down) the attempt is refused too: no check without bookkeeping.
 * `skip` leaves scopes out (the sign-in link path checks a password past the account-wide lock).
 */
export async function reserveAttempt(
  username: string,
  ip: string,
  now = Date.now(),
  skip: ScopeName[] = [],
  maxWaitMs = Number.POSITIVE_INFINITY,
): Promise<Reservation> {
  const { ipHash, keys } = scopes(username, ip);
  const id = randomUUID();
  const wanted = scopesFor(ip).filter((scope) => !skip.includes(scope));
  // A lock in force refuses at once, without writing anything; the reservation below settles races.
  try {
    const state = await lockState(username, ip, now);
    const locked = state.lockedScopes.filter((scope) => wanted.includes(scope));
    if (locked.length) return { ok: false, waitMs: state.waitMs, refusedBy: locked };
  } catch (cause) {
    console.error(`Sign-in throttle: could not read the counters: ${String(cause)}`);
    return { ok: false, waitMs: 1000, refusedBy: wanted, failed: true };
  }
  const outcomes = await Promise.all(
    wanted.map(async (scope): Promise<{ scope: ScopeName; reserved: boolean; wait: number; failed?: boolean }> => {
      const policy = POLICIES[scope];
      let wait = 0;
      try {
        await updateCounter(
          keys[scope],
          (current) => {
            wait = 0;
            const pending = livePending(current, now);
            const exempt = scope === 'account' && Boolean(current?.trusted?.includes(ipHash));
            if (!exempt) {
              if (current && current.lockedUntil > now) {
                wait = current.lockedUntil - now;
                return undefined;
              }
              const failures = liveFailures(current, now);
              if (pending.length >= Math.max(policy.threshold - failures, 1)) {
                wait = Math.max(1000, Math.min(...pending.map((entry) => entry.until)) - now);
                return undefined;
              }
            }
            return { ...emptyCounter(), ...current, pending: [...pending, { id, until: now + PENDING_MS }] };
          },
          maxWaitMs,
        );
        return { scope, reserved: wait === 0, wait };
      } catch (cause) {
        console.error(`Sign-in throttle: could not reserve an attempt (${scope}): ${String(cause)}`);
        return { scope, reserved: false, wait: 1000, failed: true };
      }
    }),
  );
  const refused = outcomes.filter((outcome) => !outcome.reserved);
  if (refused.length === 0) return { ok: true, id, username, ip, scopes: wanted, maxWaitMs };
  // Give back what was reserved; if that fails the entries expire by themselves.
  const reserved = outcomes.filter((outcome) => outcome.reserved).map((outcome) => outcome.scope);
  await settle({ ok: true, id, username, ip, scopes: reserved, maxWaitMs }, 'release', now).catch(() => {});
  return {
    ok: false,
    waitMs: Math.max(...refused.map((outcome) => outcome.wait)),
    refusedBy: refused.map((outcome) => outcome.scope),
    ...(refused.some((outcome) => outcome.failed) ? { failed: true } : {}),
  };
}

const emptyCounter = (): Counter => ({ failures: 0, lastFailureAt: 0, lockedUntil: 0 });

/**
 * Ends a reserved attempt: 'failure' counts it (and may lock), 'success' clears the pair's failures and
 * trusts the address for the account, 'release' just gives the reservation back. Throws if a counter
 * cannot be written; the caller then refuses the attempt.
 */
export async function settle(
  reservation: Extract<Reservation, { ok: true }>,
  outcome: 'failure' | 'success' | 'release',
  now = Date.now(),
): Promise<void> {
  const { ipHash, keys } = scopes(reservation.username, reservation.ip);
  await Promise.all(
    reservation.scopes.map((scope) =>
      updateCounter(
        keys[scope],
        (current) => {
          const pending = livePending(current, now).filter((entry) => entry.id !== reservation.id);
          const base: Counter = { ...emptyCounter(), ...current, pending };
          if (!pending.length) delete base.pending;
          if (outcome === 'release') return current ? base : undefined;
          if (outcome === 'success') {
            if (scope === 'pair') return { ...base, failures: 0, lastFailureAt: 0, lockedUntil: 0 };
            if (scope === 'account')
              return {
                ...base,
                trusted: [...(current?.trusted ?? []).filter((entry) => entry !== ipHash), ipHash].slice(-20),
              };
            return current ? base : undefined;
          }
          const failures = liveFailures(current, now) + 1;
          const lock = lockDuration(failures, POLICIES[scope]);
          return { ...base, failures, lastFailureAt: now, lockedUntil: lock ? now + lock : 0 };
        },
        reservation.maxWaitMs,
      ),
    ),
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
 * Staff unlock (users CLI): forgets the account's failures and locks, account-wide and for every
 * address, keeping the addresses it is trusted from. A damaged account counter (empty, not JSON, wrong
 * shape) is removed. Address-wide counters (shared by all accounts) are left alone. Returns how many
 * counters were cleared.
 */
export async function unlockAccount(username: string): Promise<number> {
  const { keys } = scopes(username, 'unlock');
  const user = username.trim().toLowerCase();
  let cleared = 0;
  const { blobs } = await store().list({ prefix: `pair-${hash(user)}-` });
  for (const { key } of blobs) {
    await store().delete(key);
    cleared++;
  }
  const stored = await store().get(keys.account, { type: 'text' });
  if (stored === null) return cleared;
  if ((await readCounter(keys.account)) === null) {
    await store().delete(keys.account);
    return cleared + 1;
  }
  await updateCounter(keys.account, (current) => {
    if (!current) return undefined;
    return { failures: 0, lastFailureAt: 0, lockedUntil: 0, ...(current.trusted ? { trusted: current.trusted } : {}) };
  });
  return cleared + 1;
}

export function lockedMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
