// Runs the scheduled functions on their schedules under `npm start`, as Netlify does in production. The
// Netlify CLI runs a scheduled function only when someone requests it; here each one is requested at the
// times its `config.schedule` (cron, UTC, as on Netlify) names, with the request the platform sends (a POST
// with `next_run` and the scheduler's user agent). The CLI listens on loopback only, so no visitor can start one.
import { readFileSync } from 'node:fs';
import { CronExpressionParser } from 'cron-parser';

/** The scheduled functions of the last build: `[{ name, schedule }]`, from the CLI's functions manifest. */
export function readSchedules(directory = new URL('../', import.meta.url)) {
  const manifest = JSON.parse(readFileSync(new URL('.netlify/functions/manifest.json', directory), 'utf8'));
  return (manifest.functions ?? [])
    .filter((fn) => typeof fn.schedule === 'string' && fn.schedule.trim() !== '')
    .map((fn) => ({ name: fn.name, schedule: fn.schedule }));
}

/** The first time after `from` that `schedule` names (UTC). */
export function nextRun(schedule, from) {
  return CronExpressionParser.parse(schedule, { tz: 'Etc/UTC', currentDate: from }).next().toDate();
}

/**
 * Starts a timer per scheduled function. A run that is still going when its next time comes is not started
 * twice; that time is skipped, as one slow run should not pile up behind itself.
 * @param {object} options
 * @param {{ name: string, schedule: string }[]} options.schedules
 * @param {(name: string, nextRunAt: Date) => Promise<void>} options.invoke  runs one function
 * @param {() => Date} [options.now]
 * @param {(message: string) => void} [options.log]
 * @returns {{ close: () => void }}
 */
export function startSchedules({ schedules, invoke, now = () => new Date(), log = console.error }) {
  const timers = new Map();
  const running = new Set();
  let closed = false;
  const plan = ({ name, schedule }) => {
    if (closed) return;
    let at;
    try {
      at = nextRun(schedule, now());
    } catch (cause) {
      log(`  The schedule of ${name} ("${schedule}") cannot be read: ${cause.message}; it does not run here.`);
      return;
    }
    // Timers fire at most ~24.8 days ahead; a longer wait is taken in steps.
    const wait = Math.min(Math.max(0, at.getTime() - now().getTime()), 2 ** 31 - 1);
    timers.set(
      name,
      setTimeout(() => {
        if (closed) return;
        if (now().getTime() < at.getTime()) return plan({ name, schedule });
        const following = nextRun(schedule, at);
        if (running.has(name)) {
          log(`  ${name} is still running from its last time; this run is skipped.`);
        } else {
          running.add(name);
          invoke(name, following)
            .catch((cause) => log(`  The scheduled function ${name} failed: ${cause?.message ?? cause}`))
            .finally(() => running.delete(name));
        }
        plan({ name, schedule });
      }, wait),
    );
  };
  for (const entry of schedules) plan(entry);
  return {
    close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Runs a scheduled function through the CLI the way the platform's scheduler calls it. */
export function invokeThroughCli(origin, { timeoutMs = 60_000 } = {}) {
  return async (name, nextRunAt) => {
    const response = await fetch(`${origin}/.netlify/functions/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Netlify Clockwork', 'x-nf-event': 'schedule' },
      body: JSON.stringify({ next_run: nextRunAt.toISOString() }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    if (response.status >= 500) throw new Error(`the CLI answered ${response.status}`);
  };
}
