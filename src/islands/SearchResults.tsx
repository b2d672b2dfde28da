import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { Search, X } from 'lucide-react';
import CourseCard from '../components/CourseCard';
import CourseFilters from '../components/CourseFilters';
import type { CourseSummary } from '../lib/catalogue';
import { SEARCH_MAX_LENGTH, searchCourses, type SearchQuery } from '../lib/course-search';
import { readSearchQuery, searchNote } from '../lib/search-query';
import { NoQualification, quoteHref } from '../components/NoQualification';
import { loadSearchCourses } from '../lib/search-data';
import { telHref } from '../lib/social';
import './SearchResults.css';

/** What the refine form shows right now (the visitor may have typed before the island woke up). */
function formQuery(form: HTMLFormElement | null): SearchQuery {
  const data = new FormData(form ?? undefined);
  const read = (key: string) => String(data.get(key) ?? '') || undefined;
  return { search: read('search'), category: read('category'), level: read('level') };
}

/** Cards shown at first; 'Show more' reveals the next batch. */
export const PAGE_SIZE = 24;

interface Props {
  /** The query the server read from the address and its first page of results (rendered in the HTML). */
  initialQuery: SearchQuery;
  initialResults: CourseSummary[];
  initialTotal: number;
  categories: { slug: string; name: string }[];
  levels: string[];
  /** The business phone from the site settings, offered when nothing matches. */
  phone?: string;
  /** Said when the search text in the address was cut to what the search reads. */
  note?: string;
}

/** A sentence-long search shown in a chip: its first 60 characters. */
const shortened = (text: string) => (text.length > 60 ? `${text.slice(0, 60).trimEnd()}…` : text);

const toHref = (query: SearchQuery) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return `/search${params.size ? `?${params}` : ''}`;
};

/**
 * Search results. The server renders the first answer into the page; refinements are
 * computed in the browser from the search data (src/lib/search-data.ts), fetched once, so they show at once afterwards.
 */
export default function SearchResults({
  initialQuery,
  initialResults,
  initialTotal,
  categories,
  levels,
  phone,
  note: initialNote,
}: Props) {
  const [query, setQuery] = useState<SearchQuery>(initialQuery);
  const [note, setNote] = useState(initialNote);
  const [draft, setDraft] = useState<SearchQuery>(initialQuery);
  const [catalogue, setCatalogue] = useState<CourseSummary[] | null>(null);
  const [status, setStatus] = useState<'idle' | 'loading' | 'error'>('idle');
  const [visible, setVisible] = useState(PAGE_SIZE);
  const formRef = useRef<HTMLFormElement>(null);

  // The island hydrates when the visitor first reaches for it; keep anything chosen or typed before that.
  useEffect(() => {
    const shown = formQuery(formRef.current);
    setDraft((draft) =>
      shown.search !== draft.search || shown.category !== draft.category || shown.level !== draft.level ? shown : draft,
    );
  }, []);

  const ensureCatalogue = async () => {
    if (catalogue) return catalogue;
    setStatus('loading');
    try {
      const loaded = await loadSearchCourses();
      setCatalogue(loaded);
      setStatus('idle');
      return loaded;
    } catch (error) {
      console.error('Search failed', error);
      setStatus('error');
      return null;
    }
  };

  const sync = useEffectEvent(() => {
    const params = new URLSearchParams(window.location.search);
    const next = readSearchQuery(params);
    setNote(searchNote(params));
    setQuery(next);
    setDraft(next);
    setVisible(PAGE_SIZE);
    void ensureCatalogue();
  });
  useEffect(() => {
    const onPopState = () => sync();
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  const results = useMemo(
    () => (catalogue ? searchCourses(catalogue, query) : initialResults),
    [catalogue, query, initialResults],
  );
  const total = catalogue ? results.length : initialTotal;

  const categoryName = categories.find((c) => c.slug === query.category)?.name ?? query.category;
  /** An active filter, with a button that drops it. */
  const chip = (key: 'search' | 'category' | 'level', text: string, removeLabel: string) => (
    <li>
      <span>{text}</span>
      <button type="button" onClick={() => void apply({ ...query, [key]: undefined })} aria-label={removeLabel}>
        <X size={16} aria-hidden="true" />
      </button>
    </li>
  );
  const filtered = Boolean(query.search || query.category || query.level);

  const apply = async (next: SearchQuery) => {
    const clean = {
      search: next.search?.trim() || undefined,
      category: next.category || undefined,
      level: next.level || undefined,
    };
    if (!(await ensureCatalogue())) return;
    window.history.pushState(null, '', toHref(clean));
    setNote(undefined);
    setQuery(clean);
    setDraft(clean);
    setVisible(PAGE_SIZE);
  };

  const showMore = async () => {
    if (await ensureCatalogue()) setVisible((n) => n + PAGE_SIZE);
  };

  return (
    <div className="search-results">
      <form
        ref={formRef}
        className="search-refine"
        role="search"
        action="/search"
        onSubmit={(event) => {
          event.preventDefault();
          void apply(formQuery(formRef.current));
        }}
      >
        <label className="search-refine__text">
          <span className="visually-hidden">Qualification name, code or keyword</span>
          <Search size={20} aria-hidden="true" />
          <input
            type="search"
            name="search"
            value={draft.search ?? ''}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder="Search by name, code or keyword"
            onChange={(e) => setDraft({ ...draft, search: e.target.value })}
          />
        </label>
        <CourseFilters
          categories={categories}
          levels={levels}
          category={draft.category ?? ''}
          level={draft.level ?? ''}
          onChange={(change) => setDraft({ ...draft, ...change })}
        />
        <button type="submit" className="btn btn--accent">
          Search
        </button>
      </form>

      {filtered && (
        <ul className="search-chips" aria-label="Active filters">
          {query.search && chip('search', shortened(query.search), `Remove search "${shortened(query.search)}"`)}
          {query.category && chip('category', `Category: ${categoryName}`, 'Remove category filter')}
          {query.level && chip('level', `Level: ${query.level}`, 'Remove level filter')}
        </ul>
      )}

      <div className="search-summary">
        <p role="status">
          {status === 'loading'
            ? 'Searching for courses...'
            : `Found ${total} course(s)${filtered ? ' matching your criteria' : ''}`}
        </p>
        {filtered && (
          <a className="btn btn--outline" href="/courses">
            Clear Filters
          </a>
        )}
      </div>

      {status === 'error' && (
        <p className="search-error" role="alert">
          Failed to load search results. Please try again later.
        </p>
      )}

      {note && <p className="search-note">{note}</p>}

      {total === 0 ? (
        <div className="search-empty">
          <h2>No courses found</h2>
          {/* A text that names no listed qualification gets the honest answer, never a neighbouring trade. */}
          {query.search && <NoQualification phone={phone} search={query.search} />}
          <p>
            We couldn't find any courses matching your search criteria. Try adjusting your search terms or browse our
            categories instead.
          </p>
          <a className="btn btn--primary" href="/courses">
            Browse All Categories
          </a>
          {!query.search && (
            <div className="search-empty__help">
              <p>
                Not sure which qualification fits your work? Tell us what you do and we will match it for you, free.
              </p>
              <a className="btn btn--accent" href={quoteHref(query.search)}>
                Get a Free Quote
              </a>
              {phone && (
                <p className="search-empty__call">
                  Or call us on{' '}
                  <a href={telHref(phone)} data-setting="contactInfo.phone" data-setting-link="tel">
                    {phone}
                  </a>
                </p>
              )}
            </div>
          )}
        </div>
      ) : (
        <>
          <ul className="course-grid" aria-label="Matching courses">
            {results.slice(0, visible).map((course) => (
              <li key={course.code}>
                <CourseCard course={course} headingLevel={2} />
              </li>
            ))}
          </ul>
          {total > visible && (
            <p className="search-more">
              <button
                type="button"
                className="btn btn--primary"
                onClick={() => void showMore()}
                disabled={status === 'loading'}
              >
                Show more ({total - visible} more)
              </button>
            </p>
          )}
        </>
      )}
    </div>
  );
}
