import { defineConfig, devices } from '@playwright/test';
import { testLaunchOptions as launchOptions } from './scripts/chromium.mjs';
import { PHONE_SCREEN } from './tests/e2e/helpers/viewports';

const port = Number(process.env.E2E_PORT ?? 8888);
const baseURL = process.env.E2E_BASE_URL ?? `http://localhost:${port}`;

// Tests that save the site-wide settings, fill the shared inbox in bulk or change the catalogue run once, after the
// desktop and phone tests, so none of those meets a claim switched off half-way, finds its own inquiry pushed off the
// inbox's first page or reads a page while a rebuild swaps it. They run in two projects side by side, each one test
// at a time:
// - site-wide: every test that saves the settings (the facts spec, the settings rebuild, and tests tagged
//   @site-wide). A settings save carries the version it was loaded at, so two at once would be a real conflict.
// - after-others: catalogue editing (its saves are versioned per course and category, not settings) and tests
//   tagged @after-others: the bulk inbox tests at both screen sizes, the check that a post scheduled during the main
//   run went live by itself, and a course edit conflict.
// Saves of either kind start a rebuild, and a test that waits for one waits for a build that started after the latest
// request, its own or a later one (src/server/rebuild.ts), so the other project's saves only make it wait longer.
const SITE_WIDE = /(facts|settings-rebuild)\.spec\.ts$/;
const SITE_WIDE_TAG = /@site-wide/;
const CATALOGUE = /catalogue-editing\.spec\.ts$/;
const LATER = [SITE_WIDE, CATALOGUE];
const AFTER_OTHERS = /@after-others/;
// Tests that mean one viewport are tagged and left out of the other project (not skipped at run time). Checks the
// screen size cannot change (API answers, server rules, staff workflows whose screens have phone tests of their
// own) carry @desktop-only too, through ONCE in tests/e2e/helpers/viewports.ts, so the phone run does not repeat them.
const DESKTOP_ONLY = /@desktop-only/;
const PHONE_ONLY = /@phone-only/;
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions };
const phone = {
  ...devices['Pixel 7'],
  ...PHONE_SCREEN,
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
      grepInvert: [PHONE_ONLY, AFTER_OTHERS, SITE_WIDE_TAG],
      use: desktop,
    },
    {
      name: 'phone',
      testIgnore: LATER,
      grepInvert: [DESKTOP_ONLY, AFTER_OTHERS, SITE_WIDE_TAG],
      use: phone,
    },
    // Playwright's grep sees the file name amid the titles: these files, and tagged tests of other files.
    {
      name: 'site-wide',
      testIgnore: CATALOGUE,
      grep: [/(^|[\s/])(facts|settings-rebuild)\.spec\.ts\s/, SITE_WIDE_TAG],
      workers: 1,
      dependencies: ['desktop', 'phone'],
      use: desktop,
    },
    {
      name: 'after-others',
      testIgnore: SITE_WIDE,
      grep: [/(^|[\s/])catalogue-editing\.spec\.ts\s/, AFTER_OTHERS],
      workers: 1,
      dependencies: ['desktop', 'phone'],
      use: desktop,
    },
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
