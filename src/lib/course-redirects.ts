/**
 * Which /courses/{code} addresses answer a permanent redirect (pure, no I/O; called first by
 * netlify/functions/course-not-found.mts, which serves every course address without a pre-rendered page):
 * - a superseded code goes to its successor (the map comes from `replaces` in content/courses.json),
 *   whatever the case it is written in: /courses/tli50221 -> /courses/TLI50224;
 * - a published code written in another case goes to its canonical capitals: /courses/cpc30220 -> /courses/CPC30220.
 * Anything else (unknown, invalid or withdrawn codes) is null: the caller answers 'Course Not Found'.
 */
import courses from '../../content/courses.json';

interface RedirectFacts {
  code: string;
  replaces?: string[];
}

export function createCourseRedirect(facts: readonly RedirectFacts[]) {
  const published = new Set(facts.map((c) => c.code));
  const superseded = new Map(facts.flatMap((c) => (c.replaces ?? []).map((old) => [old.toUpperCase(), c.code] as const)));
  const redirect = (path: string): string | null => {
    const match = /^\/courses\/([^/]+)\/?$/.exec(path);
    if (!match) return null;
    let raw: string;
    try {
      raw = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
    const code = raw.toUpperCase();
    const successor = superseded.get(code);
    if (successor) return `/courses/${successor}`;
    if (raw !== code && published.has(code)) return `/courses/${code}`;
    return null;
  };
  return { redirect, superseded: superseded as ReadonlyMap<string, string> };
}

const catalogue = createCourseRedirect(courses as RedirectFacts[]);

/** Old code -> successor code, for every superseded qualification we replaced. */
export const SUPERSEDED_CODES = catalogue.superseded;

/** The address a course path should permanently redirect to, or null. */
export const courseRedirect = catalogue.redirect;
