import * as v from 'valibot';

/**
 * content/search-terms.json: for each qualification code, the occupations and trade words workers use
 * for it ("carpenter", "chippy", "formworker"). Keyed by code so the catalogue can change apart from it:
 * entries for codes not (or not yet) in the catalogue are ignored by the search and listed by a test.
 */
const TermSchema = v.pipe(
  v.string(),
  v.minLength(2, 'A search term has at least 2 characters'),
  v.maxLength(60, 'A search term has at most 60 characters'),
  v.regex(/^[a-z0-9][a-z0-9 '&/-]*[a-z0-9]$/, 'Search terms are lower case words (letters, digits, spaces, hyphens)'),
);

/** The terms of one course, most typical first. */
export const SearchTermListSchema = v.pipe(
  v.array(TermSchema),
  v.maxLength(60, 'At most 60 terms a course'),
  v.check((terms) => new Set(terms).size === terms.length, 'A term is listed twice'),
);

export const SearchTermsSchema = v.record(
  v.pipe(v.string(), v.regex(/^[A-Z0-9]{5,12}$/, 'Keys are course codes such as CPC30220')),
  v.pipe(SearchTermListSchema, v.minLength(1, 'List at least one term')),
);
export type SearchTerms = v.InferOutput<typeof SearchTermsSchema>;

/** Parses the file, naming the course and term on failure (so a bad edit fails the build). */
export function parseSearchTerms(data: unknown): SearchTerms {
  const result = v.safeParse(SearchTermsSchema, data);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
  throw new Error(`content/search-terms.json${path ? ` at ${path}` : ''}: ${issue.message}`);
}
