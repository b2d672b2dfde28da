import { useId, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { Search, X } from 'lucide-react';
import { quoteSearchHref, searchHref } from '../lib/search-url';
import type { CourseSummary } from '../lib/catalogue';
import { searchCourses } from '../lib/course-search';
import { loadSearchCourses } from '../lib/search-data';
import { telHref } from '../lib/social';
import './SearchModal.css';

declare module 'react' {
  // Invoker commands (HTML `command` / `commandfor`): a button opens or closes a dialog without any script.
  interface ButtonHTMLAttributes<T> {
    command?: 'show-modal' | 'close' | 'request-close';
    commandfor?: string;
  }
}

/** The dialog's id, named by the invoker buttons (one header per page). */
export const SEARCH_DIALOG_ID = 'search-dialog';

/**
 * Header search. The button and the native modal <dialog> are in the page's static HTML, and the button
 * opens it with an invoker command (`commandfor`/`command`; site.ts does the same where a browser lacks
 * invokers), so the first tap opens the dialog and typing works before this island has loaded. The dialog
 * gives the focus trap, Escape and focus return, and `closedby="any"` the backdrop close. The island adds
 * the trimming rule, navigation and the matches (or the honest "no match") as the visitor types, and keeps
 * whatever was typed before it woke.
 */
export default function SearchModal({ phone = '' }: { phone?: string }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [term, setTerm] = useState('');
  const titleId = useId();
  const hintId = useId();
  const [courses, setCourses] = useState<CourseSummary[] | null>(null);
  const loading = useRef(false);
  const load = () => {
    if (loading.current) return;
    loading.current = true;
    loadSearchCourses().then(setCourses, () => {
      loading.current = false;
    });
  };
  // The best few qualifications for the words typed so far, once the search data has arrived.
  const matches = useMemo(
    () => (term.trim().length > 1 && courses?.length ? searchCourses(courses, { search: term }).slice(0, 5) : []),
    [term, courses],
  );
  const noMatch = term.trim().length > 1 && courses !== null && matches.length === 0;

  // Words typed into the static dialog before hydration are kept; an open dialog needs the search data.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the island wakes
  useLayoutEffect(() => {
    const typed = inputRef.current?.value ?? '';
    if (typed) setTerm(typed);
    if (typed || dialogRef.current?.open) load();
  }, []);

  const close = () => dialogRef.current?.close();

  const onBackdropClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === dialogRef.current) close();
  };

  const submit = () => {
    const href = searchHref(term);
    if (!href) return;
    close();
    setTerm('');
    window.location.assign(href);
  };

  return (
    <>
      <button
        type="button"
        className="search-trigger"
        command="show-modal"
        commandfor={SEARCH_DIALOG_ID}
        aria-haspopup="dialog"
        onClick={load}
      >
        <Search size={22} aria-hidden="true" />
        <span className="visually-hidden">Search qualifications</span>
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes (where closedby is not supported); the native dialog already closes on Escape */}
      <dialog
        ref={dialogRef}
        id={SEARCH_DIALOG_ID}
        className="search-modal"
        aria-labelledby={titleId}
        closedby="any"
        onClick={onBackdropClick}
      >
        <div className="search-modal__panel">
          <div className="search-modal__head">
            <h2 id={titleId}>Find Your Qualification</h2>
            <button type="button" className="search-modal__close" command="close" commandfor={SEARCH_DIALOG_ID}>
              <X size={22} aria-hidden="true" />
              <span className="visually-hidden">Close search</span>
            </button>
          </div>
          <form
            role="search"
            action="/search"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
            className="search-modal__form"
          >
            <label htmlFor={`${titleId}-input`} className="visually-hidden">
              Qualification name, code or keyword
            </label>
            <input
              ref={inputRef}
              id={`${titleId}-input`}
              type="search"
              name="search"
              value={term}
              onChange={(event) => {
                setTerm(event.target.value);
                load();
              }}
              placeholder="Search for your qualification here..."
              autoComplete="off"
              // Focused by the browser itself when the dialog opens (the dialog's focusing steps).
              autoFocus
              aria-describedby={`${hintId} ${hintId}-try`}
              maxLength={120}
            />
            <button type="submit" className="btn btn--accent">
              Search
            </button>
          </form>
          <p id={hintId} className="search-modal__hint">
            Enter a qualification name, code or keyword to find relevant courses
          </p>
          <p id={`${hintId}-try`} className="search-modal__try">
            Try: carpenter, aged care, forklift
          </p>
          {matches.length > 0 && (
            <ul className="search-modal__matches" aria-label="Matching qualifications">
              {matches.map((course) => (
                <li key={course.code}>
                  <a href={`/courses/${course.code}`}>
                    <span>{course.title}</span> <span className="search-modal__code">{course.code}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
          <div className="search-modal__status" role="status">
            <div className="search-modal__none" hidden={!noMatch}>
              <p className="search-modal__none-title">No qualification matches “{term.trim()}” yet.</p>
              <p>
                Tell us about your work and we will find what fits: <a href={quoteSearchHref(term)}>get a free quote</a>
                {phone && (
                  <>
                    {' '}
                    or call{' '}
                    <a
                      className="search-modal__phone"
                      href={telHref(phone)}
                      data-setting="contactInfo.phone"
                      data-setting-link="tel"
                    >
                      {phone}
                    </a>
                  </>
                )}
                .
              </p>
            </div>
          </div>
        </div>
      </dialog>
    </>
  );
}
