import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { Field, TextField } from '../catalogue-fields';
import { SaveCategorySchema } from '../../schemas/catalogue';
import { EditConflict } from '../edits/EditConflict';
import { useLeaveGuard } from '../edits/useLeaveGuard';
import { FormActions } from './CatalogueView';
import { time, type CatalogueData, type CategoryRow } from './data';
import { useVersionedSave } from './useVersionedSave';

/** What the category form edits; an empty image means the category's own picture. */
interface CategoryDraft {
  description: string;
  color: string;
  image: string;
}
const LABELS = new Map([
  ['description', 'Description'],
  ['color', 'Colour'],
  ['image', 'Image'],
]);
const toDraft = (category: Pick<CategoryRow, 'description' | 'color' | 'image'>): CategoryDraft => ({
  description: category.description,
  color: category.color,
  image: category.image ?? '',
});
const same = (a: CategoryDraft, b: CategoryDraft) => JSON.stringify(a) === JSON.stringify(b);

/** Edit one category: description, colour and image. */
export function CategoryForm({ category, onDone }: { category: CategoryRow; onDone: () => void }) {
  const [saved, setSaved] = useState(() => toDraft(category));
  const [edit, setEdit] = useState<CategoryDraft>(saved);
  const { version, errors, conflict, saving, submit, settle } = useVersionedSave<CategoryDraft>(
    category.version,
    async () => {
      const { categories } = await api<CatalogueData>('/admin/catalogue');
      const theirs = categories.find((c) => c.slug === category.slug)!;
      return { theirs: toDraft(theirs), version: theirs.version };
    },
  );
  const { confirmLeave, dialog } = useLeaveGuard(!same(edit, saved));
  const edited = (key: keyof CategoryDraft) => ({
    value: edit[key],
    onChange: (value: string) => setEdit({ ...edit, [key]: value }),
    error: errors[`edit.${key}`],
  });

  async function save(event?: FormEvent, values = edit, overVersion = version) {
    event?.preventDefault();
    await submit({
      schema: SaveCategorySchema,
      body: { version: overVersion, edit: { ...values, image: values.image.trim() || null } },
      send: (body) =>
        api<{ entry: { version: number } }>(`/admin/catalogue/categories/${category.slug}`, { method: 'PUT', body }),
      message: () => `${category.name} saved`,
      done: onDone,
    });
  }

  return (
    <form className="catalogue-form" onSubmit={save} noValidate aria-labelledby="category-form-title">
      <h2 className="admin-subtitle" id="category-form-title">
        Edit {category.name}
      </h2>
      {conflict && (
        <EditConflict
          conflict={conflict}
          mine={edit}
          label={(path) => LABELS.get(path) ?? path}
          saving={saving}
          onSave={(value, over) => {
            setEdit(value);
            settle(conflict);
            void save(undefined, value, over);
          }}
          onTake={(theirs) => {
            setEdit(theirs);
            setSaved(theirs);
            settle(conflict);
          }}
        />
      )}
      <fieldset className="admin-card">
        <legend>Category</legend>
        <TextField label="Description" rows={3} {...edited('description')} />
        <Field label="Colour" hint="#rrggbb; cards and the category's page use it" error={errors['edit.color']}>
          {(p) => (
            <span className="catalogue-colour">
              <input
                type="color"
                aria-label="Pick the colour"
                value={/^#[0-9a-f]{6}$/i.test(edit.color) ? edit.color : '#000000'}
                onChange={(e) => setEdit({ ...edit, color: e.target.value })}
              />
              <input
                {...p}
                value={edit.color}
                onChange={(e) => setEdit({ ...edit, color: e.target.value })}
                autoComplete="off"
              />
            </span>
          )}
        </Field>
        <TextField
          label="Image"
          hint="An address on this site: /images/... or an uploaded image (/api/uploads/...). Empty: the category's own picture."
          placeholder={`/images/categories/${category.slug}.svg`}
          {...edited('image')}
        />
        <img
          className="catalogue-preview"
          src={edit.image.trim() || category.picture}
          alt=""
          width={160}
          height={100}
        />
        {category.updatedBy && (
          <p className="admin-hint">
            Last saved {category.updatedAt ? time(category.updatedAt) : ''} by {category.updatedBy}
          </p>
        )}
      </fieldset>
      <FormActions className="admin-actions" saving={saving} label="Save changes" onBack={() => confirmLeave(onDone)} />
      {dialog}
    </form>
  );
}
