/**
 * Built as a file of its own (site.ts imports its URL with `?worker&url`, Vite's way to bundle a module with its
 * imports into one separate script) and loaded by site.ts after the page has loaded, and only when the live
 * settings differ from those the page was built with: the settings schemas and valibot it needs (about 18 KB)
 * are never fetched beside a page's first paint, and the site script itself keeps no imports, so it can travel
 * inside the page.
 */
import { refreshSettings } from '../lib/settings-refresh';

void refreshSettings();
