/** Builds the /search address for a typed term: trimmed, and null when there is nothing to search. */
export function searchHref(term: string, filters: { category?: string; level?: string } = {}): string | null {
  const text = term.trim();
  const params = new URLSearchParams();
  if (text) params.set('search', text);
  if (filters.category) params.set('category', filters.category);
  if (filters.level) params.set('level', filters.level);
  if (!params.size) return null;
  return `/search?${params.toString()}`;
}

/** The free quote carrying the words typed (a search that found nothing is never a dead end). */
export function quoteSearchHref(term: string): string {
  const text = term.trim();
  return text ? `/free-quote?${new URLSearchParams({ search: text })}` : '/free-quote';
}
