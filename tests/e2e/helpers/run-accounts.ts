import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The staff accounts one test run created, one username a line, so the run can delete them when it ends: a
 * developer's local site is not left with hundreds of test accounts (its Users page and the inbox's "Assign to"
 * list would grow with every run, and so would the time the users test takes). The file is named per run, so two
 * runs against the same store (say, one spec beside the whole suite) never delete each other's accounts.
 */
const RUN_VARIABLE = 'E2E_ACCOUNTS_FILE';

export function startAccountList(): void {
  const file = new URL(`../../../node_modules/.cache/e2e-accounts/${Date.now()}-${process.pid}.txt`, import.meta.url)
    .pathname;
  mkdirSync(dirname(file), { recursive: true });
  process.env[RUN_VARIABLE] = file;
}

export function rememberAccount(username: string): void {
  const file = process.env[RUN_VARIABLE];
  if (file) appendFileSync(file, `${username}\n`);
}

/** Usernames this run created, and a way to forget them once they are gone. */
export function runAccounts(): { usernames: string[]; done: () => void } {
  const file = process.env[RUN_VARIABLE];
  if (!file) return { usernames: [], done: () => {} };
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    /* no account was created */
  }
  return { usernames: [...new Set(text.split('\n').filter(Boolean))], done: () => rmSync(file, { force: true }) };
}
