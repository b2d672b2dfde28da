/**
 * The indicative result shown after a free quote request (and repeated in the acknowledgement
 * e-mail): the qualifications that best match what the visitor entered, each with the evidence that
 * usually supports it and what RPL cannot give for it. An indication from keywords, not an assessment.
 * Matching uses the project's course search (src/lib/course-search.ts) one keyword at a time, so it
 * follows whatever that search does with a word.
 */
import { searchCourses } from './course-search';
import type { CourseSummary } from './catalogue';
import { evidenceFor, type EvidenceChecklists } from './evidence';

export interface MatchInput {
  selectedCourses: readonly string[];
  selectedCategories: readonly string[];
  experience?: string;
  goals?: string;
}

/** At most this many of the chosen courses are listed, and at least this many matches are offered in all. */
export const MAX_SELECTED_SHOWN = 5;
export const MIN_MATCHES = 3;

const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be been before being both but by can could did do does doing done ' +
    'each few for from further get got had has have having he her here hers him his how i if in into is it its just like me more most ' +
    'my myself no nor not now of off on once only or other our out over own same she should so some such than that the their them ' +
    'then there these they this those through to too under until up very was we were what when where which while who why will with ' +
    'would you your yours year years month months week weeks day days time full part casual currently current previous previously ' +
    'work worked working works job jobs role roles position company companies business employer employed experience experienced ' +
    'want wanting would like get getting qualification qualifications qualified certificate cert diploma formal formally recognised ' +
    'recognition skills skill many lot lots plus including various different etc around over under since ago'
  ).split(' '),
);

/**
 * Everyday words for what the catalogue calls something else. A Map, not an object: a visitor's word such as
 * "constructor" or "__proto__" must never reach Object.prototype.
 */
const ALIASES = new Map<string, string>(
  Object.entries({
    childcare: 'childhood',
    daycare: 'childhood',
    kindergarten: 'childhood',
    preschool: 'childhood',
    chef: 'kitchen',
    cook: 'kitchen',
    cooking: 'kitchen',
    guard: 'security',
    bouncer: 'security',
    crowd: 'security',
    carer: 'support',
    caregiver: 'support',
    aged: 'ageing',
    elderly: 'ageing',
    nurse: 'nursing',
    nurses: 'nursing',
    builder: 'building',
    bookkeeper: 'bookkeeping',
    accountant: 'accounting',
    trainer: 'training',
    teacher: 'education',
    tiler: 'tiling',
    plasterer: 'plastering',
    painter: 'painting',
    roofer: 'roof',
    scaffolder: 'scaffolding',
    bricklayer: 'bricklaying',
    brickie: 'bricklaying',
    chippy: 'carpentry',
    sparky: 'electrotechnology',
    hairdresser: 'hairdressing',
    barber: 'barbering',
    beautician: 'beauty',
    makeup: 'make',
    nails: 'nail',
    manager: 'management',
    managing: 'management',
    supervisor: 'leadership',
    supervising: 'leadership',
    leader: 'leadership',
    lead: 'leadership',
    warehouse: 'supply',
    forklift: 'supply',
    logistics: 'logistics',
    helpdesk: 'information',
    coding: 'information',
    developer: 'information',
    programmer: 'information',
    network: 'information',
    cyber: 'cyber',
    counsellor: 'counselling',
    coach: 'coaching',
    lifeguard: 'aquatics',
    swimming: 'aquatics',
    gym: 'fitness',
    personal: 'fitness',
    massage: 'massage',
    dental: 'dental',
    mortgage: 'mortgage',
    broker: 'broking',
    payroll: 'bookkeeping',
    receptionist: 'business',
    admin: 'administration',
    excavator: 'plant',
    digger: 'plant',
    operator: 'plant',
    cleaner: 'cleaning',
    pest: 'pest',
    youth: 'youth',
    disability: 'disability',
  }),
);

/** A crude stem, so "carpenter" finds carpentry and "plumber" plumbing through a prefix search. */
export function stem(word: string): string {
  for (const suffix of ['ings', 'ing', 'ers', 'er', 'ors', 'ed', 'ies', 'es', 'ant', 'ian', 's', 'e']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
}

/** Distinct search words of free text, most telling first (aliases, then longer words), at most 25. */
export function keywords(text: string): string[] {
  const words = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
  const out = new Set<string>();
  for (const word of words) {
    if (word.length < 3 || /^\d+$/.test(word) || STOP_WORDS.has(word)) continue;
    const alias = ALIASES.get(word);
    const term = alias ?? stem(word);
    if (STOP_WORDS.has(term)) continue;
    out.add(term);
  }
  return [...out].slice(0, 25);
}

/**
 * Courses ranked by free text: each keyword is searched on its own over the pool; a course earns
 * more for a word that few courses match (a word matching most of the pool says little).
 */
export function rankByText<T extends CourseSummary>(text: string, pool: readonly T[]): T[] {
  const words = keywords(text);
  if (!words.length || !pool.length) return [];
  const score = new Map<string, number>();
  const order = new Map(pool.map((c, i) => [c.code, i]));
  for (const word of words) {
    const hits = searchCourses(pool, { search: word });
    if (!hits.length || (pool.length >= 6 && hits.length > pool.length / 2)) continue;
    const weight = 1 / Math.sqrt(hits.length);
    for (const [i, course] of hits.entries())
      score.set(course.code, (score.get(course.code) ?? 0) + weight * (i < 3 ? 1.2 : 1));
  }
  return pool
    .filter((c) => score.has(c.code))
    .sort((a, b) => score.get(b.code)! - score.get(a.code)! || order.get(a.code)! - order.get(b.code)!);
}

export interface Match<T> {
  course: T;
  /** Chosen by the visitor in step 3 (else suggested from the text or the category). */
  selected: boolean;
}

/**
 * The qualifications to show: the chosen ones first (up to five), then the best matches of the
 * experience and goals within the chosen categories, then of all courses, until there are at least
 * three; if the text matches nothing, the chosen categories' featured courses fill in.
 */
export function matchQualifications<T extends CourseSummary>(input: MatchInput, courses: readonly T[]): Match<T>[] {
  const byCode = new Map(courses.map((c) => [c.code, c]));
  const out: Match<T>[] = [];
  const taken = new Set<string>();
  const add = (course: T | undefined, selected: boolean) => {
    if (!course || taken.has(course.code)) return;
    taken.add(course.code);
    out.push({ course, selected });
  };
  for (const code of input.selectedCourses.slice(0, MAX_SELECTED_SHOWN)) add(byCode.get(code), true);
  const want = Math.max(MIN_MATCHES, out.length);
  const fill = (list: readonly T[]) => {
    for (const course of list) {
      if (out.length >= want) return;
      add(course, false);
    }
  };
  const categories = new Set(input.selectedCategories);
  const inCategories = categories.size ? courses.filter((c) => categories.has(c.category)) : courses;
  const text = `${input.experience ?? ''} ${input.goals ?? ''}`.trim();
  if (text) {
    fill(rankByText(text, inCategories));
    if (!categories.size || out.length === 0) fill(rankByText(text, courses));
  }
  if (out.length < want && categories.size) {
    fill(inCategories.filter((c) => c.featured));
    if (!out.length) fill(inCategories);
  }
  return out;
}

export interface ResultItem {
  code: string;
  title: string;
  level: string;
  category: string;
  categoryName: string;
  selected: boolean;
  evidence: string[];
  /** What RPL does not give for this qualification (licences, registrations, placements, checks). */
  notIncluded: string;
  /** The indicative fee staff set, or how the fee is decided (src/lib/prices.ts); absent on older quotes. */
  fee?: string;
  /** Hours of current work in the role the assessment needs; the result then says so and states no timeframe. */
  workHours?: number;
}

export function resultItems<T extends CourseSummary>(
  matches: readonly Match<T>[],
  regulatory: (code: string) => string | undefined,
  lists?: EvidenceChecklists,
  fee?: (code: string) => string | undefined,
): ResultItem[] {
  return matches.map(({ course, selected }) => ({
    code: course.code,
    title: course.title,
    level: course.level,
    category: course.category,
    categoryName: course.categoryName,
    selected,
    evidence: evidenceFor(course, lists),
    notIncluded: regulatory(course.code) ?? '',
    ...(fee?.(course.code) ? { fee: fee(course.code) } : {}),
    ...(course.workHours ? { workHours: course.workHours } : {}),
  }));
}
