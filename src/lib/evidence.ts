/**
 * Evidence checklists: what usually supports an RPL application for a qualification. The content
 * lives in content/evidence-checklists.json (a list every applicant needs, one per category, and
 * additions for single qualifications by code), checked here against a schema when it is imported,
 * so a malformed file fails the build and the functions alike. Keys are category slugs and course
 * codes, never course titles, so catalogue edits do not break the join.
 */
import * as v from 'valibot';
import raw from '../../content/evidence-checklists.json';

const Item = v.pipe(v.string(), v.trim(), v.minLength(10, 'Checklist items are short sentences'), v.maxLength(200, 'Checklist items are at most 200 characters'));
const List = (min: number) => v.pipe(v.array(Item), v.minLength(min, `Each list has at least ${min} item(s)`), v.maxLength(8, 'Each list has at most 8 items'));

export const EvidenceChecklistsSchema = v.strictObject({
  common: List(2),
  categories: v.record(v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Category keys are slugs')), List(2)),
  courses: v.record(v.pipe(v.string(), v.regex(/^[A-Z0-9]{5,12}$/, 'Course keys are qualification codes')), List(1)),
});
export type EvidenceChecklists = v.InferOutput<typeof EvidenceChecklistsSchema>;

export function parseChecklists(input: unknown): EvidenceChecklists {
  const result = v.safeParse(EvidenceChecklistsSchema, input);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`content/evidence-checklists.json: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  return result.output;
}

export const evidenceChecklists = parseChecklists(raw);

/**
 * The checklist of one qualification: its own additions first (most specific), then its category's
 * list, then what every applicant needs. Every course gets at least the common list.
 */
export function evidenceFor(course: { code: string; category: string }, lists: EvidenceChecklists = evidenceChecklists): string[] {
  const items = [...(lists.courses[course.code] ?? []), ...(lists.categories[course.category] ?? []), ...lists.common];
  return [...new Set(items)];
}
