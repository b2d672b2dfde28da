import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8888);
const baseURL = process.env.E2E_BASE_URL ?? `http://localhost:${port}`;
const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const launchOptions = { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromiumArgs };

const SITE_WIDE = /(facts|catalogue-editing)\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: { baseURL, trace: 'retain-on-failure', launchOptions },
  projects: [
    { name: 'desktop', testIgnore: SITE_WIDE, use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions } },
    {
      name: 'phone',
      testIgnore: SITE_WIDE,
      use: { ...devices['Pixel 7'], viewport: { width: 360, height: 780 }, launchOptions, browserName: 'chromium' },
    },
    // Tests that switch site-wide settings (claims, partner RTOs) or rebuild the site after catalogue edits run
    // once, after the others, so no other test sees a page with a claim switched off or the catalogue changing.
    { name: 'site-wide', testMatch: SITE_WIDE, dependencies: ['desktop', 'phone'], use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions } },
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
