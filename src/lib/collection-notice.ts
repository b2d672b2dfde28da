import type { ConsentField } from '../schemas/inquiry';

/**
 * What the forms say where they collect personal details: the collection notice and the two optional
 * consents. The server keeps a hash of exactly these texts with every inquiry (`consentVersion`,
 * src/server/consent-version.ts), so any change of wording here gives new inquiries a new version.
 */

export type NoticePurpose = 'inquiry' | 'quote';

const PURPOSE: Record<NoticePurpose, { why: string; without: string; where: string }> = {
  inquiry: { why: 'to answer your inquiry', without: 'answer you', where: 'below' },
  quote: { why: 'to prepare your quote', without: 'prepare your quote', where: 'on the last step' },
};

/** The notice up to the policy link (the link itself, "Privacy Policy", follows the words "Read our"). */
export function noticeText(purpose: NoticePurpose): string {
  const { why, without, where } = PURPOSE[purpose];
  return (
    `RPL Pathways collects these details ${why}. ` +
    'They are stored by Netlify and e-mailed to us and to you by Resend, service providers in the United States. ' +
    `We share them with the partner RTO that would assess you only if you agree ${where}. ` +
    `Your name, e-mail address and phone number are required: without them we cannot ${without}. ` +
    (purpose === 'quote'
      ? 'Evidence you send later on your private applicant page is deleted 90 days after we close your application, or at once if you ask us to erase it. '
      : '') +
    'Our Privacy Policy explains how to access or correct your details and how to make a complaint.'
  );
}

export const NOTICE_PURPOSES: readonly NoticePurpose[] = ['inquiry', 'quote'];

export const CONSENT_LABELS: Record<ConsentField, string> = {
  consentPartnerRto: 'Share my details with the partner RTO that would assess me, so it can check my eligibility.',
  consentMarketing: 'Send me occasional news and offers from RPL Pathways. I can unsubscribe at any time.',
};
