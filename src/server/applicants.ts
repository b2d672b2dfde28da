import { RefusedInput } from './http';
import { eraseInquiryPersonalData, getInquiry, referenceOf } from './inquiries';
import {
  CHUNK_BYTES,
  MAX_APPLICANT_BYTES,
  MAX_FILE_BYTES,
  STAGE_LABELS,
  type ApplicantRecord,
  type ApplicantView,
  type ChecklistItem,
  type Review,
  type Stage,
  type StaffApplicantView,
} from '../schemas/applicant';
import type { StaffRef } from '../schemas/inquiry-record';
import { deleteEvidenceOf } from './applicant-evidence';
import type { ApplicantSession } from './applicant-links';
import {
  applicants,
  checklistOf,
  usedBytes,
  event,
  getApplicant,
  newApplicant,
  recordKey,
  tokenKey,
  updateApplicant,
} from './applicant-records';

/**
 * Applicants: the private page an inquirer opens from a link (/apply), with the evidence they send.
 *
 * `applicants` store:  applicant/{inquiryId}  the record (src/schemas/applicant.ts): link token hashes, stage,
 *                                               files, staff reviews, events
 *                      token/{sha256}         which applicant a link token opens, and until when
 *                      erased/{inquiryId}     the anonymous line left when staff erase an applicant's data
 * `evidence` store:    upload/{id}            an upload's metadata (owner, name, size, item, chunks received)
 *                      chunk/{id}/{n}         its n-th chunk (4 MB, the last one shorter)
 * The evidence store is private: no public route reads it, and the staff download sends no cache headers
 * but `private, no-store`. Tokens are 256 random bits; only their SHA-256 is stored.
 *
 * By concern: ./applicant-records.ts (keys, the record, the checklist), ./applicant-links.ts (links and
 * sessions), ./applicant-evidence.ts (uploads, downloads, retention); this file is what the applicant and
 * staff see and what staff do (reviews, stages, erasure).
 */

/* ---------- what the applicant and staff see ---------- */

const reviewsOf = (record: ApplicantRecord) => new Map(record.reviews);

export async function applicantView({ inquiry, record }: ApplicantSession): Promise<ApplicantView> {
  const { qualifications, checklist } = await checklistOf(inquiry);
  const reviews = reviewsOf(record);
  return {
    reference: referenceOf(inquiry),
    firstName: inquiry.contact.firstName,
    qualifications,
    stage: record.stage,
    stages: record.stages,
    checklist: checklist.map((item) => {
      const review = reviews.get(item.id);
      return review ? { ...item, review: { status: review.status, note: review.note, at: review.at } } : item;
    }),
    files: record.files,
    usedBytes: usedBytes(record),
    limits: { fileBytes: MAX_FILE_BYTES, applicantBytes: MAX_APPLICANT_BYTES, chunkBytes: CHUNK_BYTES },
    events: record.events.filter((e) => e.type === 'upload' || e.type === 'remove'),
  };
}

/** The staff view of an inquiry's applicant; an inquiry nobody opened a page for yet has an empty one. */
export async function staffApplicantView(inquiryId: string, now = new Date()): Promise<StaffApplicantView | null> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return null;
  const record = (await getApplicant(inquiryId)) ?? newApplicant(inquiryId, new Date(inquiry.createdAt));
  const { qualifications, checklist } = await checklistOf(inquiry);
  const reviews = reviewsOf(record);
  return {
    reference: referenceOf(inquiry),
    qualifications,
    stage: record.stage,
    stages: record.stages,
    checklist: checklist.map((item) => {
      const review = reviews.get(item.id);
      return review ? { ...item, review } : item;
    }),
    files: record.files,
    usedBytes: usedBytes(record),
    events: record.events,
    linkActive: record.tokens.some((t) => Date.parse(t.expiresAt) > now.getTime()),
    ...(record.filesExpiredAt ? { filesExpiredAt: record.filesExpiredAt } : {}),
  };
}

/* ---------- staff ---------- */

/** Staff mark a checklist item accepted or needing more (with a note). */
export async function reviewItem(
  inquiryId: string,
  itemId: string,
  review: { status: Review['status']; note: string },
  by: StaffRef,
  now = new Date(),
): Promise<{ record: ApplicantRecord; item: ChecklistItem } | null> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return null;
  const item = (await checklistOf(inquiry)).checklist.find((entry) => entry.id === itemId);
  if (!item) throw new RefusedInput(404, 'There is no such checklist item.');
  const record = await updateApplicant(
    inquiryId,
    (current) => {
      current.reviews = [
        ...current.reviews.filter(([id]) => id !== itemId),
        [itemId, { ...review, by, at: now.toISOString() }],
      ];
      event(current, 'review', `${item.text}: ${review.status}`, now);
      return current;
    },
    { create: true, now },
  );
  return record ? { record, item } : null;
}

/** Staff move the application to a stage; the date of each stage reached is kept. */
export async function setStage(
  inquiryId: string,
  stage: Stage,
  now = new Date(),
): Promise<{ record: ApplicantRecord; changed: boolean } | null> {
  if (!(await getInquiry(inquiryId))) return null;
  let changed = false;
  const record = await updateApplicant(
    inquiryId,
    (current) => {
      if (current.stage === stage) return undefined;
      changed = true;
      current.stage = stage;
      current.stages = [...current.stages, { stage, at: now.toISOString() }];
      event(current, 'stage', STAGE_LABELS[stage], now);
      return current;
    },
    { create: true, now },
  );
  return record ? { record, changed } : null;
}

/**
 * Erasure on request (APP 11 / APP 13): the files, the applicant record, every link, and the inquiry's
 * personal fields go at once; what stays is an anonymous line (when, by whom, how many files).
 */
export async function eraseApplicant(inquiryId: string, by: StaffRef, now = new Date()): Promise<boolean> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return false;
  const record = await getApplicant(inquiryId);
  const files = record ? await deleteEvidenceOf(record) : 0;
  if (record) await Promise.all(record.tokens.map((t) => applicants().delete(tokenKey(t.hash))));
  await applicants().delete(recordKey(inquiryId));
  await eraseInquiryPersonalData(inquiryId, now);
  await applicants().setJSON(`erased/${inquiryId}`, { at: now.toISOString(), by: by.username, files });
  return true;
}
