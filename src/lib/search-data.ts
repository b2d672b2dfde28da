import type { CourseSummary } from './catalogue';

/** Built with the site by src/pages/search-data.json.ts. */
export const SEARCH_DATA_URL = '/search-data.json';

let request: Promise<CourseSummary[]> | undefined;

/**
 * The searchable catalogue for the islands, fetched once per page on first use (never before the
 * visitor reaches for a search) and shared by every island; a failed fetch is retried next time.
 */
export function loadSearchCourses(): Promise<CourseSummary[]> {
  request ??= fetch(SEARCH_DATA_URL, { headers: { accept: 'application/json' } })
    .then((response) => {
      if (!response.ok) throw new Error(`Search data answered ${response.status}`);
      return response.json() as Promise<{ courses: CourseSummary[] }>;
    })
    .then(({ courses }) => courses)
    .catch((error: unknown) => {
      request = undefined;
      throw error;
    });
  return request;
}
