import { startAccountList } from './helpers/run-accounts';

/**
 * Runs once before the workers start, which inherit what it puts in the environment: this run's list of created
 * staff accounts (helpers/run-accounts.ts), and a name for the run that a test can give something it saves for a
 * later test of the same run to find (the scheduled post in blog.spec.ts).
 */
export default function globalSetup() {
  startAccountList();
  process.env.E2E_RUN ??= `${Date.now()}-${process.pid}`;
}
