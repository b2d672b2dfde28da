import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Search } from 'lucide-react';
import { SEARCH_MAX_LENGTH, suggest, type Suggestion } from '../lib/course-search';
import type { CourseSummary } from '../lib/catalogue';
import { loadSearchCourses } from '../lib/search-data';
import { searchHref } from '../lib/search-url';
import CourseFilters from '../components/CourseFilters';
import { NoQualification } from '../components/NoQualification';
import './HeroSearch.css';

interface Props {
  categories: { slug: string; name: string }[];
  levels: string[];
  label: string;
  /** The business phone from the site settings, offered when nothing listed matches. */
  phone?: string;
}

/** Suggestions hide 200 ms after the field loses focus. */
export const SUGGESTION_HIDE_DELAY = 200;

/**
 * Home hero search: text with suggestions (categories, levels and matching qualifications, over 1
 * character, at most 8; a qualification opens its page),
 * a category and a level dropdown. It is a plain GET form to /search before it hydrates.
 */
export default function HeroSearch({ categories, levels, label, phone }: Props) {
  const id = useId();
  const [text, setText] = useState('');
  const [category, setCategory] = useState('');
  const [level, setLevel] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The searchable catalogue arrives on first use; until then suggestions hold categories and levels.
  const [courses, setCourses] = useState<CourseSummary[]>([]);
  const suggestions = useMemo(() => suggest(text, categories, levels, courses), [text, categories, levels, courses]);
  const showList = open && suggestions.length > 0;
  // A typed word (4 letters or more) that names nothing listed gets the honest answer, not a neighbour.
  const showNone = open && courses.length > 0 && !suggestions.length && (text.match(/[a-z]/gi)?.length ?? 0) >= 4;

  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    // Keep anything typed or chosen before the island hydrated.
    const form = formRef.current;
    if (inputRef.current?.value) setText(inputRef.current.value);
    if (inputRef.current && document.activeElement === inputRef.current) setOpen(true);
    const chosen = (name: string) => (form?.elements.namedItem(name) as HTMLSelectElement | null)?.value ?? '';
    if (chosen('category')) setCategory(chosen('category'));
    if (chosen('level')) setLevel(chosen('level'));
    // The island wakes when the visitor reaches for it: that is the moment to fetch the search data.
    loadSearchCourses().then(setCourses, (error: unknown) =>
      console.error('Search suggestions: no course data', error),
    );
    return () => clearTimeout(hideTimer.current);
  }, []);

  const pick = (item: Suggestion) => {
    if (item.type === 'course') {
      window.location.assign(`/courses/${item.code}`);
      return;
    }
    setText(item.name);
    if (item.type === 'category' && item.slug) setCategory(item.slug);
    if (item.type === 'level') setLevel(item.name);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && suggestions.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
    } else if (event.key === 'Enter' && showList && active >= 0) {
      event.preventDefault();
      pick(suggestions[active]);
    } else if (event.key === 'Escape' && showList) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const listId = `${id}-suggestions`;
  const optionId = (i: number) => `${id}-option-${i}`;

  return (
    <form
      ref={formRef}
      className="hero-search"
      action="/search"
      method="get"
      role="search"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        // Read the form itself: a search sent while the island was waking up is in the fields, not yet in state.
        const data = new FormData(event.currentTarget);
        const read = (name: string) => String(data.get(name) ?? '');
        window.location.assign(
          searchHref(read('search'), { category: read('category'), level: read('level') }) ?? '/search',
        );
      }}
    >
      <div className="hero-search__text">
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Qualification name, code or keyword
        </label>
        <Search size={20} aria-hidden="true" className="hero-search__icon" />
        <input
          ref={inputRef}
          id={`${id}-q`}
          name="search"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          maxLength={SEARCH_MAX_LENGTH}
          placeholder="e.g. Diploma of Business"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            clearTimeout(hideTimer.current);
            setOpen(true);
          }}
          onBlur={() => {
            hideTimer.current = setTimeout(() => setOpen(false), SUGGESTION_HIDE_DELAY);
          }}
          onKeyDown={onKeyDown}
        />
        {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA combobox pattern; the input owns focus and keys */}
        <ul id={listId} role="listbox" aria-label="Suggestions" className="hero-search__list" hidden={!showList}>
          {suggestions.map((item, i) => (
            // biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: combobox options, chosen with the arrow keys and Enter in the input
            <li
              key={`${item.type}-${item.type === 'course' ? item.code : item.name}`}
              id={optionId(i)}
              // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA combobox pattern (aria-activedescendant)
              role="option"
              aria-selected={i === active}
              className={i === active ? 'is-active' : undefined}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(item)}
            >
              <span>
                {item.name}
                {item.type === 'course' && item.workHours ? (
                  <span className="hero-search__work"> · Needs current work in the role ({item.workHours} hours)</span>
                ) : null}
              </span>
              <span className="hero-search__type">
                {item.type === 'category' ? 'Category' : item.type === 'level' ? 'Level' : item.code}
              </span>
            </li>
          ))}
        </ul>
        {showNone && (
          // Pressing a link in it keeps the field's focus, so the answer does not hide before the link opens.
          <div className="hero-search__none" role="status" onMouseDown={(event) => event.preventDefault()}>
            <NoQualification phone={phone} search={text} compact />
          </div>
        )}
      </div>
      <CourseFilters
        className="hero-search__select"
        categories={categories}
        levels={levels}
        category={category}
        level={level}
        onChange={(change) => {
          if (change.category !== undefined) setCategory(change.category);
          if (change.level !== undefined) setLevel(change.level);
        }}
      />
      <button type="submit" className="btn btn--accent hero-search__submit">
        Search
      </button>
    </form>
  );
}
