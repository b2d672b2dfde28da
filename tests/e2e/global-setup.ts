import { startAccountList } from './helpers/run-accounts';

/** Runs once before the workers start: this run's list of created staff accounts (helpers/run-accounts.ts). */
export default function globalSetup() {
  startAccountList();
}
