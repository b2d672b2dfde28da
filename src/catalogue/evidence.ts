/**
 * Evidence checklists: what usually supports an RPL application for a qualification. The content lives in
 * content/evidence-checklists.json (a list every applicant needs, one per category, and additions for single
 * qualifications by code) and is checked with the rest of the catalogue (src/catalogue/). Keys are category
 * slugs and course codes, never course titles, so catalogue edits do not break the join.
 */
import * as v from 'valibot';
import { EvidenceChecklistsSchema, type EvidenceChecklists } from '../schemas/catalogue';
import { evidenceFor as listFor, repositoryCatalogue } from './index';

export { EvidenceChecklistsSchema, type EvidenceChecklists };

export function parseChecklists(input: unknown): EvidenceChecklists {
  const result = v.safeParse(EvidenceChecklistsSchema, input);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`content/evidence-checklists.json: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  return result.output;
}

export const evidenceChecklists = repositoryCatalogue().evidenceLists;

/** The checklist of one qualification: its own items, then its category's, then the common ones. */
export const evidenceFor = (
  course: { code: string; category: string },
  lists: EvidenceChecklists = evidenceChecklists,
) => listFor(course, lists);
