/** Catalogue facts shared by pages, islands and functions (no framework, no DOM). */

import { LEVELS, type Level } from '../schemas/levels';

export { LEVELS, type Level };

export const AQF_LEVEL: Record<Level, number> = {
  'Certificate II': 2,
  'Certificate III': 3,
  'Certificate IV': 4,
  Diploma: 5,
  'Advanced Diploma': 6,
  'Graduate Certificate': 8,
  'Graduate Diploma': 8,
};

/** 'Course' when the count is 1, otherwise 'Courses'. */
export function courseCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'Course' : 'Courses'}`;
}

/** Public summary of a course: what cards, search and the list API need. */
export interface CourseSummary {
  code: string;
  title: string;
  level: string;
  category: string;
  categoryName: string;
  about: string;
  featured: boolean;
  /** false when the qualification cannot be completed by RPL alone; the card then says so. */
  rplAlone?: boolean;
  /** Hours of current work in the role the assessment needs; the card then says so. */
  workHours?: number;
  /** Occupations and trade words workers use for it (content/search-terms.json). */
  terms?: string[];
}

export const levelRank = (level: string) => {
  const i = LEVELS.indexOf(level as Level);
  return i === -1 ? LEVELS.length : i;
};

/** Categories that have a fixed picture of their own (public/images/categories/{slug}.svg). */
const PICTURES = new Set([
  'business-administration',
  'finance-administration',
  'leadership-management',
  'information-technology',
  'civil-construction',
  'government-security',
  'security-cleaning',
  'community-services',
  'health-fitness',
  'early-childhood-education',
  'beauty-hair-services',
]);
export const DEFAULT_CATEGORY_PICTURE = '/images/categories/default-business.svg';

/** The category's own image; else a fixed picture for the category; else a default business picture. */
export function categoryPicture(category: { slug: string; image?: string | null }): string {
  if (category.image) return category.image;
  return PICTURES.has(category.slug) ? `/images/categories/${category.slug}.svg` : DEFAULT_CATEGORY_PICTURE;
}
