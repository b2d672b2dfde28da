import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { COUNTER_RETRIES, dataStore, updateJSON } from './blobs';
import type { InquiryRecord } from './inquiries';
import { resultOfQuote } from './quote-result';
import { loadCatalogue } from './catalogue';
import {
  ApplicantRecordSchema,
  type ApplicantRecord,
  type ApplicantView,
  type ChecklistItem,
} from '../schemas/applicant';

/**
 * Applicant records: the `applicants` and `evidence` stores' keys, the record of each applicant and its
 * checked updates, and the checklist an inquiry's applicant page shows (see ./applicants.ts for the stores).
 */

export const applicants = () => dataStore('applicants');
export const evidence = () => dataStore('evidence');
export const recordKey = (inquiryId: string) => `applicant/${inquiryId}`;
export const tokenKey = (hash: string) => `token/${hash}`;
export const uploadKey = (id: string) => `upload/${id}`;
export const chunkKey = (id: string, n: number) => `chunk/${id}/${n}`;
export const DAY_MS = 24 * 60 * 60_000;
/** Link tokens kept per applicant (the oldest go first). */
export const MAX_TOKENS = 10;
const MAX_EVENTS = 500;

export const INVALID_LINK =
  'This link is not valid any more. Ask for a new one below with your e-mail address and reference.';
export const UNKNOWN_FILE = 'There is no such file.';
/** The answer to every request for a new link, matching or not. */
export const LINK_RENEWAL_ANSWER =
  'If the e-mail address and reference match an application, we have sent a new link to that address. It can take a few minutes to arrive.';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** An item id from its text: the same text gives the same id on every list. */
export const itemIdOf = (text: string) => `ev-${createHash('sha256').update(text).digest('hex').slice(0, 10)}`;

/* ---------- the inquiry's checklist ---------- */

/**
 * The qualifications of an inquiry's applicant page (the ones shown on its result: chosen first, then
 * suggested) and one merged checklist: an item several of them name appears once, with every code naming it.
 */
export async function checklistOf(inquiry: InquiryRecord): Promise<{
  qualifications: ApplicantView['qualifications'];
  checklist: ChecklistItem[];
}> {
  const items = inquiry.kind === 'quote' ? resultOfQuote((await loadCatalogue()).catalogue, inquiry.quote) : [];
  const byText = new Map<string, ChecklistItem>();
  for (const item of items) {
    for (const text of item.evidence) {
      const known = byText.get(text);
      if (known) known.codes.push(item.code);
      else byText.set(text, { id: itemIdOf(text), text, codes: [item.code] });
    }
  }
  return {
    qualifications: items.map((item) => ({ code: item.code, title: item.title, chosen: item.selected })),
    checklist: [...byText.values()],
  };
}

/* ---------- records ---------- */

function parseApplicant(stored: unknown): ApplicantRecord | null {
  const parsed = v.safeParse(ApplicantRecordSchema, stored);
  if (!parsed.success) {
    console.error(`[applicants] a stored applicant record does not parse: ${parsed.issues[0].message}`);
    return null;
  }
  return parsed.output;
}

export async function getApplicant(inquiryId: string): Promise<ApplicantRecord | null> {
  return parseApplicant(await applicants().get(recordKey(inquiryId), { type: 'json' }));
}

export const newApplicant = (inquiryId: string, now: Date): ApplicantRecord => ({
  inquiryId,
  createdAt: now.toISOString(),
  stage: 'received',
  stages: [{ stage: 'received', at: now.toISOString() }],
  tokens: [],
  files: [],
  pending: [],
  reviews: [],
  events: [],
});

/**
 * Changes an applicant record with a conditional write (many uploads of one applicant may land at once).
 * `change` may throw a RefusedInput, which leaves the record as it was.
 */
export async function updateApplicant(
  inquiryId: string,
  change: (record: ApplicantRecord) => ApplicantRecord | undefined,
  { create = false, now = new Date() } = {},
): Promise<ApplicantRecord | null> {
  const updated = await updateJSON<unknown>(
    applicants(),
    recordKey(inquiryId),
    (stored) => {
      const current = stored === null ? (create ? newApplicant(inquiryId, now) : null) : parseApplicant(stored);
      if (!current) return undefined;
      const next = change(structuredClone(current));
      return next === undefined ? (stored === null ? current : undefined) : v.parse(ApplicantRecordSchema, next);
    },
    COUNTER_RETRIES,
  );
  return updated === null ? null : parseApplicant(updated);
}

export const event = (
  record: ApplicantRecord,
  type: ApplicantRecord['events'][number]['type'],
  detail: string,
  now: Date,
) => {
  record.events = [...record.events, { at: now.toISOString(), type, detail }].slice(-MAX_EVENTS);
};

/** Bytes an applicant has sent or is sending. */
export const usedBytes = (record: ApplicantRecord) =>
  record.files.reduce((sum, f) => sum + f.size, 0) + record.pending.reduce((sum, p) => sum + p.size, 0);
