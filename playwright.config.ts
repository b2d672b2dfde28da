import { defineConfig, devices } from '@playwright/test';
import { testLaunchOptions as launchOptions } from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 8888);
const baseURL = process.env.E2E_BASE_URL ?? `http://localhost:${port}`;

// Tests that save the site-wide settings (claims, partner RTOs, contact details) or fill the shared inbox in bulk run
// once, after the others, so no other test meets a claim switched off half-way or finds its own inquiry pushed off
// the inbox's first page. Settings saves carry the version they were loaded at, so two at once would be a real
// conflict: the facts spec and tests tagged @site-wide run in one project, one at a time. Bulk inbox tests are
// tagged @after-others.
const SITE_WIDE = /facts\.spec\.ts$/;
const SITE_WIDE_TAG = /@site-wide/;
// Catalogue editing and the settings rebuild rebuild the site and swap the served pages: they run after the others.
const REBUILDS = /(catalogue-editing|settings-rebuild)\.spec\.ts$/;
// Edit conflicts save settings and a course from two sides at once (versioned saves: any other save in between
// would be a real conflict too) and a course save starts a rebuild: after everything else, one test at a time.
const CONFLICTS = /edit-conflicts\.spec\.ts$/;
// The activity log test saves the settings too: after the site-wide tests, before the rebuilds, on its own.
const ACTIVITY = /activity\.spec\.ts$/;
const LATER = [SITE_WIDE, ACTIVITY, REBUILDS, CONFLICTS];
const AFTER_OTHERS = /@after-others/;
// A test that waits for the every-minute schedule holds its worker for up to a minute with nothing to do: it runs after
// the others, beside the site-wide tests (one worker), where a worker would otherwise wait too. Playwright starts the
// projects that follow once both have finished, so when the minute falls badly it lengthens that step instead.
const WAITS_FOR_SCHEDULE = /@waits-for-schedule/;
// Tests that mean one viewport are tagged and left out of the other project (not skipped at run time). Checks the
// screen size cannot change (API answers, server rules, staff workflows whose screens have phone tests of their
// own) carry @desktop-only too, through ONCE in tests/e2e/helpers/viewports.ts, so the phone run does not repeat them.
const DESKTOP_ONLY = /@desktop-only/;
const PHONE_ONLY = /@phone-only/;
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions };
const phone = {
  ...devices['Pixel 7'],
  viewport: { width: 360, height: 780 },
  launchOptions,
  browserName: 'chromium' as const,
};

export default defineConfig({
  testDir: 'tests/e2e',
  // Each run deletes the staff accounts it created when it ends (tests/e2e/helpers/run-accounts.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // A retry shows whether a failure is flaky or steady; scripts/test-all.sh counts a retried test as failed.
  retries: process.env.CI ? 1 : 0,
  // Admin tests make a dozen function calls; on a busy two-core machine that alone can take 30 s.
  timeout: 60_000,
  // Each function call on the local CLI costs about a second when the machine is busy; admin pages make
  // two or three in a row before they show anything.
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  // Playwright empties its output folder when it starts: a folder of its own keeps the server's log and the unit
  // report scripts/test-all.sh writes next to it.
  outputDir: 'test-results/e2e',
  // A trace records every step with screenshots, which costs the browser a tenth of its CPU; only a retry records
  // one (a failure keeps its page snapshot and error context either way, and a retried test counts as failed).
  use: { baseURL, trace: 'on-first-retry', launchOptions },
  projects: [
    {
      name: 'desktop',
      testIgnore: LATER,
      grepInvert: [PHONE_ONLY, AFTER_OTHERS, SITE_WIDE_TAG, WAITS_FOR_SCHEDULE],
      use: desktop,
    },
    {
      name: 'phone',
      testIgnore: LATER,
      grepInvert: [DESKTOP_ONLY, AFTER_OTHERS, SITE_WIDE_TAG, WAITS_FOR_SCHEDULE],
      use: phone,
    },
    // Playwright's grep sees the file name amid the titles: the facts spec, and tagged tests of other files.
    {
      name: 'site-wide',
      testIgnore: [ACTIVITY, REBUILDS, CONFLICTS],
      grep: [/(^|[\s/])facts\.spec\.ts\s/, SITE_WIDE_TAG],
      workers: 1,
      dependencies: ['desktop', 'phone'],
      use: desktop,
    },
    { name: 'after-others', grep: AFTER_OTHERS, testIgnore: LATER, dependencies: ['desktop', 'phone'], use: desktop },
    // One after the other, so the two viewports' runs do not fill the inbox under each other either.
    {
      name: 'after-others-phone',
      grep: AFTER_OTHERS,
      grepInvert: DESKTOP_ONLY,
      testIgnore: LATER,
      dependencies: ['after-others'],
      use: phone,
    },
    {
      name: 'schedule',
      grep: WAITS_FOR_SCHEDULE,
      testIgnore: LATER,
      dependencies: ['desktop', 'phone'],
      use: desktop,
    },
    { name: 'activity', testMatch: ACTIVITY, dependencies: ['site-wide'], use: desktop },
    { name: 'rebuilds', testMatch: REBUILDS, dependencies: ['activity', 'after-others-phone'], use: desktop },
    { name: 'conflicts', testMatch: CONFLICTS, dependencies: ['rebuilds'], fullyParallel: false, use: desktop },
  ],
  // The production-like local server: a real build served by the Netlify CLI with its offline blob store.
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: `node scripts/serve.mjs --port ${port}`,
        url: `${baseURL}/`,
        timeout: 240_000,
        reuseExistingServer: !process.env.CI,
        stdout: 'ignore',
        stderr: 'pipe',
      },
});
