/**
 * The repository's catalogue content, imported statically so it is bundled into every function and page
 * (functions have no content folder to read at run time). The only module that imports these files.
 */
import categories from '../../content/categories.json';
import courses from '../../content/courses.json';
import beauty from '../../content/course-details/beauty-hair-services.json';
import business from '../../content/course-details/business-administration.json';
import construction from '../../content/course-details/civil-construction.json';
import community from '../../content/course-details/community-services.json';
import earlyChildhood from '../../content/course-details/early-childhood-education.json';
import finance from '../../content/course-details/finance-administration.json';
import government from '../../content/course-details/government-security.json';
import health from '../../content/course-details/health-fitness.json';
import it from '../../content/course-details/information-technology.json';
import leadership from '../../content/course-details/leadership-management.json';
import security from '../../content/course-details/security-cleaning.json';
import searchTerms from '../../content/search-terms.json';
import evidence from '../../content/evidence-checklists.json';
import type { CatalogueContent } from './build';

const details = {
  beauty,
  business,
  construction,
  community,
  earlyChildhood,
  finance,
  government,
  health,
  it,
  leadership,
  security,
};

export const repositoryContent: CatalogueContent = {
  categories,
  courses,
  details: Object.values(details).flat(),
  searchTerms,
  evidence,
};

/** Every file in content/course-details/ must be listed above; a unit test compares the folder with this count. */
export const DETAIL_FILE_COUNT = Object.keys(details).length;
