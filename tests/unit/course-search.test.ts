import { describe, expect, it } from 'vitest';
import { answerSearch, CONFIDENCE_THRESHOLD, scoreCourses, searchCourses, suggest } from '../../src/lib/course-search';
import { normalise } from '../../src/lib/search-words';
import { repositoryCatalogue } from '../../src/catalogue/index';
import { LEVELS } from '../../src/lib/catalogue';

const {
  summaries,
  api: { categories },
} = repositoryCatalogue();

const codes = (query: Parameters<typeof searchCourses>[1]) => searchCourses(summaries, query).map((c) => c.code);

describe('normalise', () => {
  it('folds case, punctuation and runs of spaces', () => {
    expect(normalise('  Diploma   of  BUSINESS ')).toBe('diploma of business');
  });
  it('reads the common ways of writing a level', () => {
    expect(normalise('Cert 3')).toBe('certificate iii');
    expect(normalise('cert. IV')).toBe('certificate iv');
    expect(normalise('certificate 4 in fitness')).toBe('certificate iv in fitness');
    expect(normalise('adv dip')).toBe('advanced diploma');
  });
});

describe('searchCourses', () => {
  it('puts the exact code first, in any case and with stray spaces', () => {
    expect(codes({ search: '  bsb50120 ' })[0]).toBe('BSB50120');
  });
  it('ranks an exact code above titles that merely mention it', () => {
    const results = codes({ search: 'CHC33021' });
    expect(results[0]).toBe('CHC33021');
  });
  it('matches words across title and level regardless of order', () => {
    const results = searchCourses(summaries, { search: 'fitness cert 4' });
    expect(results[0].title).toBe('Certificate IV in Fitness');
  });
  it('prefers a title match over a category-name match', () => {
    const results = searchCourses(summaries, { search: 'cert 3 fitness' });
    expect(results[0].title).toBe('Certificate III in Fitness');
  });
  it('finds courses by category name', () => {
    const results = searchCourses(summaries, { search: 'beauty hair' });
    expect(results.length).toBeGreaterThan(5);
    expect(results.every((c) => c.category === 'beauty-hair-services')).toBe(true);
  });
  it('filters by category slug and level', () => {
    const results = searchCourses(summaries, { category: 'civil-construction', level: 'Diploma' });
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((c) => c.category === 'civil-construction' && c.level === 'Diploma')).toBe(true);
  });
  it('returns everything, lowest level first, with no filters', () => {
    const results = searchCourses(summaries, {});
    expect(results).toHaveLength(summaries.length);
    expect(results[0].level).toBe('Certificate II');
  });
  it('matches words from their start, so "cert 4" does not find "civil"', () => {
    const results = searchCourses(summaries, { search: 'cert 4' });
    expect(results.length).toBe(summaries.filter((c) => c.level === 'Certificate IV').length);
    expect(results.every((c) => c.level === 'Certificate IV')).toBe(true);
    expect(searchCourses(summaries, { search: 'carp' })[0].title).toBe('Certificate III in Carpentry');
  });
  it('returns nothing for nonsense', () => {
    expect(codes({ search: 'zzqxv' })).toEqual([]);
  });
});

describe('hero suggestions', () => {
  it('need more than one character', () => {
    expect(suggest('d', categories, LEVELS)).toEqual([]);
    expect(suggest('  d  ', categories, LEVELS)).toEqual([]);
  });
  it('offer categories and levels, at most 8', () => {
    const items = suggest('ce', categories, LEVELS);
    expect(items.length).toBeLessThanOrEqual(8);
    expect(items.some((i) => i.type === 'category')).toBe(true);
    expect(items.some((i) => i.type === 'level')).toBe(true);
  });
  it('give a category its slug', () => {
    expect(suggest('community', categories, LEVELS)).toEqual([
      { type: 'category', name: 'Community Services', slug: 'community-services' },
    ]);
  });
  it('find levels written informally', () => {
    expect(suggest('cert 4', categories, LEVELS).map((i) => i.name)).toContain('Certificate IV');
  });
});

describe('searching by occupation, in free sentences, with typos', () => {
  it('reads a worker\'s sentence: "I have 10 years as a carpenter" finds Carpentry first', () => {
    expect(codes({ search: 'I have 10 years as a carpenter' })[0]).toBe('CPC30220');
  });
  it('finds each trade workers name', () => {
    const expected: Record<string, string> = {
      carpenter: 'CPC30220',
      bricklayer: 'CPC33020',
      plumber: 'CPC32420',
      painter: 'CPC30620',
      tiler: 'CPC31320',
      hairdresser: 'SHB30416',
      nurse: 'HLT54121',
      supervisor: 'BSB40520',
      'team leader': 'BSB40520',
      'aged care': 'CHC33021',
      childcare: 'CHC30125',
      forklift: 'TLI30321',
    };
    for (const [word, code] of Object.entries(expected)) expect(codes({ search: word })[0], word).toBe(code);
    expect(codes({ search: 'builder' }).slice(0, 2)).toContain('CPC40120');
  });
  it('tolerates one or two wrong letters in longer words', () => {
    expect(codes({ search: 'carpnter' })[0]).toBe('CPC30220');
    expect(codes({ search: 'bricklayr' })[0]).toBe('CPC33020');
  });
  it('never answers a trade the catalogue lacks with an unrelated one', () => {
    for (const word of ['electrician', 'electrcian', 'sparky'])
      expect(codes({ search: word }), word).not.toContain('CPC30220');
    expect(codes({ search: 'zookeeper' })).toEqual([]);
  });
  it('finds a code in any case, even with a space inside', () => {
    expect(codes({ search: 'cpc30220' })[0]).toBe('CPC30220');
    expect(codes({ search: 'Chc 33021' })[0]).toBe('CHC33021');
  });
  it('finds word starts while typing', () => {
    expect(codes({ search: 'carp' })[0]).toBe('CPC30220');
    expect(codes({ search: 'hairdr' })).toContain('SHB30416');
  });
  it('returns nothing for a sentence without a job', () => {
    expect(codes({ search: 'I have 10 years experience' })).toEqual([]);
  });
});

describe('hero suggestions with qualifications', () => {
  it('offer the matching qualifications after categories and levels, at most 8 in all', () => {
    const items = suggest('carpenter', categories, LEVELS, summaries);
    expect(items[0]).toEqual({ type: 'course', name: 'Certificate III in Carpentry', code: 'CPC30220' });
    expect(suggest('ce', categories, LEVELS, summaries).length).toBeLessThanOrEqual(8);
    const mixed = suggest('community', categories, LEVELS, summaries);
    expect(mixed[0]).toMatchObject({ type: 'category', slug: 'community-services' });
    expect(mixed.some((i) => i.type === 'course')).toBe(true);
    expect(mixed.length).toBeLessThanOrEqual(8);
  });
});

describe("finding 2: workers' words from Australian job ads and workplaces", () => {
  it('"store man" is a storeman: warehousing first, not leadership and management', () => {
    for (const search of ['store man', 'storeman', 'store person at a hardware'])
      expect(codes({ search })[0], search).toBe('TLI30321');
  });
  it('"PCA" and "personal care worker in a nursing home" are aged care first, not nursing or child protection', () => {
    for (const search of ['PCA in nursing home', 'personal care worker in a nursing home', 'carer', 'AIN in aged care'])
      expect(['CHC33021', 'CHC43015'], search).toContain(codes({ search })[0]);
  });
  it('"truck driver HR licence" is truck driving (not offered), never Human Resource Management; "HR officer" still is HR', () => {
    expect(codes({ search: 'truck driver HR licence' })).toEqual([]);
    expect(codes({ search: 'HR licence' })).toEqual([]);
    expect(codes({ search: 'HR officer' })[0]).toBe('BSB40420');
  });
  it('"A grade electrician trained in UK" is not Training and Assessment ("trained" is not "trainer")', () => {
    expect(codes({ search: 'A grade electrician trained in UK' })).toEqual([]);
    expect(codes({ search: 'trained' })).toEqual([]);
    expect(codes({ search: 'trainer' })[0]).toBe('TAE40122');
  });
  it('a trade the catalogue lacks gets the honest empty answer, never a neighbour', () => {
    for (const search of [
      'electrician',
      'sparky',
      'welder',
      'mechanic',
      'landscaper',
      'pharmacy assistant',
      'real estate agent',
      'truck driver',
    ]) {
      const answer = answerSearch(summaries, { search });
      expect(answer.courses, search).toEqual([]);
      expect(answer.notOffered, search).toEqual(expect.any(String));
    }
  });
  it('a trade the catalogue lacks does not hide a job it has in the same words ("reach truck driver", "dump truck")', () => {
    expect(codes({ search: 'reach truck driver' })[0]).toBe('TLI30321');
    expect(codes({ search: 'dump truck driver on a mine site' })[0]).toBe('RII30820');
    expect(codes({ search: 'electrician now working as a trainer and assessor' })[0]).toBe('TAE40122');
  });
  it('reads acronyms and titles: swim teacher, BAS agent, APS levels, constructor', () => {
    expect(codes({ search: 'swim teacher' })[0]).toBe('SIS30122');
    expect(codes({ search: 'BAS agent' })[0]).toBe('FNS40222');
    expect(codes({ search: 'APS4' })[0]).toBe('PSP40122');
    expect(codes({ search: 'APS level 6' })[0]).toBe('PSP50122');
    expect(codes({ search: 'constructor' })).not.toContain('TAE40122');
  });
  it('a sentence ranks by the job it names and never falls back to any of its words', () => {
    const sentence =
      'I have been doing tiling for 15 years mostly bathrooms and splashbacks and some commercial work, no formal papers at all';
    expect(sentence.length).toBeGreaterThan(100);
    const found = codes({ search: sentence });
    expect(found[0]).toBe('CPC31320');
    expect(found.length).toBeLessThanOrEqual(3);
    expect(codes({ search: 'I worked at the zoo feeding the penguins and cleaning' }).length).toBeLessThanOrEqual(3);
    expect(codes({ search: 'team leader at a busy warehouse in Dandenong' })[0]).toBe('BSB40520');
  });
  it('shows no match below the confidence threshold', () => {
    const { scored } = scoreCourses(summaries, 'personal care worker in a nursing home');
    const shown = new Set(codes({ search: 'personal care worker in a nursing home' }));
    expect(scored.filter((s) => s.confidence < CONFIDENCE_THRESHOLD).some((s) => shown.has(summaries[s.id].code))).toBe(
      false,
    );
    expect(shown.has('CHC40321')).toBe(false);
  });
});
