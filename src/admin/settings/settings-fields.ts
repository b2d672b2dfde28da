import type { ClaimKey } from '../../schemas/site-settings';

/** The plain fields of the settings form, by group, and the words of each claim's fields. */
export type Field = {
  group: 'contactInfo' | 'socialMedia' | 'business';
  name: string;
  label: string;
  type: 'email' | 'tel' | 'text' | 'url';
  autoComplete?: string;
  hint?: string;
  inputMode?: 'numeric';
};

export const contactFields: Field[] = [
  { group: 'contactInfo', name: 'email', label: 'E-mail', type: 'email', autoComplete: 'off' },
  { group: 'contactInfo', name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'off' },
  {
    group: 'contactInfo',
    name: 'phoneSecondary',
    label: 'Secondary phone',
    type: 'tel',
    autoComplete: 'off',
    hint: 'Leave empty to hide it.',
  },
  {
    group: 'contactInfo',
    name: 'businessHours',
    label: 'Business hours',
    type: 'text',
    hint: 'For example: Mon - Sat: 8:00 am - 7:00 pm',
  },
  { group: 'contactInfo', name: 'address', label: 'Address', type: 'text' },
  {
    group: 'contactInfo',
    name: 'replyTo',
    label: 'Reply-to address for inbox replies',
    type: 'email',
    autoComplete: 'off',
    hint: "Where people's answers to replies sent from the inbox go. Leave empty to use the staff inbox address.",
  },
];
export const socialFields: Field[] = [
  { group: 'socialMedia', name: 'facebook', label: 'Facebook URL', type: 'url', hint: 'Leave empty to hide the link.' },
  {
    group: 'socialMedia',
    name: 'instagram',
    label: 'Instagram URL',
    type: 'url',
    hint: 'Leave empty to hide the link.',
  },
  { group: 'socialMedia', name: 'youtube', label: 'YouTube URL', type: 'url', hint: 'Leave empty to hide the link.' },
];
export const businessFields: Field[] = [
  {
    group: 'business',
    name: 'legalName',
    label: 'Legal name',
    type: 'text',
    autoComplete: 'off',
    hint: 'The entity that runs this service, as on the ABN register. Shown in the privacy policy and terms.',
  },
  {
    group: 'business',
    name: 'abn',
    label: 'ABN',
    type: 'text',
    autoComplete: 'off',
    inputMode: 'numeric',
    hint: '11 digits, for example 51 824 753 556.',
  },
];

export const claimLabels: Record<ClaimKey, { label: string; value: string; hint: string }> = {
  successRate: { label: 'Success rate (About page)', value: 'Figure (per cent)', hint: 'A number, shown with "%".' },
  satisfaction: { label: 'Satisfaction (About page)', value: 'Figure (out of 5)', hint: 'For example 4.9.' },
  completionTime: {
    label: 'Completion time (every page that states it)',
    value: 'Timeframe',
    hint: 'For example 4-8 weeks. Course pages show it as an estimate.',
  },
  process: {
    label: 'Four-step process (home page)',
    value: 'Section heading',
    hint: 'The heading of the home page process section.',
  },
};
