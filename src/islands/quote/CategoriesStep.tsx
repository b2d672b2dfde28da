import { INDUSTRY_NOT_LISTED } from '../../schemas/inquiry';
import { ChoiceBox } from './ChoiceBox';
import { toggleCategory, type QuoteCategory, type QuoteCourse } from './steps';
import type { StepProps } from './step-props';

/**
 * Step 2: the industries the visitor worked in (unticking one also drops its courses), or "My industry isn't
 * listed", which ticks step 3's "Not sure" so qualifications are suggested from the experience they describe.
 */
export function CategoriesStep({
  draft,
  update,
  categories,
  courses,
}: StepProps & { categories: QuoteCategory[]; courses: QuoteCourse[] }) {
  return (
    <fieldset className="choice-set">
      <legend className="choice-set__legend">Choose the industries you have worked in (one or more).</legend>
      <ul className="choice-grid" role="list">
        {categories.map((category) => (
          <ChoiceBox
            key={category.slug}
            name="selectedCategories"
            value={category.slug}
            checked={draft.selectedCategories.includes(category.slug)}
            onChange={() => update(toggleCategory(draft, category.slug, courses))}
          >
            <span>{category.name}</span>
          </ChoiceBox>
        ))}
      </ul>
      <label className="choice choice--unsure choice--unlisted">
        <input
          type="checkbox"
          name="notSure"
          checked={draft.notSure}
          onChange={(event) => update({ notSure: event.target.checked })}
        />
        <span>
          <span className="choice__title">{INDUSTRY_NOT_LISTED}</span>
          <span className="choice__meta">
            Go on without a category: in the next step, describe your work and we suggest the qualifications that fit
            (this ticks “Not sure”).
          </span>
        </span>
      </label>
    </fieldset>
  );
}
