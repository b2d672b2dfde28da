// How the scripts and the browser tests start Debian's chromium: headless, without the sandbox (it runs in
// containers) and without the background traffic (updates, sync, QUIC) that would disturb timings.
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

/** Playwright's launch options for that chromium. */
export const launchOptions = { executablePath: chromiumPath, args: chromiumFlags };
