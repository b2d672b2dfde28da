import { catalogueWithOverlay, repositoryCatalogue, repositoryContent } from '../catalogue/index.ts';
import type { StoredRegisterCheck, CourseEdit, StoredCourse } from '../schemas/catalogue.ts';
import { categoryPicture, levelRank } from '../lib/catalogue.ts';
import { readCourseEntry, readOverlay, readRegisterCheck } from './catalogue.ts';

/**
 * The admin's view of the catalogue: every course (retired ones too) and category with its saved state,
 * its latest register check and why saved edits are unused, if they are (entries from ./catalogue.ts).
 */

export type CourseStatus = 'published' | 'edited' | 'new' | 'retired';

const stampOf = (entry: { version: number; updatedAt: string; updatedBy: string } | undefined) =>
  entry
    ? { version: entry.version, updatedAt: entry.updatedAt, updatedBy: entry.updatedBy }
    : { version: 0, updatedAt: null, updatedBy: null };

/** Facts and editable values of one course as saved (the repository's values where nobody has saved yet). */
function adminCourseFrom(code: string, entry: StoredCourse | undefined, check?: StoredRegisterCheck) {
  const repository = repositoryCatalogue();
  const course = repository.courseByCode.get(code);
  if (!course && !entry?.added) return undefined;
  const facts = entry?.added ?? {
    title: course!.title,
    level: course!.level,
    category: course!.category,
    source: course!.source,
    checkedOn: course!.checkedOn,
  };
  const edit: CourseEdit = entry?.edit ?? {
    featured: course!.featured,
    details: {
      about: course!.about,
      overview: course!.overview,
      aboutCertification: course!.aboutCertification,
      scopeOfWork: course!.scopeOfWork,
      experienceRequirements: course!.experienceRequirements,
      eligibility: course!.eligibility,
      entryRequirements: course!.entryRequirements,
      regulatoryRequirements: course!.regulatoryRequirements,
      jobOutcomes: course!.jobOutcomes,
      careerOutcomes: course!.careerOutcomes,
      studyPathway: course!.studyPathway,
      ...(course!.assessmentMethods ? { assessmentMethods: course!.assessmentMethods } : {}),
    },
    evidence: repository.evidenceLists.courses[code] ?? [],
    terms: course!.terms,
    retired: null,
  };
  const status: CourseStatus = edit.retired ? 'retired' : entry?.added ? 'new' : entry ? 'edited' : 'published';
  // The latest look-up on the register: the one staff recorded, else one recorded in the repository's content.
  const registerCheck = check
    ? {
        checkedAt: check.updatedAt,
        by: check.byName ?? check.updatedBy,
        status: check.status,
        title: check.title,
        workHours: check.workHours ?? null,
        version: check.version,
      }
    : course?.registerCheck
      ? {
          checkedAt: course.registerCheck.checkedOn,
          by: course.registerCheck.by ?? null,
          status: course.registerCheck.status,
          title: course.registerCheck.title,
          workHours: course.registerCheck.workHours ?? null,
          version: 0,
        }
      : null;
  return {
    code,
    facts,
    added: Boolean(entry?.added),
    edit,
    status,
    registerCheck,
    workRequirement: course?.workRequirement ?? null,
    watch: course?.watch ?? null,
    accreditedUntil: course?.accreditedUntil ?? null,
    ...stampOf(entry),
  };
}
export type AdminCourse = NonNullable<ReturnType<typeof adminCourseFrom>>;

export async function adminCourse(code: string): Promise<AdminCourse | undefined> {
  return adminCourseFrom(
    code,
    (await readCourseEntry(code)) ?? undefined,
    (await readRegisterCheck(code)) ?? undefined,
  );
}

/** The admin's lists: every course and category with its saved state, and why saved edits are unused, if they are. */
export async function adminCatalogue() {
  const { overlay, error } = await readOverlay();
  const buildError = error ? null : catalogueWithOverlay(repositoryContent, overlay, repositoryCatalogue).error;
  const repository = repositoryCatalogue();
  const entries = new Map((overlay?.courses ?? []).map((entry) => [entry.code, entry]));
  const categoryEntries = new Map((overlay?.categories ?? []).map((entry) => [entry.slug, entry]));
  const checkEntries = new Map((overlay?.checks ?? []).map((entry) => [entry.code, entry]));
  const codes = [
    ...repository.courses.map((c) => c.code),
    ...[...entries.values()].filter((e) => e.added).map((e) => e.code),
  ];
  const categoryName = new Map(repository.categories.map((c) => [c.slug, c.name]));
  const courses = codes
    .map((code) => adminCourseFrom(code, entries.get(code), checkEntries.get(code))!)
    .map(({ code, facts, status, edit, version, updatedAt, updatedBy, registerCheck, watch }) => ({
      code,
      title: facts.title,
      level: facts.level,
      category: { slug: facts.category, name: categoryName.get(facts.category) ?? facts.category },
      featured: edit.featured,
      status,
      successor: edit.retired?.successor ?? null,
      registerCheck: registerCheck ? { checkedAt: registerCheck.checkedAt, status: registerCheck.status } : null,
      watch,
      version,
      updatedAt,
      updatedBy,
    }))
    .sort((a, b) => levelRank(a.level) - levelRank(b.level) || a.title.localeCompare(b.title));
  const categories = repository.categories.map((category) => {
    const entry = categoryEntries.get(category.slug);
    return {
      slug: category.slug,
      name: category.name,
      icon: category.icon,
      description: entry?.edit.description ?? category.description,
      color: entry?.edit.color ?? category.color,
      image: entry ? entry.edit.image : (category.image ?? null),
      picture: categoryPicture({ slug: category.slug, image: entry ? entry.edit.image : category.image }),
      courseCount: courses.filter((c) => c.category.slug === category.slug && c.status !== 'retired').length,
      ...stampOf(entry),
    };
  });
  return { courses, categories, overlayError: error ?? buildError };
}
