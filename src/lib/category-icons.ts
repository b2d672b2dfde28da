/**
 * The picture of each industry: a lucide icon that shows the work itself (scissors for hair and
 * beauty, a hard hat for construction...), one per category and never shared. Categories not listed
 * fall back to their general icon name (content/categories.json), then to a default.
 */
export const INDUSTRY_ICONS = {
  'business-administration': 'briefcase',
  'finance-administration': 'calculator',
  'leadership-management': 'users',
  'information-technology': 'monitor',
  'civil-construction': 'hard-hat',
  'government-security': 'landmark',
  'security-cleaning': 'shield-check',
  'community-services': 'heart-handshake',
  'health-fitness': 'heart-pulse',
  'early-childhood-education': 'blocks',
  'beauty-hair-services': 'scissors',
} as const;

export type IndustryIcon = (typeof INDUSTRY_ICONS)[keyof typeof INDUSTRY_ICONS];

export const industryIcon = (slug: string | undefined): IndustryIcon | undefined =>
  slug ? INDUSTRY_ICONS[slug as keyof typeof INDUSTRY_ICONS] : undefined;
