// What a regulator checks: only current qualifications are published, each with a check date and a source;
// superseded codes lead to their successors; withdrawn codes appear nowhere; course addresses are case-insensitive.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import courses from '../../content/courses.json';
import reviewJson from '../../content/qualifications-review.json';
import checksJson from '../../content/qualification-checks.json';
import * as v from 'valibot';
import { courseFactsSchema, formatCheckedOn, isUrl, registerUrl } from '../../src/lib/course-facts';
import { courseRedirect, createCourseRedirect, SUPERSEDED_CODES } from '../../src/catalogue/redirects';
import notFoundHandler from '../../netlify/functions/course-not-found.mts';

interface SharedFact {
  code: string;
  title: string;
  level: string;
  category: string;
  verified?: boolean;
  status?: string;
  supersededBy?: string;
  rplSuitable?: boolean;
}
interface Check {
  code: string;
  status: string;
  source: string;
  checkedOn: string;
  replaces?: string;
  supersededBy?: string;
}
interface Published {
  code: string;
  status: string;
  checkedOn: string;
  source: string;
  rplAlone?: boolean;
  rplNote?: string;
  replaces?: string[];
}

// The qualifications review the catalogue was imported from, kept in the repository (content/).
const shared = reviewJson as SharedFact[];
const published = courses as Published[];
const publishedCodes = new Set(published.map((c) => c.code));
const checks = new Map((checksJson as Check[]).map((c) => [c.code, c]));
const REVIEW_SOURCE = 'qualifications review in shared facts file';

describe('published qualifications (shared facts file against content)', () => {
  it('never publishes a code the review found invalid, superseded or unconfirmed, unless we confirmed it current in a source', () => {
    for (const fact of shared.filter((f) => f.status && f.status !== 'current')) {
      if (!publishedCodes.has(fact.code)) continue;
      const check = checks.get(fact.code);
      expect(check?.status, `${fact.code} is ${fact.status} in the review`).toBe('current');
      expect(isUrl(check!.source), `${fact.code} was confirmed against a web source`).toBe(true);
    }
    for (const code of ['ICT50119', 'TAE50222', 'SHB80121', 'TLI50221', 'PSP20116', 'PSP40116', 'PSP50116']) {
      expect(publishedCodes.has(code), code).toBe(false);
    }
  });

  it('dates a course from the review only when the review marks it verified', () => {
    const byCode = new Map(shared.map((f) => [f.code, f]));
    for (const course of published.filter((c) => c.source === REVIEW_SOURCE)) {
      expect(byCode.get(course.code)?.verified, course.code).toBe(true);
      expect(checks.get(course.code)?.status, `${course.code} has its own check`).toBeUndefined();
    }
    for (const course of published.filter((c) => c.source !== REVIEW_SOURCE)) {
      expect(checks.get(course.code)?.checkedOn, course.code).toBe(course.checkedOn);
    }
  });

  it('replaces each superseded code only by a successor we confirmed, and marks what cannot be done by RPL alone', () => {
    for (const fact of shared.filter((f) => f.status === 'superseded')) {
      const successor = published.find((c) => c.replaces?.includes(fact.code));
      if (successor) expect(checks.get(successor.code)?.status, successor.code).toBe('current');
    }
    for (const fact of shared.filter((f) => f.rplSuitable === false && publishedCodes.has(f.code))) {
      const course = published.find((c) => c.code === fact.code)!;
      expect(course.rplAlone, fact.code).toBe(false);
      expect(course.rplNote, fact.code).toMatch(/\w/);
    }
  });

  it('has a current status, a real check date and a source on every published course', () => {
    for (const course of published) {
      const result = v.safeParse(courseFactsSchema, course);
      expect(result.success ? [] : result.issues.map((issue) => issue.message), course.code).toEqual([]);
    }
  });

  it('never mentions a withdrawn code in course texts, page copy or blog seeds', () => {
    const allowed = new Set([...publishedCodes, ...SUPERSEDED_CODES.keys()]);
    const files = [
      ...readdirSync('content/course-details').map((f) => `content/course-details/${f}`),
      ...readdirSync('content')
        .filter(
          (f) =>
            f.endsWith('.json') &&
            !['courses.json', 'qualification-checks.json', 'qualifications-review.json'].includes(f),
        )
        .map((f) => `content/${f}`),
      ...(existsSync('content/blog-seed') ? readdirSync('content/blog-seed').map((f) => `content/blog-seed/${f}`) : []),
    ].filter((f) => /\.(json|md|html)$/.test(f));
    for (const file of files) {
      const codes = readFileSync(file, 'utf8').match(/\b[A-Z]{3}\d{5}\b/g) ?? [];
      for (const code of codes) expect(allowed.has(code), `${file} mentions ${code}`).toBe(true);
    }
  });
});

describe('course redirects', () => {
  it('sends each superseded code to its successor, in any case', () => {
    expect(SUPERSEDED_CODES.get('TLI50221')).toBe('TLI50224');
    expect(SUPERSEDED_CODES.get('PSP40116')).toBe('PSP40122');
    expect(SUPERSEDED_CODES.get('PSP50116')).toBe('PSP50122');
    expect(courseRedirect('/courses/TLI50221')).toBe('/courses/TLI50224');
    expect(courseRedirect('/courses/tli50221')).toBe('/courses/TLI50224');
    expect(courseRedirect('/courses/Psp40116/')).toBe('/courses/PSP40122');
    for (const [old, successor] of SUPERSEDED_CODES)
      expect(publishedCodes.has(successor), `${old} -> ${successor}`).toBe(true);
  });

  it('sends a published code written in lower case to its capitals', () => {
    expect(courseRedirect('/courses/cpc30220')).toBe('/courses/CPC30220');
    expect(courseRedirect('/courses/Cpc30220/')).toBe('/courses/CPC30220');
    expect(courseRedirect('/courses/22603vic')).toBe('/courses/22603VIC');
  });

  it('leaves canonical, unknown, withdrawn and malformed addresses alone', () => {
    for (const path of [
      '/courses/CPC30220',
      '/courses/zzz99999',
      '/courses/ict50119',
      '/courses/SHB80121',
      '/courses/%E0%A4%A',
      '/courses/a/b',
      '/courses',
      '/about',
    ]) {
      expect(courseRedirect(path), path).toBeNull();
    }
  });

  it('builds the map from the catalogue facts', () => {
    const { redirect } = createCourseRedirect([{ code: 'NEW10024', replaces: ['OLD10021'] }, { code: 'ABC12345' }]);
    expect(redirect('/courses/old10021')).toBe('/courses/NEW10024');
    expect(redirect('/courses/abc12345')).toBe('/courses/ABC12345');
    expect(redirect('/courses/ABC12345')).toBeNull();
  });

  it('is answered first by the course-not-found function with a 301', async () => {
    for (const [path, target] of [
      ['/courses/tli50221', '/courses/TLI50224'],
      ['/courses/cpc30220', '/courses/CPC30220'],
    ]) {
      const response = await notFoundHandler(new Request(`http://localhost${path}`));
      expect(response.status, path).toBe(301);
      expect(response.headers.get('location'), path).toBe(target);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('course facts schema (the build fails on these)', () => {
  const valid = {
    code: 'CPC30220',
    title: 'Certificate III in Carpentry',
    level: 'Certificate III',
    category: 'civil-construction',
    featured: false,
    status: 'current',
    checkedOn: '2026-11-23',
    source: 'https://training.gov.au/Training/Details/CPC30220',
  };
  const failsOn = (value: unknown) => {
    const result = v.safeParse(courseFactsSchema, value);
    return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '');
  };

  it('accepts a current course with a check date and a source', () => {
    expect(failsOn(valid)).toEqual([]);
    expect(v.parse(courseFactsSchema, valid).rplAlone).toBe(true);
  });
  it('refuses a course without status, or with any status but current', () => {
    const { status: _status, ...noStatus } = valid;
    expect(failsOn(noStatus)).toContain('status');
    for (const status of ['superseded', 'invalid', 'unconfirmed'])
      expect(failsOn({ ...valid, status })).toContain('status');
  });
  it('refuses a course without a real check date or a source', () => {
    const { checkedOn: _checkedOn, ...noDate } = valid;
    expect(failsOn(noDate)).toContain('checkedOn');
    for (const checkedOn of ['', '23/11/2026', '2026-02-30', '2026-13-01'])
      expect(failsOn({ ...valid, checkedOn })).toContain('checkedOn');
    expect(failsOn({ ...valid, source: ' ' })).toContain('source');
  });
  it('refuses a course not available by RPL alone without an explanation', () => {
    expect(failsOn({ ...valid, rplAlone: false })).toContain('rplNote');
    expect(failsOn({ ...valid, rplAlone: false, rplNote: 'Needs 400 hours of clinical placement.' })).toEqual([]);
  });
});

describe('facts shown on the course page', () => {
  it('writes check dates the Australian way and links the register entry', () => {
    expect(formatCheckedOn('2025-07-22')).toBe('22 July 2025');
    expect(formatCheckedOn('2026-11-23')).toBe('23 November 2026');
    expect(registerUrl('CPC30220')).toBe('https://training.gov.au/Training/Details/CPC30220');
  });
});
