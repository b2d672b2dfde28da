import { ChoiceBox } from './ChoiceBox';
import { toggleCategory, type QuoteCategory, type QuoteCourse } from './steps';
import type { StepProps } from './step-props';

/** Step 2: the industries the visitor worked in (unticking one also drops its courses). */
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
    </fieldset>
  );
}
