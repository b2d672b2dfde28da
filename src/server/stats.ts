import { loadCatalogue } from './catalogue.ts';
import { blogFigures } from './blog-reads.ts';
import { readSnapshot, recordSnapshot, viewsIn } from './counters.ts';
import { growth, monthKey, previousMonthKey } from './months.ts';
import { newSinceLastVisit } from './inquiry-inbox.ts';
import type { NewInquiriesSummary } from '../schemas/inbox.ts';
import { callbacksDue, type CallbackDue } from './callbacks.ts';
import { followUpsDue } from './follow-ups.ts';

/**
 * GET /api/admin/dashboard-stats (docs/routes.md). Growth, as the README explains:
 * - views: this month's blog views against last month's;
 * - blogs: published posts now against those already published when this month began;
 * - courses and categories: totals now against the first totals recorded last month (0% until a
 *   month has been recorded, because the catalogue ships with each deploy and has no history of its own).
 */
export async function dashboardStats(now: Date = new Date(), inboxOf: string | null = null) {
  const month = monthKey(now);
  const lastMonth = previousMonthKey(month);
  const [{ catalogue }, blogs, viewsNow, viewsBefore, baseline, inbox, callbacksToday, followUps] = await Promise.all([
    loadCatalogue(),
    blogFigures(startOfMonth(now)),
    viewsIn(month),
    viewsIn(lastMonth),
    readSnapshot(lastMonth),
    inboxOf ? newSinceLastVisit(inboxOf) : Promise.resolve<NewInquiriesSummary | null>(null),
    inboxOf ? callbacksDue(now) : Promise.resolve<CallbackDue[] | null>(null),
    inboxOf ? followUpsDue(now) : Promise.resolve(null),
  ]);
  // The catalogue as published now, staff edits included.
  const { courses, categories } = catalogue.api;
  await recordSnapshot(month, {
    courses: courses.length,
    categories: categories.length,
    publishedBlogs: blogs.published,
  });

  const viewsGrowth = growth(viewsNow, viewsBefore);
  return {
    overview: {
      totalCourses: courses.length,
      totalCategories: categories.length,
      totalBlogs: blogs.total,
      publishedBlogs: blogs.published,
      totalViews: viewsNow,
      monthlyGrowth: viewsGrowth,
    },
    recentActivity: {
      courses: courses
        .filter((course) => course.featured)
        .slice(0, 5)
        .map(({ code, title, level }) => ({ code, title, level })),
      blogs: blogs.newest.map(({ _id, title, slug, isPublished, createdAt }) => ({
        _id,
        title,
        slug,
        isPublished,
        createdAt,
      })),
      categories: categories.map(({ slug, name, courseCount }) => ({ slug, name, courseCount })),
    },
    trends: {
      coursesGrowth: baseline ? growth(courses.length, baseline.courses) : 0,
      blogsGrowth: growth(blogs.published, blogs.publishedBefore),
      categoriesGrowth: baseline ? growth(categories.length, baseline.categories) : 0,
      viewsGrowth,
    },
    /** The New inquiries card: for staff who may open the inbox, what arrived since their last visit. */
    inbox,
    /** Call-backs visitors asked for today (Sydney), earliest first; null for roles without the inbox. */
    callbacksToday,
    /** Follow-ups due today and overdue (Sydney days), earliest first; null for roles without the inbox. */
    followUps,
  };
}
export type DashboardStats = Awaited<ReturnType<typeof dashboardStats>>;

/** Midnight on the 1st of the current month in Sydney, as an instant. */
function startOfMonth(now: Date): Date {
  const key = monthKey(now);
  // Sydney is UTC+10 or +11; find the first instant whose Sydney month is this month.
  let guess = new Date(`${key}-01T00:00:00+11:00`);
  while (monthKey(new Date(guess.getTime() - 60_000)) === key) guess = new Date(guess.getTime() - 60 * 60_000);
  while (monthKey(guess) !== key) guess = new Date(guess.getTime() + 60 * 60_000);
  return guess;
}
