/**
 * The words workers use for their jobs that are not occupations of a course: how the search reads them.
 * Occupations per course live in content/search-terms.json (staff can edit them); this file holds the rest,
 * shared by every search of the site and the quote's suggestions (src/catalogue/quote-result.ts), which use the
 * one course search:
 *   - FILLER: words of a sentence that say nothing about the job;
 *   - COMPOUNDS: job names written as two words ("store man") read as the one word the terms use;
 *   - REAL_WORDS: ordinary words one letter away from a trade word, never read as its misspelling
 *     ("trained" is not "trainer", "grade" is not "grader");
 *   - NOT_OFFERED: trades the catalogue has no qualification for. A query naming one gets the honest empty
 *     answer instead of a neighbouring trade, unless it also names a job the catalogue has in full.
 */

/** Words of a free sentence that say nothing about the job ("I have 10 years as a ..."). */
export const FILLER = new Set(
  `a an the and or of in on at as to for from with by into over about around than then so but
  i im ive me my mine myself we our us you your he she they them their this that these those there here
  am is are was were be been being have has had having do does did doing done get got getting
  years year yrs yr months month weeks decade decades experience experienced exp worked working works
  employed employment job jobs role roles position currently current previously previous now still also just
  full part time casual permanent since ago plus more most some all any lot lots many several mostly mainly
  looking look want wanting need needing would like could can will please help find
  qualification qualifications qualified course courses rpl recognition prior recognised nationally
  trade trades tradie person no not never formal formally papers paper paperwork ticket tickets
  trained certified overseas uk england britain ireland nz zealand india philippines abroad
  doing did do been went go going became become becoming started start
  mate mates bit very really pretty good great well across over under up down out`
    .split(/\s+/)
    .filter(Boolean),
);

/** Job names written as two words, read as the one word the search terms use. */
export const COMPOUNDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bstore ?(man|men|person|people|woman)\b/g, 'storeman'],
  [/\bhair ?dresser(s)?\b/g, 'hairdresser'],
  [/\bbrick ?lay(er|ers|ing)\b/g, 'bricklayer'],
  [/\bfork ?lift\b/g, 'forklift'],
  [/\bhand ?y ?man\b/g, 'handyman'],
  [/\bwater ?proof(er|ing)\b/g, 'waterproofer'],
  [/\bbook ?keep(er|ing)\b/g, 'bookkeeper'],
  [/\bbaby ?sitter\b/g, 'nanny'],
  // Australian Public Service levels: "APS 4", "aps level 6", "EL1".
  [/\baps ?(?:level ?)?([1-6])\b/g, 'aps aps$1'],
  [/\bel ?([12])\b/g, 'aps el$1'],
  // Licence classes of heavy vehicles ("HR licence") are truck driving, not human resources.
  [/\b(hr|mr|hc|lr|mc) ?(licence|license|licenced|licensed|class)\b/g, 'heavy vehicle licence'],
];

/** Ordinary words one letter from a trade word: never read as its misspelling. */
export const REAL_WORDS = new Set(
  'trained trainee grade graded trade tread drive driven driver drivers carer care cares career careers cater clean'.split(
    ' ',
  ),
);

/** A trade the catalogue does not list, and the ways workers name it (each read like a query). */
export interface NotOffered {
  trade: string;
  names: readonly string[];
}

export const NOT_OFFERED: readonly NotOffered[] = [
  {
    trade: 'electrician',
    names: [
      'electrician',
      'electricians',
      'sparky',
      'sparkie',
      'sparkies',
      'electrical',
      'electrical fitter',
      'electrical mechanic',
      'electrotechnology',
      'lineworker',
      'linesman',
      'auto electrician',
      'solar installer',
      'a grade',
    ],
  },
  { trade: 'welder', names: ['welder', 'welding', 'boilermaker', 'metal fabricator', 'fabricator', 'steel fixer'] },
  {
    trade: 'mechanic',
    names: [
      'mechanic',
      'motor mechanic',
      'diesel mechanic',
      'diesel fitter',
      'heavy diesel',
      'automotive',
      'panel beater',
      'auto mechanic',
      'fitter and turner',
      'fitter turner',
      'refrigeration',
      'air conditioning',
      'aircon',
    ],
  },
  {
    trade: 'landscaper',
    names: [
      'landscaper',
      'landscaping',
      'landscape gardener',
      'gardener',
      'gardening',
      'horticulture',
      'arborist',
      'greenkeeper',
    ],
  },
  {
    trade: 'pharmacy',
    names: ['pharmacy', 'pharmacist', 'pharmacy assistant', 'pharmacy technician', 'dispensary technician', 'chemist'],
  },
  {
    trade: 'real estate',
    names: [
      'real estate',
      'real estate agent',
      'property manager',
      'property management',
      'leasing consultant',
      'realtor',
    ],
  },
  {
    trade: 'truck driving',
    names: [
      'truck driver',
      'truck driving',
      'truckie',
      'truckies',
      'heavy vehicle',
      'heavy vehicle licence',
      'heavy rigid',
      'semi trailer',
      'b double',
      'interstate driver',
      'delivery driver',
      'courier',
      'bus driver',
      'taxi driver',
      'uber driver',
      'tow truck',
    ],
  },
  { trade: 'veterinary nursing', names: ['vet nurse', 'veterinary nurse', 'vet', 'veterinary'] },
  { trade: 'glazing', names: ['glazier', 'glazing'] },
  { trade: 'locksmithing', names: ['locksmith'] },
  { trade: 'baking', names: ['baker', 'bakery', 'pastry cook', 'butcher'] },
  { trade: 'floristry', names: ['florist', 'floristry'] },
  { trade: 'farming', names: ['farmer', 'farm hand', 'farmhand', 'station hand', 'shearer', 'agriculture'] },
];
