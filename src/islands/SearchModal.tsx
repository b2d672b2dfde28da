import { useId, useMemo, useRef, useState, type MouseEvent } from 'react';
import { Search, X } from 'lucide-react';
import { searchHref } from '../lib/search-url';
import type { CourseSummary } from '../lib/catalogue';
import { searchCourses } from '../lib/course-search';
import { loadSearchCourses } from '../lib/search-data';
import './SearchModal.css';

/**
 * Header search. A native modal <dialog> gives the focus trap, Escape and focus return;
 * this island adds the trimming rule, backdrop close and navigation.
 */
export default function SearchModal() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [term, setTerm] = useState('');
  const titleId = useId();
  const hintId = useId();
  const [courses, setCourses] = useState<CourseSummary[]>([]);
  // The best few qualifications for the words typed so far, once the search data has arrived.
  const matches = useMemo(
    () => (term.trim().length > 1 && courses.length ? searchCourses(courses, { search: term }).slice(0, 5) : []),
    [term, courses],
  );

  const open = () => {
    dialogRef.current?.showModal();
    inputRef.current?.focus();
    loadSearchCourses().then(setCourses, () => undefined);
  };
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
      <button type="button" className="search-trigger" onClick={open} aria-haspopup="dialog">
        <Search size={22} aria-hidden="true" />
        <span className="visually-hidden">Search qualifications</span>
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; the native dialog already closes on Escape */}
      <dialog ref={dialogRef} className="search-modal" aria-labelledby={titleId} onClick={onBackdropClick}>
        <div className="search-modal__panel">
          <div className="search-modal__head">
            <h2 id={titleId}>Find Your Qualification</h2>
            <button type="button" className="search-modal__close" onClick={close}>
              <X size={22} aria-hidden="true" />
              <span className="visually-hidden">Close search</span>
            </button>
          </div>
          <form
            role="search"
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
              onChange={(event) => setTerm(event.target.value)}
              placeholder="Search for your qualification here..."
              autoComplete="off"
              aria-describedby={hintId}
              maxLength={120}
            />
            <button type="submit" className="btn btn--accent">
              Search
            </button>
          </form>
          <p id={hintId} className="search-modal__hint">
            Enter a qualification name, code or keyword to find relevant courses
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
        </div>
      </dialog>
    </>
  );
}
