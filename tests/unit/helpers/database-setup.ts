import { ensureTemplate } from './database.ts';

/** Vitest global setup: the migrated database template every test file copies (see ./database.ts). */
export default async function setup() {
  await ensureTemplate();
}
