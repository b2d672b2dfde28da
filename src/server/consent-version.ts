import { createHash } from 'node:crypto';
import { CONSENT_LABELS, NOTICE_PURPOSES, noticeText } from '../lib/collection-notice.ts';

/**
 * The version of the privacy wording a visitor saw when they sent a form: the first 16 hex digits of a
 * SHA-256 of the collection notices and the consent labels. Stored with every inquiry (`consentVersion`);
 * any change of that wording gives later inquiries another version.
 */
export const CONSENT_VERSION = createHash('sha256')
  .update(
    JSON.stringify({
      notices: NOTICE_PURPOSES.map((purpose) => noticeText(purpose)),
      link: 'Read our Privacy Policy.',
      consents: CONSENT_LABELS,
    }),
  )
  .digest('hex')
  .slice(0, 16);
