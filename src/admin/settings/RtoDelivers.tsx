import { useId, useState } from 'react';
import { fieldId } from './fields';
import type { CatalogueChoices } from './PricesSection';

/** Shown at most at once in the qualification list; a search narrows it. */
const SHOWN = 40;

/**
 * What one partner RTO delivers, picked from the catalogue: its categories as check boxes, its
 * qualifications from a searchable list. A code or category saved earlier that the catalogue no longer
 * has stays ticked (marked) until it is unticked, so nothing disappears without staff seeing it; the
 * server refuses it on save.
 */
export function RtoDelivers({
  index,
  categories,
  courses,
  choices,
  errors,
  onChange,
}: {
  index: number;
  categories: string[];
  courses: string[];
  choices: CatalogueChoices | undefined;
  errors: Record<string, string>;
  onChange: (name: 'categories' | 'courses', value: string[]) => void;
}) {
  const [query, setQuery] = useState('');
  const hintId = useId();
  const path = (name: string) => `partnerRtos.${index}.${name}`;
  const errorOf = (name: string) =>
    errors[path(name)] ?? Object.entries(errors).find(([key]) => key.startsWith(`${path(name)}.`))?.[1];
  const toggle = (name: 'categories' | 'courses', list: string[], value: string, on: boolean) =>
    onChange(name, on ? [...list, value] : list.filter((item) => item !== value));

  if (!choices) return <p className="admin-hint">Loading the catalogue…</p>;

  const knownCategories = new Set(choices.categories.map((c) => c.slug));
  const categoryRows = [
    ...choices.categories.map((c) => ({ value: c.slug, label: c.name })),
    ...categories
      .filter((slug) => !knownCategories.has(slug))
      .map((slug) => ({ value: slug, label: `${slug} (not in the catalogue)` })),
  ];
  const titleOf = new Map(choices.courses.map((c) => [c.code, c.title]));
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matching = choices.courses.filter(
    (c) => !courses.includes(c.code) && words.every((word) => `${c.code} ${c.title}`.toLowerCase().includes(word)),
  );
  const categoryError = errorOf('categories');
  const courseError = errorOf('courses');

  return (
    <>
      <fieldset
        className="settings-picker"
        id={fieldId(path('categories'))}
        aria-describedby={categoryError ? `${hintId}-cat-error` : undefined}
      >
        <legend>Categories it delivers</legend>
        <p className="admin-hint">Every qualification of a ticked category is named with this RTO.</p>
        <div className="settings-picker__grid">
          {categoryRows.map((row) => {
            const id = `${fieldId(path('categories'))}-${row.value}`;
            return (
              <div className="admin-check settings-picker__item" key={row.value}>
                <input
                  id={id}
                  type="checkbox"
                  checked={categories.includes(row.value)}
                  onChange={(event) => toggle('categories', categories, row.value, event.target.checked)}
                />
                <label htmlFor={id}>{row.label}</label>
              </div>
            );
          })}
        </div>
        {categoryError && (
          <p id={`${hintId}-cat-error`} className="admin-error">
            {categoryError}
          </p>
        )}
      </fieldset>
      <fieldset className="settings-picker" aria-describedby={courseError ? `${hintId}-course-error` : undefined}>
        <legend>Qualifications it delivers</legend>
        <p className="admin-hint">A qualification ticked here goes to this RTO even if another RTO has its category.</p>
        {courses.length > 0 && (
          <ul className="settings-picker__chosen" aria-label="Chosen qualifications">
            {courses.map((code) => {
              const id = `${fieldId(path('courses'))}-${code}`;
              return (
                <li className="admin-check settings-picker__item" key={code}>
                  <input
                    id={id}
                    type="checkbox"
                    checked
                    onChange={(event) => toggle('courses', courses, code, event.target.checked)}
                  />
                  <label htmlFor={id}>
                    {code} {titleOf.get(code) ?? '(not in the catalogue)'}
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        <div className="admin-field">
          <label htmlFor={fieldId(path('courses'))}>Find a qualification</label>
          <input
            id={fieldId(path('courses'))}
            type="search"
            value={query}
            autoComplete="off"
            placeholder="Code or words of the title"
            aria-invalid={courseError ? true : undefined}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <ul className="settings-picker__list" aria-label="Qualifications to add">
          {matching.slice(0, SHOWN).map((course) => {
            const id = `${fieldId(path('courses'))}-${course.code}`;
            return (
              <li className="admin-check settings-picker__item" key={course.code}>
                <input
                  id={id}
                  type="checkbox"
                  checked={false}
                  onChange={(event) => toggle('courses', courses, course.code, event.target.checked)}
                />
                <label htmlFor={id}>
                  {course.code} {course.title}
                </label>
              </li>
            );
          })}
        </ul>
        <p className="admin-hint" aria-live="polite">
          {matching.length > SHOWN
            ? `Showing ${SHOWN} of ${matching.length}; type to narrow the list.`
            : matching.length === 0
              ? 'No other qualification matches.'
              : `${matching.length} shown.`}
        </p>
        {courseError && (
          <p id={`${hintId}-course-error`} className="admin-error">
            {courseError}
          </p>
        )}
      </fieldset>
    </>
  );
}
