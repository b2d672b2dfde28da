/** AQF levels from lowest to highest, the order used for sorting and the level filter. */
export const LEVELS = [
  'Certificate II',
  'Certificate III',
  'Certificate IV',
  'Diploma',
  'Advanced Diploma',
  'Graduate Certificate',
  'Graduate Diploma',
] as const;
export type Level = (typeof LEVELS)[number];
