// The catalogue is built from the shared qualification list: every code there has a page's worth of copy.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { DETAIL_FILE_COUNT } from '../../src/catalogue/content';
import courses from '../../content/courses.json';
import reviewJson from '../../content/qualifications-review.json';
import categoriesJson from '../../content/categories.json';
import { repositoryCatalogue } from '../../src/catalogue/index';
import { categoryPicture, courseCountLabel, DEFAULT_CATEGORY_PICTURE } from '../../src/lib/catalogue';

const {
  api: { categories, courses: apiCourses, findCourseDetail },
} = repositoryCatalogue();

describe('catalogue content', () => {
  it('publishes the codes, titles and levels of the shared list, except those withdrawn or replaced', () => {
    // The publishing rules themselves are checked in catalogue-integrity.test.ts.
    const shared = reviewJson as {
      code: string;
      title: string;
      level: string;
      category: string;
    }[];
    const byCode = new Map(shared.map((q) => [q.code, q]));
    for (const course of courses) {
      const fact = byCode.get(course.code) ?? byCode.get((course as { replaces?: string[] }).replaces?.[0] ?? '');
      expect(fact, `${course.code} comes from the shared list`).toBeDefined();
      if (fact!.code === course.code)
        expect({ title: course.title, level: course.level }).toEqual({ title: fact!.title, level: fact!.level });
      expect(course.category, course.code).toBe(fact!.category);
    }
  });
  it('has unique codes', () => {
    expect(courses.length).toBeGreaterThan(140);
    expect(new Set(courses.map((c) => c.code)).size).toBe(courses.length);
  });
  it('has the eleven categories, each with courses', () => {
    expect(categoriesJson.map((c) => c.slug).sort()).toEqual([
      'beauty-hair-services',
      'business-administration',
      'civil-construction',
      'community-services',
      'early-childhood-education',
      'finance-administration',
      'government-security',
      'health-fitness',
      'information-technology',
      'leadership-management',
      'security-cleaning',
    ]);
    for (const category of categories) expect(category.courseCount).toBeGreaterThan(0);
  });
  it('writes full details for every course', () => {
    for (const course of apiCourses) {
      const detail = findCourseDetail(course.code)!;
      expect(detail, course.code).toBeDefined();
      expect(detail.courseOverview.length, course.code).toBeGreaterThan(150);
      expect(detail.careerOutcomes.length, course.code).toBeGreaterThan(1);
    }
  });
  it('keeps featured courses to at most two per category', () => {
    for (const category of categories) {
      expect(courses.filter((c) => c.category === category.slug && c.featured).length).toBeLessThanOrEqual(2);
    }
  });
});

describe('labels and pictures', () => {
  it("says 'Course' for one and 'Courses' otherwise", () => {
    expect(courseCountLabel(1)).toBe('1 Course');
    expect(courseCountLabel(0)).toBe('0 Courses');
    expect(courseCountLabel(23)).toBe('23 Courses');
  });
  it('uses the category image, else its fixed picture, else the default business picture', () => {
    expect(categoryPicture({ slug: 'health-fitness', image: '/uploads/x.webp' })).toBe('/uploads/x.webp');
    expect(categoryPicture({ slug: 'health-fitness' })).toBe('/images/categories/health-fitness.svg');
    expect(categoryPicture({ slug: 'aviation' })).toBe(DEFAULT_CATEGORY_PICTURE);
  });
});

describe('the catalogue module reads every content file', () => {
  it('imports each file of content/course-details (a new file must be added to src/catalogue/content.ts)', () => {
    expect(readdirSync('content/course-details').filter((f) => f.endsWith('.json'))).toHaveLength(DETAIL_FILE_COUNT);
  });
});
