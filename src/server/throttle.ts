import { createHash } from 'node:crypto';
import { dataStore, updateJSON } from './blobs.ts';

/**
 * Brute-force protection for sign-in. Failures are counted per (account, IP) pair, per IP across all
 * accounts and per account across all IPs; past a threshold each further failure locks that scope for
 * longer (doubling), up to a cap. Locks always end, counters are forgotten after an hour without
 * failures, attempts made while locked are refused without being counted, and the account-wide lock
 * never applies to an address the account has signed in from before, so nobody can keep the owner out.
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

interface Counter {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
  /** Account scope only: hashes of addresses that signed in successfully (most recent last). */
  trusted?: string[];
}

const store = () => dataStore('throttle');
const hash = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 40);

export function lockDuration(failures: number, policy: Policy): number {
  if (failures < policy.threshold) return 0;
  return Math.min(policy.baseMs * 2 ** Math.min(failures - policy.threshold, 30), policy.capMs);
}

function scopes(username: string, ip: string) {
  const user = username.trim().toLowerCase();
  const ipHash = hash(`ip:${ip}`);
  return {
    ipHash,
    keys: {
      pair: `pair-${hash(`${user}\n${ip}`)}`,
      ip: `ip-${ipHash}`,
      account: `account-${hash(user)}`,
    } as const,
  };
}

type ScopeName = keyof typeof POLICIES;

/**
 * On this machine every browser, test and script shares the loopback address, so the address-wide
 * scope would lock them all together; the pair and account scopes still apply. Deployed, the platform
 * gives each request the client's real address, never a loopback one.
 */
const isLoopback = (ip: string) => ip === '::1' || ip === '127.0.0.1' || ip.startsWith('::ffff:127.') || ip.startsWith('127.');
const scopesFor = (ip: string): ScopeName[] => (isLoopback(ip) ? ['pair', 'account'] : ['pair', 'ip', 'account']);

/** Milliseconds until this client may try this account again; 0 when it may try now. */
export async function lockedFor(username: string, ip: string, now = Date.now()): Promise<number> {
  const { ipHash, keys } = scopes(username, ip);
  const entries = await Promise.all(
    scopesFor(ip).map(async (scope) => [scope, (await store().get(keys[scope], { type: 'json' })) as Counter | null] as const),
  );
  let wait = 0;
  for (const [scope, counter] of entries) {
    if (!counter) continue;
    if (scope === 'account' && counter.trusted?.includes(ipHash)) continue;
    wait = Math.max(wait, counter.lockedUntil - now);
  }
  return Math.max(0, wait);
}

export async function recordFailure(username: string, ip: string, now = Date.now()): Promise<void> {
  const { keys } = scopes(username, ip);
  await Promise.all(
    scopesFor(ip).map((scope) =>
      updateJSON<Counter>(store(), keys[scope], (current) => {
        const fresh = !current || now - current.lastFailureAt > FORGET_AFTER_MS;
        const failures = (fresh ? 0 : current.failures) + 1;
        const lock = lockDuration(failures, POLICIES[scope]);
        return {
          failures,
          lastFailureAt: now,
          lockedUntil: lock ? now + lock : 0,
          ...(current?.trusted ? { trusted: current.trusted } : {}),
        };
      }),
    ),
  );
}

/** A correct password from this address: clear its pair counter and remember the address for the account. */
export async function recordSuccess(username: string, ip: string): Promise<void> {
  const { ipHash, keys } = scopes(username, ip);
  await store().delete(keys.pair);
  await updateJSON<Counter>(store(), keys.account, (current) => {
    const trusted = [...(current?.trusted ?? []).filter((entry) => entry !== ipHash), ipHash].slice(-20);
    return { failures: current?.failures ?? 0, lastFailureAt: current?.lastFailureAt ?? 0, lockedUntil: current?.lockedUntil ?? 0, trusted };
  });
}

export function lockedMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
