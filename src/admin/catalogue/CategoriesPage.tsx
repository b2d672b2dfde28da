import { useState } from 'react';
import { CatalogueView, EditCell, ListTable } from './CatalogueView';
import { CategoryForm } from './CategoryForm';
import { useCatalogue } from './data';

/** Manage Categories: description, colour and image of each industry sector. */
export function CategoriesPage() {
  const query = useCatalogue();
  const [open, setOpen] = useState<string | null>(null);
  const category = query.data?.categories.find((c) => c.slug === open);
  return (
    <CatalogueView
      query={query}
      lead="View the industry sectors and how many courses each one lists."
      loading="Loading categories..."
    >
      {(data) =>
        category ? (
          <CategoryForm key={`${category.slug}-${category.version}`} category={category} onDone={() => setOpen(null)} />
        ) : (
          <ListTable
            caption={`${data.categories.length} categories`}
            columns={['Category', 'Description', 'Colour', 'Courses']}
          >
            {data.categories.map((c) => (
              <tr key={c.slug}>
                <th scope="row" data-label="Category">
                  <a href={`/category/${c.slug}`}>{c.name}</a>
                </th>
                <td data-label="Description">{c.description}</td>
                <td data-label="Colour">
                  <span>
                    <span className="catalogue-swatch" ref={(el) => el?.style.setProperty('--swatch', c.color)} />
                    {c.color}
                  </span>
                </td>
                <td data-label="Courses">{c.courseCount}</td>
                <EditCell label={`Edit ${c.name}`} onEdit={() => setOpen(c.slug)} />
              </tr>
            ))}
          </ListTable>
        )
      }
    </CatalogueView>
  );
}
