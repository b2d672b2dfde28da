// One story across the copy: the AQF range and the industries match the catalogue, one reply time, and
// the home page's four steps, the six detailed steps and the free quote's five steps map onto each other.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import courses from '../../content/courses.json';
import categories from '../../content/categories.json';
import home from '../../content/home.json';
import about from '../../content/about.json';
import howRpl from '../../content/how-rpl-works.json';
import freeQuote from '../../content/free-quote.json';
import terms from '../../content/terms-conditions.json';
import { LEVELS } from '../../src/lib/catalogue';
import { STEP_TITLES } from '../../src/islands/quote/steps';
import { DETAILED_STEP_COUNT, coversLabel, summaryLabel } from '../../src/lib/process-map';

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
];
const norm = (text: string) => text.toLowerCase().replace(/&/g, 'and').replace(/\s+/g, ' ');

/** Level names a text mentions, longest first so "Certificate II" is not read inside "Certificate III". */
function levelsIn(text: string): string[] {
  const found = new Set<string>();
  let rest = text;
  for (const level of [...LEVELS].sort((a, b) => b.length - a.length)) {
    const pattern = new RegExp(`\\b${level}\\b`, 'g');
    if (pattern.test(rest)) found.add(level);
    rest = rest.replace(pattern, ' ');
  }
  // "Certificate III and IV" names Certificate IV too.
  if (/Certificate III and IV\b/.test(text)) found.add('Certificate IV');
  return LEVELS.filter((level) => found.has(level));
}

const catalogueLevels = LEVELS.filter((level) => courses.some((course) => course.level === level));
const [lowest, highest] = [catalogueLevels[0], catalogueLevels[catalogueLevels.length - 1]];

const RANGE_TEXTS: [string, string][] = [
  ['home.json industries', home.industries.text],
  ['how-rpl-works.json industries', howRpl.industries.text],
  ['about.json industries', about.industries.paragraphs.join(' ')],
];

describe('AQF range', () => {
  it('is computed from the catalogue', () => {
    expect(lowest).toBe('Certificate II');
    expect(highest).toBe('Graduate Diploma');
  });

  it.each(RANGE_TEXTS)('%s names the catalogue’s lowest and highest level as its range', (_, text) => {
    const named = levelsIn(text);
    expect(named[0]).toBe(lowest);
    expect(named[named.length - 1]).toBe(highest);
    for (const level of named) expect(catalogueLevels).toContain(level);
  });
});

describe('industries', () => {
  const count = categories.length;

  it.each(RANGE_TEXTS)('%s says how many industries the catalogue has', (_, text) => {
    expect(norm(text)).toContain(`${WORDS[count]} industries`);
  });

  it.each(RANGE_TEXTS.slice(1))('%s lists exactly the catalogue’s categories', (_, text) => {
    for (const category of categories) expect(norm(text)).toContain(norm(category.name));
  });

  it('no page copy claims another number of industries', () => {
    const files = readdirSync('content').filter((f) => f.endsWith('.json') && f !== 'courses.json');
    for (const file of files) {
      const text = norm(readFileSync(join('content', file), 'utf8'));
      for (const [, n] of text.matchAll(/\b(\w+) industr(?:y|ies)\b/g)) {
        const number = WORDS.indexOf(n) >= 0 ? WORDS.indexOf(n) : Number.isNaN(Number(n)) ? null : Number(n);
        if (number !== null) expect(number, `${file}: "${n} industries"`).toBe(count);
      }
    }
  });
});

describe('one reply time (within 24 hours)', () => {
  const sources = [
    ...readdirSync('content')
      .filter((f) => f.endsWith('.json'))
      .map((f) => join('content', f)),
    'src/islands/quote/QuoteWizard.tsx',
    'src/server/mail.ts',
    'src/pages/faq.astro',
    'src/pages/courses/[code].astro',
    'netlify/functions/email-quote.mts',
    'netlify/functions/email-contact.mts',
  ];
  it.each(sources)('%s promises no other reply time', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/business days?|48 hours|same day|next day/i);
    for (const [, time] of text.matchAll(/\brepl(?:y|ies) within (\w+ \w+)/gi)) expect(time).toBe('24 hours');
  });
});

describe('one process at three lengths', () => {
  it('the four home steps cover the six detailed steps once each, in order', () => {
    expect(home.process.steps.flatMap((step) => step.covers)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(DETAILED_STEP_COUNT).toBe(6);
  });

  it('About and How RPL Works tell the same six steps', () => {
    expect(about.journey.steps.map((s) => s.title)).toEqual(howRpl.steps.items.map((s) => s.title));
    expect(about.journey.steps).toHaveLength(DETAILED_STEP_COUNT);
  });

  it('labels each step with its place in the other telling', () => {
    expect(home.process.steps.map((step) => coversLabel(step.covers))).toEqual([
      'Detailed steps 1-2 of 6',
      'Detailed step 3 of 6',
      'Detailed steps 4-5 of 6',
      'Detailed step 6 of 6',
    ]);
    expect(summaryLabel(5, home.process.steps)).toBe('In our four steps: 3. Evidence Review');
  });

  it('the free quote’s five steps are the free skills check, detailed step 1', () => {
    expect(STEP_TITLES).toHaveLength(5);
    expect(freeQuote.hero.text).toMatch(/^Five short steps/);
    expect(freeQuote.hero.text).toMatch(/skills check/);
    expect(howRpl.steps.items[0].text).toMatch(/free quote's five short steps are this check/);
    expect(about.journey.steps[0].text).toMatch(/free quote's five short steps are this check/);
  });
});

describe('visas', () => {
  it('the immigration benefit gives no migration advice and refers to registered migration agents', () => {
    const benefit = howRpl.benefits.items.find((item) => /immigration/i.test(item.title))!;
    expect(benefit.text).toMatch(/evidence in a skills assessment/);
    expect(benefit.text).toMatch(/do not give migration advice/);
    expect(benefit.text).toMatch(/registered migration agent/);
  });
});

describe('sharing with a partner RTO is a separate, optional choice', () => {
  it('agreeing to the terms does not stand in for it', () => {
    const text = JSON.stringify(terms);
    expect(text).not.toMatch(/By using our services, you consent to us sharing/);
    expect(text).toMatch(/optional box on our forms/);
  });
});
