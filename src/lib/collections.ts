/** Build-time access to the validated catalogue collections, in the shapes pages and islands use. */
import { getCollection, type CollectionEntry } from 'astro:content';
import { levelRank, type CourseSummary } from './catalogue';

export type Course = CollectionEntry<'courses'>['data'];
export type Category = CollectionEntry<'categories'>['data'];

export async function getCatalogue() {
  const categories = (await getCollection('categories')).map((entry) => entry.data);
  const categoryBySlug = new Map(categories.map((c) => [c.slug, c]));
  const courses = (await getCollection('courses'))
    .map((entry) => entry.data)
    .sort((a, b) => levelRank(a.level) - levelRank(b.level) || a.title.localeCompare(b.title));
  const summary = (course: Course): CourseSummary => ({
    code: course.code,
    title: course.title,
    level: course.level,
    category: course.category,
    categoryName: categoryBySlug.get(course.category)?.name ?? 'Other',
    about: course.about,
    featured: course.featured,
    rplAlone: course.rplAlone,
  });
  const countFor = (slug: string) => courses.filter((c) => c.category === slug).length;
  return { categories, categoryBySlug, courses, summaries: courses.map(summary), summary, countFor };
}
