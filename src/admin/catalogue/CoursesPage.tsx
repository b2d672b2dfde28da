import { useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { SelectField, TextField } from '../catalogue-fields';
import { Loading } from '../Loading';
import { CatalogueView, EditCell, Failed, ListTable } from './CatalogueView';
import { LEVEL_CHOICES, categoryChoices } from './CourseFacts';
import { CourseForm } from './CourseForm';
import { STATUS_LABELS, useCatalogue, type CatalogueData, type CourseEntry } from './data';
import { RegisterCheckPanel, RegisterMarks } from './RegisterCheck';

function CourseEditor({ code, data, onDone }: { code: string; data: CatalogueData; onDone: (code?: string) => void }) {
  const {
    data: entry,
    isPending,
    isError,
    refetch,
  } = useQuery({
    queryKey: ['admin-catalogue-course', code],
    queryFn: () => api<CourseEntry>(`/admin/catalogue/courses/${encodeURIComponent(code)}`),
    staleTime: 0,
    gcTime: 0,
  });
  if (isPending) return <Loading text={`Loading ${code}...`} />;
  if (isError) return <Failed retry={() => void refetch()} />;
  return (
    <>
      <RegisterCheckPanel
        key={`check-${entry.code}-${entry.registerCheck?.version ?? 0}`}
        code={entry.code}
        title={entry.facts.title}
        check={entry.registerCheck}
        workRequirement={entry.workRequirement}
        watch={entry.watch}
        accreditedUntil={entry.accreditedUntil}
      />
      <CourseForm key={`${entry.code}-${entry.version}`} entry={entry} data={data} onDone={onDone} />
    </>
  );
}

/** Manage Courses: search and filter the qualifications, edit, retire and add them. */
export function CoursesPage() {
  const query = useCatalogue();
  const { data } = query;
  const [filters, setFilters] = useState({ text: '', category: '', level: '', status: '' });
  const [open, setOpen] = useState<{ mode: 'edit'; code: string } | { mode: 'add' } | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const shown = useMemo(() => {
    const words = filters.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
    return (data?.courses ?? []).filter(
      (c) =>
        words.every((word) => `${c.code} ${c.title}`.toLowerCase().includes(word)) &&
        (!filters.category || c.category.slug === filters.category) &&
        (!filters.level || c.level === filters.level) &&
        (!filters.status || c.status === filters.status),
    );
  }, [data, filters]);

  const filter = (key: keyof typeof filters) => ({
    value: filters[key],
    onChange: (value: string) => setFilters({ ...filters, [key]: value }),
  });

  const live = (data?.courses ?? []).filter((c) => c.status !== 'retired');
  const retired = (data?.courses.length ?? 0) - live.length;
  const close = (code?: string) => {
    setOpen(null);
    if (code) setFilters((f) => ({ ...f, text: code }));
    requestAnimationFrame(() => listHeading.current?.focus());
  };

  return (
    <CatalogueView
      query={query}
      lead="View the nationally recognised qualifications listed on the site."
      loading="Loading courses..."
    >
      {(data) =>
        open ? (
          open.mode === 'add' ? (
            <CourseForm data={data} onDone={close} />
          ) : (
            <CourseEditor code={open.code} data={data} onDone={close} />
          )
        ) : (
          <section aria-labelledby="course-list-title">
            <div className="catalogue-toolbar">
              <h2 className="admin-subtitle" id="course-list-title" ref={listHeading} tabIndex={-1}>
                Qualifications
              </h2>
              <button type="button" className="admin-btn admin-btn--primary" onClick={() => setOpen({ mode: 'add' })}>
                Add a qualification
              </button>
            </div>
            <div className="catalogue-filters" role="search">
              <TextField label="Search" type="search" placeholder="Code or title" {...filter('text')} />
              <SelectField
                label="Category"
                empty="All categories"
                choices={categoryChoices(data)}
                {...filter('category')}
              />
              <SelectField label="Level" empty="All levels" choices={LEVEL_CHOICES} {...filter('level')} />
              <SelectField
                label="Status"
                empty="Any status"
                choices={Object.entries(STATUS_LABELS)}
                {...filter('status')}
              />
            </div>
            <p className="catalogue-count" role="status">
              {shown.length === data.courses.length ? '' : `Showing ${shown.length} of ${data.courses.length}: `}
              {live.length} published courses, {live.filter((c) => c.featured).length} featured
              {retired > 0 ? `, ${retired} retired` : ''}
            </p>
            {shown.length === 0 ? (
              <p className="catalogue-empty">No course matches these filters.</p>
            ) : (
              <ListTable columns={['Code', 'Title', 'Level', 'Category', 'Status']}>
                {shown.map((course) => (
                  <tr key={course.code} data-testid={`course-${course.code}`}>
                    <th scope="row" data-label="Code">
                      {course.status === 'retired' ? (
                        course.code
                      ) : (
                        <a href={`/courses/${course.code}`}>{course.code}</a>
                      )}
                    </th>
                    <td data-label="Title">
                      <span>
                        {course.title}
                        {course.featured && <span className="admin-chip">Featured</span>}
                        <RegisterMarks check={course.registerCheck} watch={course.watch} />
                      </span>
                    </td>
                    <td data-label="Level">{course.level}</td>
                    <td data-label="Category">{course.category.name}</td>
                    <td data-label="Status">
                      <span>
                        <span className={`catalogue-status is-${course.status}`}>{STATUS_LABELS[course.status]}</span>
                        {course.successor && <span className="catalogue-successor"> to {course.successor}</span>}
                      </span>
                    </td>
                    <EditCell
                      label={`Edit ${course.code} ${course.title}`}
                      onEdit={() => setOpen({ mode: 'edit', code: course.code })}
                    />
                  </tr>
                ))}
              </ListTable>
            )}
          </section>
        )
      }
    </CatalogueView>
  );
}
