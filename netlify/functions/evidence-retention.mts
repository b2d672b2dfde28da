import type { Config } from '@netlify/functions';
import { sweepEvidence } from '../../src/server/applicant-evidence';
import { removeExpiredExports } from '../../src/server/inquiry-export';

/**
 * Every hour (APP 11), within the 30 seconds a scheduled function has (the sweep stops starting work after
 * SWEEP_BUDGET_MS and leaves the rest to the next run): removes uploads never completed (after 24 hours) and deletes the evidence files of
 * inquiries marked handled more than EVIDENCE_RETENTION_DAYS (90) ago (src/schemas/applicant.ts); and the inbox's
 * exported CSV files once their 24 hours are over (src/server/inquiry-export.ts), so no copy of the inquiries
 * outlives its time even when nobody starts or opens another export.
 */
export default async () => {
  const summary = await sweepEvidence();
  if (summary.staleUploads || summary.expiredFiles)
    console.log(
      `[evidence-retention] ${summary.staleUploads} unfinished uploads removed, ${summary.expiredFiles} files past retention deleted${summary.more ? '; more are due and wait for the next run' : ''}`,
    );
  const exports = await removeExpiredExports();
  if (exports) console.log(`[evidence-retention] ${exports} expired inquiry exports removed`);
};

export const config: Config = {
  schedule: '17 * * * *',
};
