import { ArrowRight, GraduationCap } from 'lucide-react';
import type { CourseSummary } from '../lib/catalogue';
import './CourseCard.css';

/**
 * A course card coloured by its category (class `cat-{slug}` sets --cat-color; default teal).
 * Rendered as static HTML by Astro pages, and by the search island in the browser.
 */
export default function CourseCard({ course, headingLevel = 3 }: { course: CourseSummary; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className={`course-card cat-${course.category}`}>
      <div className="course-card__top">
        <span className="course-card__code">{course.code}</span>
        <span className="course-card__level">
          <GraduationCap size={16} aria-hidden="true" /> {course.level}
        </span>
      </div>
      {course.rplAlone === false && <p className="course-card__flag">Not available by RPL alone</p>}
      {course.workHours ? (
        <p className="course-card__flag" data-testid="work-label">
          Needs current work in the role ({course.workHours} hours)
        </p>
      ) : null}
      <Heading className="course-card__title">
        <a href={`/courses/${course.code}`}>{course.title}</a>
      </Heading>
      <p className="course-card__about">{course.about}</p>
      <p className="course-card__category">{course.categoryName}</p>
      <span className="course-card__more" aria-hidden="true">
        View course <ArrowRight size={18} />
      </span>
    </article>
  );
}
