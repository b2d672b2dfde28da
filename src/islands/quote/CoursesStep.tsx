import { useState, useSyncExternalStore } from 'react';
import { LIMITS } from '../../schemas/inquiry';
import { searchCourses, type SearchableCourse } from '../../lib/course-search';
import { loadSearchCourses } from '../../lib/search-data';
import { Field } from '../fields';
import { ChoiceBox } from './ChoiceBox';
import { coursesFor, toggleCourse, type QuoteCategory, type QuoteCourse } from './steps';
import { bindField, type StepProps } from './step-props';

const PHONE = '(max-width: 768px)';
const subscribePhone = (changed: () => void) => {
  const query = window.matchMedia?.(PHONE);
  query?.addEventListener('change', changed);
  return () => query?.removeEventListener('change', changed);
};
/** Whether the screen is phone-sized (false where the browser cannot say, and on the server). */
const usePhone = () =>
  useSyncExternalStore(
    subscribePhone,
    () => window.matchMedia?.(PHONE).matches ?? false,
    () => false,
  );

/**
 * Step 3: the qualifications of the chosen categories (all of them when none is chosen), a filter that
 * also finds job names once the shared search data has loaded, "Not sure", and the experience and goals. On a
 * phone "Not sure" and the experience come before the long list, so nobody scrolls past it to describe their work.
 * Without a category (the industry is not listed) the experience is required.
 */
export function CoursesStep(props: StepProps & { categories: QuoteCategory[]; courses: QuoteCourse[] }) {
  const { draft, update, fieldId, categories, courses } = props;
  const [filter, setFilter] = useState('');
  // Every course with its job names, fetched when the filter is first used (then "carpenter" finds courses too).
  const [searchable, setSearchable] = useState<SearchableCourse[] | null>(null);
  const onFilter = (value: string) => {
    setFilter(value);
    if (!searchable)
      loadSearchCourses()
        .then(setSearchable)
        .catch(() => undefined);
  };
  const categoryName = new Map(categories.map((c) => [c.slug, c.name]));
  const offered = coursesFor(courses, draft.selectedCategories);
  const groups = draft.selectedCategories.length ? draft.selectedCategories : categories.map((c) => c.slug);
  const selected = draft.selectedCourses;
  const hits = new Set(searchCourses(searchable ?? offered, { search: filter }).map((course) => course.code));
  const shown = offered.filter((course) => hits.has(course.code) || selected.includes(course.code));
  const phone = usePhone();
  const unlisted = !draft.selectedCategories.length && draft.notSure;
  const experience = (
    <Field
      {...bindField(props, 'experience')}
      label={unlisted ? 'Your experience' : 'Your experience (optional)'}
      hint={
        unlisted
          ? 'Your industry is not listed: tell us your roles, years and main duties, and we suggest qualifications from them.'
          : draft.notSure
            ? 'Roles, years and main duties. We suggest qualifications from what you write here.'
            : 'Roles, years and main duties.'
      }
      required={unlisted}
      multiline
      rows={4}
      maxLength={LIMITS.longText}
    />
  );
  const filterId = fieldId('course-filter');
  const countId = fieldId('course-count');
  return (
    <>
      <label className="choice choice--unsure">
        <input
          type="checkbox"
          name="notSure"
          checked={draft.notSure}
          onChange={(event) => update({ notSure: event.target.checked })}
        />
        <span>
          <span className="choice__title">Not sure — suggest qualifications from my experience</span>
          <span className="choice__meta">
            Tick this instead of choosing, or as well. Tell us about your work below and we match it to the
            qualifications that fit.
          </span>
        </span>
      </label>
      {phone && <div className="quote__about quote__about--first">{experience}</div>}
      <div className="course-filter">
        <label htmlFor={filterId} className="field__label">
          Filter the list
        </label>
        <input
          id={filterId}
          type="search"
          className="field__control"
          placeholder="Job, title, code or level"
          value={filter}
          onChange={(event) => onFilter(event.target.value)}
          onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
          aria-describedby={countId}
        />
        <p id={countId} className="field__hint" aria-live="polite">
          {selected.length} selected · {shown.length} of {offered.length} shown
        </p>
      </div>
      <fieldset className="choice-set">
        <legend className="choice-set__legend">Choose the qualifications you are interested in (one or more).</legend>
        {groups.map((slug) => {
          const list = shown.filter((course) => course.category === slug);
          if (!list.length) return null;
          return (
            <div key={slug} className="course-group">
              <h3 className="course-group__title">{categoryName.get(slug) ?? slug}</h3>
              <ul className="course-list" role="list">
                {list.map((course) => (
                  <ChoiceBox
                    key={course.code}
                    className="choice choice--course"
                    name="selectedCourses"
                    value={course.code}
                    checked={selected.includes(course.code)}
                    onChange={() => update(toggleCourse(draft, course.code))}
                  >
                    <span>
                      <span className="choice__title">{course.title}</span>
                      <span className="choice__meta">
                        {course.code} · {course.level}
                      </span>
                    </span>
                  </ChoiceBox>
                ))}
              </ul>
            </div>
          );
        })}
        {!shown.length && <p className="field__hint">No course matches “{filter}”.</p>}
      </fieldset>
      <div className="form-grid quote__about">
        {!phone && experience}
        <Field
          {...bindField(props, 'goals')}
          label="Your goals (optional)"
          hint="What the qualification would help you do."
          multiline
          rows={4}
          maxLength={LIMITS.longText}
        />
      </div>
    </>
  );
}
