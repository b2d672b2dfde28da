/**
 * Under `npm start` the scheduled functions run on their schedules, as Netlify runs them: every function the
 * build declares with a `schedule`, at the times its cron names (UTC), never two runs of one function at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextRun, readSchedules, startSchedules } from '../../scripts/local-schedules.mjs';

describe('scheduled functions under npm start', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-26T10:00:30Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('reads every scheduled function of the project (post publishing, mail retries, evidence and activity retention)', async () => {
    const { readdirSync } = await import('node:fs');
    const { join, resolve } = await import('node:path');
    const dir = resolve(import.meta.dirname, '../../netlify/functions');
    const declared: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.mts'))) {
      const { config } = await import(join(dir, file));
      if (config?.schedule) declared.push(file.replace(/\.mts$/, ''));
    }
    expect(declared.sort()).toEqual(['activity-retention', 'blog-schedule', 'evidence-retention', 'mail-retry']);
    // The schedules are read from the manifest the CLI writes when it bundles the functions.
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { pathToFileURL } = await import('node:url');
    const root = mkdtempSync(join(tmpdir(), 'schedules-'));
    mkdirSync(join(root, '.netlify/functions'), { recursive: true });
    const functions = [
      ...declared.map((name, i) => ({ name, schedule: ['41 3 * * *', '* * * * *', '17 * * * *', '*/10 * * * *'][i] })),
      { name: 'courses', routes: [{ literal: '/api/courses' }] },
    ];
    writeFileSync(join(root, '.netlify/functions/manifest.json'), JSON.stringify({ functions }));
    expect(readSchedules(pathToFileURL(`${root}/`)).map((s: { name: string }) => s.name)).toEqual(declared.sort());
  });

  it('works out the next time in UTC, as the platform does', () => {
    expect(nextRun('* * * * *', new Date('2026-11-26T10:00:30Z')).toISOString()).toBe('2026-11-26T10:01:00.000Z');
    expect(nextRun('*/10 * * * *', new Date('2026-11-26T10:00:30Z')).toISOString()).toBe('2026-11-26T10:10:00.000Z');
    expect(nextRun('17 * * * *', new Date('2026-11-26T10:20:00Z')).toISOString()).toBe('2026-11-26T11:17:00.000Z');
  });

  it('runs each function at its times, with the next run time, until closed', async () => {
    const calls: string[] = [];
    const runs = startSchedules({
      schedules: [
        { name: 'blog-schedule', schedule: '* * * * *' },
        { name: 'mail-retry', schedule: '*/10 * * * *' },
      ],
      invoke: async (name, next) => {
        calls.push(`${new Date().toISOString().slice(11, 19)} ${name} next ${next.toISOString().slice(11, 16)}`);
      },
      log: () => {},
    });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual(['10:01:00 blog-schedule next 10:02']);
    await vi.advanceTimersByTimeAsync(9 * 60_000);
    expect(calls.filter((c) => c.includes('blog-schedule'))).toHaveLength(10);
    expect(calls.filter((c) => c.includes('mail-retry'))).toEqual(['10:10:00 mail-retry next 10:20']);
    runs.close();
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(calls).toHaveLength(11);
  });

  it('does not start a second run of a function while its last run is still going', async () => {
    let started = 0;
    let finish = () => {};
    const logged: string[] = [];
    const runs = startSchedules({
      schedules: [{ name: 'blog-schedule', schedule: '* * * * *' }],
      invoke: () => {
        started++;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      log: (message) => logged.push(message),
    });
    await vi.advanceTimersByTimeAsync(30_000 + 3 * 60_000);
    expect(started).toBe(1);
    expect(logged.filter((m) => m.includes('still running'))).toHaveLength(3);
    finish();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(started).toBe(2);
    runs.close();
  });

  it('a failed run is reported and the schedule goes on', async () => {
    const logged: string[] = [];
    let calls = 0;
    const runs = startSchedules({
      schedules: [{ name: 'mail-retry', schedule: '* * * * *' }],
      invoke: async () => {
        calls++;
        throw new Error('the CLI answered 500');
      },
      log: (message) => logged.push(message),
    });
    await vi.advanceTimersByTimeAsync(30_000 + 60_000);
    expect(calls).toBe(2);
    expect(logged[0]).toContain('mail-retry failed: the CLI answered 500');
    runs.close();
  });

  it('an unreadable schedule is reported, and the others still run', async () => {
    const logged: string[] = [];
    const ran: string[] = [];
    const runs = startSchedules({
      schedules: [
        { name: 'broken', schedule: 'every now and then' },
        { name: 'blog-schedule', schedule: '* * * * *' },
      ],
      invoke: async (name) => {
        ran.push(name);
      },
      log: (message) => logged.push(message),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(ran).toEqual(['blog-schedule']);
    expect(logged[0]).toContain('The schedule of broken');
    runs.close();
  });
});
