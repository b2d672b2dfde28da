import { useEffect, useMemo, useState } from 'react';
import { Search, X } from 'lucide-react';
import * as v from 'valibot';
import CourseCard from '../components/CourseCard';
import type { CourseSummary } from '../lib/catalogue';
import { searchCourses, type SearchQuery } from '../lib/course-search';
import { CourseQuerySchema } from '../schemas/catalogue';
import './SearchResults.css';

interface Props {
  courses: CourseSummary[];
  categories: { slug: string; name: string }[];
  levels: string[];
}

/** Reads search, category and level from the address; bad values are dropped rather than trusted. */
function readQuery(params: URLSearchParams): SearchQuery {
  const pick = (key: 'search' | 'category' | 'level') => {
    const value = params.get(key);
    const parsed = v.safeParse(CourseQuerySchema.entries[key], value ?? undefined);
    return parsed.success ? (parsed.output as string | undefined) : undefined;
  };
  return { search: pick('search'), category: pick('category'), level: pick('level') };
}

const toHref = (query: SearchQuery) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return `/search${params.size ? `?${params}` : ''}`;
};

/** SPEC 2.10 search results, computed in the browser from the catalogue shipped with the page. */
export default function SearchResults({ courses, categories, levels }: Props) {
  const [query, setQuery] = useState<SearchQuery | null>(null);
  const [draft, setDraft] = useState<SearchQuery>({});

  useEffect(() => {
    const sync = () => {
      const next = readQuery(new URLSearchParams(window.location.search));
      setQuery(next);
      setDraft(next);
    };
    sync();
    window.addEventListener('popstate', sync);
    return () => window.removeEventListener('popstate', sync);
  }, []);

  const results = useMemo(() => (query ? searchCourses(courses, query) : []), [courses, query]);

  if (!query) {
    return (
      <p className="search-status" role="status">
        Searching for courses...
      </p>
    );
  }

  const categoryName = categories.find((c) => c.slug === query.category)?.name ?? query.category;
  const filtered = Boolean(query.search || query.category || query.level);

  const apply = (next: SearchQuery) => {
    const clean = { search: next.search?.trim() || undefined, category: next.category || undefined, level: next.level || undefined };
    window.history.pushState(null, '', toHref(clean));
    setQuery(clean);
    setDraft(clean);
  };

  return (
    <div className="search-results">
      <form
        className="search-refine"
        role="search"
        action="/search"
        onSubmit={(event) => {
          event.preventDefault();
          apply(draft);
        }}
      >
        <label className="search-refine__text">
          <span className="visually-hidden">Qualification name, code or keyword</span>
          <Search size={20} aria-hidden="true" />
          <input
            type="search"
            name="search"
            value={draft.search ?? ''}
            maxLength={100}
            placeholder="Search by name, code or keyword"
            onChange={(e) => setDraft({ ...draft, search: e.target.value })}
          />
        </label>
        <label>
          <span className="visually-hidden">Category</span>
          <select name="category" value={draft.category ?? ''} onChange={(e) => setDraft({ ...draft, category: e.target.value })}>
            <option value="">All Categories</option>
            {categories.map((c) => (
              <option key={c.slug} value={c.slug}>{c.name}</option>
            ))}
          </select>
        </label>
        <label>
          <span className="visually-hidden">Level</span>
          <select name="level" value={draft.level ?? ''} onChange={(e) => setDraft({ ...draft, level: e.target.value })}>
            <option value="">All Levels</option>
            {levels.map((l) => (
              <option key={l} value={l}>{l}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn--accent">Search</button>
      </form>

      {filtered && (
        <ul className="search-chips" aria-label="Active filters">
          {query.search && (
            <li>
              <span>{query.search}</span>
              <button type="button" onClick={() => apply({ ...query, search: undefined })} aria-label={`Remove search "${query.search}"`}><X size={16} aria-hidden="true" /></button>
            </li>
          )}
          {query.category && (
            <li>
              <span>Category: {categoryName}</span>
              <button type="button" onClick={() => apply({ ...query, category: undefined })} aria-label="Remove category filter"><X size={16} aria-hidden="true" /></button>
            </li>
          )}
          {query.level && (
            <li>
              <span>Level: {query.level}</span>
              <button type="button" onClick={() => apply({ ...query, level: undefined })} aria-label="Remove level filter"><X size={16} aria-hidden="true" /></button>
            </li>
          )}
        </ul>
      )}

      <div className="search-summary">
        <p role="status">
          Found {results.length} course(s){filtered ? ' matching your criteria' : ''}
        </p>
        {filtered && <a className="btn btn--outline" href="/courses">Clear Filters</a>}
      </div>

      {results.length === 0 ? (
        <div className="search-empty">
          <h2>No courses found</h2>
          <p>We couldn't find any courses matching your search criteria. Try adjusting your search terms or browse our categories instead.</p>
          <a className="btn btn--primary" href="/courses">Browse All Categories</a>
        </div>
      ) : (
        <ul className="course-grid" aria-label="Matching courses">
          {results.map((course) => (
            <li key={course.code}><CourseCard course={course} headingLevel={2} /></li>
          ))}
        </ul>
      )}
    </div>
  );
}
