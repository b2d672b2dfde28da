import { useQuery } from '@tanstack/react-query';
import { api } from './api';

interface Category {
  slug: string;
  name: string;
  description: string;
  courseCount: number;
}
interface Course {
  code: string;
  title: string;
  level: string;
  featured: boolean;
  category: { slug: string; name: string };
}

const MANAGED_IN_CONTENT =
  'The catalogue is managed in the content files (content/categories.json, content/courses.json and content/course-details/) and published with each deploy; this list is read-only.';

function Failed() {
  return <p role="alert" className="admin-banner is-error">The catalogue could not be loaded. Please reload the page.</p>;
}

/** SPEC 2.1: Manage Categories. Read-only: the catalogue ships with the site's content. */
export function CategoriesPage() {
  const { data, isPending, isError } = useQuery({
    queryKey: ['categories'],
    queryFn: () => api<Category[]>('/categories'),
  });
  return (
    <>
      <p className="admin-lead">View the industry sectors and how many courses each one lists.</p>
      <p className="admin-note">{MANAGED_IN_CONTENT}</p>
      {isPending ? (
        <p className="admin-loading" role="status">Loading categories...</p>
      ) : isError ? (
        <Failed />
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <caption>{data.length} categories</caption>
            <thead>
              <tr><th scope="col">Category</th><th scope="col">Description</th><th scope="col">Courses</th></tr>
            </thead>
            <tbody>
              {data.map((category) => (
                <tr key={category.slug}>
                  <th scope="row"><a href={`/category/${category.slug}`}>{category.name}</a></th>
                  <td>{category.description}</td>
                  <td>{category.courseCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** SPEC 2.1: Manage Courses. Read-only list of every qualification with a link to its page. */
export function CoursesPage() {
  const { data, isPending, isError } = useQuery({
    queryKey: ['courses'],
    queryFn: () => api<{ courses: Course[]; total: number }>('/courses?limit=1000'),
  });
  return (
    <>
      <p className="admin-lead">View the nationally recognised qualifications listed on the site.</p>
      <p className="admin-note">{MANAGED_IN_CONTENT}</p>
      {isPending ? (
        <p className="admin-loading" role="status">Loading courses...</p>
      ) : isError ? (
        <Failed />
      ) : (
        <div className="table-wrap">
          <table className="admin-table">
            <caption>
              {data.total} courses, {data.courses.filter((course) => course.featured).length} featured
            </caption>
            <thead>
              <tr><th scope="col">Code</th><th scope="col">Title</th><th scope="col">Level</th><th scope="col">Category</th></tr>
            </thead>
            <tbody>
              {data.courses.map((course) => (
                <tr key={course.code}>
                  <th scope="row"><a href={`/courses/${course.code}`}>{course.code}</a></th>
                  <td>{course.title}{course.featured && <span className="admin-chip">Featured</span>}</td>
                  <td>{course.level}</td>
                  <td>{course.category.name}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
