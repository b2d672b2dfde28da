/**
 * Staff edits (kept in the `catalogue` blob store) laid over the repository's content. The result is
 * raw content again, so createCatalogue checks it exactly as it checks the files: an edit that would
 * break the catalogue fails here, and the caller falls back to the repository content.
 */
import * as v from 'valibot';
import { OverlaySchema, type OverlayInput } from '../schemas/catalogue';
import { CatalogueError, createCatalogue, sydneyToday, type Catalogue, type CatalogueContent } from './build';

type Row = Record<string, unknown> & { code?: string; slug?: string };
const rows = (value: unknown) => (Array.isArray(value) ? (value as Row[]).map((row) => ({ ...row })) : []);

export function applyOverlay(content: CatalogueContent, overlay: OverlayInput): CatalogueContent {
  const checked = v.safeParse(OverlaySchema, overlay);
  if (!checked.success) {
    const issue = checked.issues[0];
    throw new CatalogueError(
      `saved catalogue edits${v.getDotPath(issue) ? ` at ${v.getDotPath(issue)}` : ''}: ${issue.message}`,
    );
  }
  const categories = rows(content.categories);
  let courses = rows(content.courses);
  let details = rows(content.details);
  const searchTerms = { ...(content.searchTerms as Record<string, string[]>) };
  const evidence = content.evidence as {
    common: string[];
    categories: Record<string, string[]>;
    courses: Record<string, string[]>;
  };
  const evidenceCourses = { ...evidence.courses };

  for (const stored of checked.output.categories) {
    const category = categories.find((c) => c.slug === stored.slug);
    if (!category) throw new CatalogueError(`saved edit of category ${stored.slug}: no such category`);
    const { image, ...rest } = stored.edit;
    Object.assign(category, rest);
    if (image) category.image = image;
    else delete category.image;
  }

  for (const stored of checked.output.courses) {
    const { code, added, edit } = stored;
    const existing = courses.find((c) => c.code === code);
    if (added && existing)
      throw new CatalogueError(`saved new qualification ${code}: the code is already in content/courses.json`);
    if (!added && !existing) throw new CatalogueError(`saved edit of ${code}: the code is not in content/courses.json`);
    if (added) courses.push({ code, ...added, featured: edit.featured, status: 'current' });
    else existing!.featured = edit.featured;
    details = details.filter((d) => d.code !== code);
    details.push({ code, ...edit.details });
    if (edit.terms.length > 0) searchTerms[code] = edit.terms;
    else delete searchTerms[code];
    if (edit.evidence.length > 0) evidenceCourses[code] = edit.evidence;
    else delete evidenceCourses[code];
  }

  // Register look-ups recorded by staff: the latest one of each code is the course's `registerCheck`. A code the
  // register shows as superseded or deleted is withdrawn (as if retired without a successor): only current
  // qualifications are published. A look-up of a code no longer in the catalogue changes nothing.
  const withdrawn = new Set<string>();
  for (const check of checked.output.checks) {
    const course = courses.find((c) => c.code === check.code);
    if (!course) continue;
    course.registerCheck = {
      checkedOn: sydneyToday(new Date(check.updatedAt)),
      status: check.status,
      title: check.title,
      by: check.byName ?? check.updatedBy,
      ...(check.workHours ? { workHours: check.workHours } : {}),
    };
    if (check.status !== 'current') withdrawn.add(check.code);
  }

  // Retire last, so a successor may itself be new or edited. Retirements are resolved as a whole, never
  // one after another, so the order the store lists the entries in cannot matter: a retired code's address
  // goes to the first course down its chain of successors (A to B, B to C: A goes to C) that is published.
  const retirements = checked.output.courses
    .filter(({ edit }) => edit.retired)
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const successorOf = new Map<string, string | null>(
    retirements.map(({ code, edit }) => [code, edit.retired!.successor ?? null]),
  );
  for (const code of withdrawn) if (!successorOf.has(code)) successorOf.set(code, null);
  const retiredFacts = new Map<string, Row>();
  for (const code of successorOf.keys()) {
    const retired = courses.find((c) => c.code === code);
    if (retired) retiredFacts.set(code, retired);
  }
  courses = courses.filter((c) => !successorOf.has(c.code ?? ''));
  details = details.filter((d) => !successorOf.has(d.code ?? ''));
  for (const { code } of retirements) {
    const successorCode = finalSuccessor(code, successorOf);
    if (!successorCode) continue;
    const successor = courses.find((c) => c.code === successorCode);
    if (!successor) {
      const named = successorOf.get(code);
      throw new CatalogueError(
        named === successorCode
          ? `saved retirement of ${code}: the successor ${successorCode} is not in the catalogue`
          : `saved retirement of ${code}: its successor ${named} is retired in favour of ${successorCode}, which is not in the catalogue`,
      );
    }
    const replaces = [
      ...((successor.replaces as string[] | undefined) ?? []),
      code,
      ...((retiredFacts.get(code)?.replaces as string[] | undefined) ?? []),
    ];
    successor.replaces = [...new Set(replaces)];
  }

  return { categories, courses, details, searchTerms, evidence: { ...evidence, courses: evidenceCourses } };
}

/**
 * Where a retired code's address goes: its successor, or (when that is retired too) the successor's, and so
 * on. Null for a retirement without a successor; a chain that loops, or that ends at a retired course
 * without a successor, is refused with the codes involved.
 */
function finalSuccessor(code: string, successorOf: ReadonlyMap<string, string | null>): string | null {
  const chain = [code];
  let next = successorOf.get(code) ?? null;
  while (next !== null && successorOf.has(next)) {
    if (chain.includes(next)) {
      const loop = [...chain.slice(chain.indexOf(next)), next];
      throw new CatalogueError(
        `saved retirements form a cycle: ${loop.join(' → ')} (a chain of successors must end at a published qualification)`,
      );
    }
    chain.push(next);
    const after = successorOf.get(next) ?? null;
    if (after === null)
      throw new CatalogueError(
        `saved retirement of ${code}: its successor ${next} is retired without a successor (choose a published qualification)`,
      );
    next = after;
  }
  return next;
}

/** The catalogue with the edits applied; with broken edits, the repository's catalogue and the reason. */
export function catalogueWithOverlay(
  content: CatalogueContent,
  overlay: OverlayInput | null,
  repository: () => Catalogue,
) {
  if (!overlay || (overlay.courses.length === 0 && overlay.categories.length === 0 && !overlay.checks?.length))
    return { catalogue: repository(), error: null };
  try {
    return { catalogue: createCatalogue(applyOverlay(content, overlay)), error: null };
  } catch (cause) {
    // Whatever is wrong with the edits, the site is still built, from the repository's content.
    return { catalogue: repository(), error: cause instanceof Error ? cause.message : String(cause) };
  }
}
