// How the scripts and the browser tests start Debian's chromium: headless, without the sandbox (it runs in
// containers) and without the background traffic (updates, sync, QUIC) that would disturb timings.
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Playwright's launch options for that chromium (screenshots, media, benchmarks). */
export const launchOptions = { executablePath: chromiumPath, args: chromiumFlags };

// The browser tests use Debian's chromium-headless-shell when it is installed: the same Blink and V8 without the
// full browser around them, the build Playwright itself uses for headless runs. On this two-core machine it took
// about half the CPU of the full browser per test. E2E_CHROME_PATH picks another build; without the shell, the
// full chromium runs the tests just the same, only slower.
const headlessShell = '/usr/bin/chromium-headless-shell';
export const testChromiumPath =
  process.env.E2E_CHROME_PATH ?? (existsSync(headlessShell) ? headlessShell : chromiumPath);

/** Playwright's launch options for the end-to-end tests. */
export const testLaunchOptions = { executablePath: testChromiumPath, args: chromiumFlags };
