import { devices } from '@playwright/test';

/**
 * For tests whose checks do not depend on the screen size: API answers, server-side rules, and staff
 * workflows whose screens have their own tests at phone width (dashboard, inbox detail, blog editor with
 * its toolbar and media picker, the Manage Blogs page's axe scan; users, account, two-step set-up and the
 * inquiry's reply form in staff-phone.spec.ts). They run once, in the desktop project:
 * playwright.config.ts leaves the @desktop-only tag out of the phone project.
 */
export const ONCE = { tag: '@desktop-only' };

const { userAgent, deviceScaleFactor, isMobile, hasTouch } = devices['Pixel 7'];
/**
 * The phone project's screen: a Pixel 7's browser at the 360-pixel width the specification's phone checks use. A test
 * that runs at both sizes inside one project (to stay one at a time) takes it with test.use().
 */
export const PHONE_SCREEN = { userAgent, deviceScaleFactor, isMobile, hasTouch, viewport: { width: 360, height: 780 } };
