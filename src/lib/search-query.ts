import * as v from 'valibot';
import { CourseQuerySchema } from '../schemas/catalogue';
import type { SearchQuery } from './course-search';

/** Reads search, category and level from an address; values that fail the schema are dropped, not trusted. */
export function readSearchQuery(params: URLSearchParams): SearchQuery {
  const pick = (key: 'search' | 'category' | 'level') => {
    const parsed = v.safeParse(CourseQuerySchema.entries[key], params.get(key) ?? undefined);
    return parsed.success ? (parsed.output as string | undefined) : undefined;
  };
  return { search: pick('search'), category: pick('category'), level: pick('level') };
}
