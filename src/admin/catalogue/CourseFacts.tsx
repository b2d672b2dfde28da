import { LEVELS } from '../../lib/catalogue';
import { SelectField, TextField, type Choice } from '../catalogue-fields';
import { time, type CatalogueData, type CourseEntry } from './data';
import type { EMPTY_FACTS } from './course-draft';

export const LEVEL_CHOICES: Choice[] = LEVELS.map((level) => [level, level]);
export const categoryChoices = (data: CatalogueData): Choice[] => data.categories.map((c) => [c.slug, c.name]);

type Facts = typeof EMPTY_FACTS;
export type FactField = (
  key: keyof Facts,
  error?: string,
) => { value: string; onChange: (value: string) => void; error?: string };

/** A new qualification's register facts, typed in with where and when they were checked. */
export function NewCourseFacts({
  data,
  fact,
  codeError,
}: {
  data: CatalogueData;
  fact: FactField;
  codeError?: string;
}) {
  return (
    <>
      <p className="admin-hint">
        Enter the code, title and level exactly as on the National Register, with where and when you checked them.
      </p>
      <div className="catalogue-form__grid">
        <TextField
          label="National code"
          hint="5 to 12 letters and digits, such as BSB50120"
          autoComplete="off"
          {...fact('code', codeError)}
        />
        <TextField label="Title on the register" {...fact('title')} />
        <SelectField label="Level" empty="Choose a level" choices={LEVEL_CHOICES} {...fact('level')} />
        <SelectField label="Category" empty="Choose a category" choices={categoryChoices(data)} {...fact('category')} />
        <TextField
          label="Checked against"
          hint="The register page's address, or what you searched"
          placeholder="https://training.gov.au/Training/Details/..."
          {...fact('source')}
        />
        <TextField label="Checked on" type="date" {...fact('checkedOn')} />
      </div>
    </>
  );
}

/** A listed qualification's facts, which staff do not edit here, and who saved it last. */
export function CourseFactList({ entry }: { entry: CourseEntry }) {
  return (
    <dl className="catalogue-facts">
      <div>
        <dt>Code</dt>
        <dd>{entry.code}</dd>
      </div>
      <div>
        <dt>Title</dt>
        <dd>{entry.facts.title}</dd>
      </div>
      <div>
        <dt>Level</dt>
        <dd>{entry.facts.level}</dd>
      </div>
      <div>
        <dt>Facts stated (staff note)</dt>
        <dd>
          {entry.facts.checkedOn}, from {entry.facts.source}
        </dd>
      </div>
      {entry.updatedBy && (
        <div>
          <dt>Last saved</dt>
          <dd>
            {entry.updatedAt ? time(entry.updatedAt) : ''} by {entry.updatedBy}
          </dd>
        </div>
      )}
    </dl>
  );
}
