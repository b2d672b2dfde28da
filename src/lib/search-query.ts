import * as v from 'valibot';
import { CourseQuerySchema, SEARCH_TEXT_LIMIT } from '../schemas/catalogue';
import type { SearchQuery } from './course-search';

/** Reads search, category and level from an address; values that fail the schema are dropped, not trusted. */
export function readSearchQuery(params: URLSearchParams): SearchQuery {
  const pick = (key: 'search' | 'category' | 'level') => {
    const parsed = v.safeParse(CourseQuerySchema.entries[key], params.get(key) ?? undefined);
    return parsed.success ? (parsed.output as string | undefined) : undefined;
  };
  return { search: pick('search'), category: pick('category'), level: pick('level') };
}

/** Said when a search text was longer than the search reads (it is cut, never refused). */
export const SEARCH_TRIMMED_NOTE = `Your search was long, so only its first ${SEARCH_TEXT_LIMIT.toLocaleString('en-AU')} characters were used.`;

/** The note for a search text cut to SEARCH_TEXT_LIMIT, if it was. */
export const searchNote = (params: URLSearchParams): string | undefined =>
  (params.get('search') ?? '').trim().length > SEARCH_TEXT_LIMIT ? SEARCH_TRIMMED_NOTE : undefined;
