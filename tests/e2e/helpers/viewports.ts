/**
 * For tests whose checks do not depend on the screen size: API answers, server-side rules, and staff
 * workflows whose screens have their own tests at phone width (dashboard, inbox detail, blog editor with
 * its toolbar and media picker, the Manage Blogs page's axe scan; users, account, two-step set-up and the
 * inquiry's reply form in staff-phone.spec.ts). They run once, in the desktop project:
 * playwright.config.ts leaves the @desktop-only tag out of the phone project.
 */
export const ONCE = { tag: '@desktop-only' };
