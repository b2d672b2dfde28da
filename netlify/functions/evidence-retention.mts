import type { Config } from '@netlify/functions';
import { sweepEvidence } from '../../src/server/applicant-evidence';

/**
 * Every hour (APP 11): removes uploads never completed (after 24 hours) and deletes the evidence files of
 * inquiries marked handled more than EVIDENCE_RETENTION_DAYS (90) ago (src/schemas/applicant.ts).
 */
export default async () => {
  const summary = await sweepEvidence();
  if (summary.staleUploads || summary.expiredFiles)
    console.log(
      `[evidence-retention] ${summary.staleUploads} unfinished uploads removed, ${summary.expiredFiles} files past retention deleted`,
    );
};

export const config: Config = {
  schedule: '17 * * * *',
};
