import { RefusedInput } from './http';
import { eraseInquiryPersonalData, getInquiry, referenceOf } from './inquiries';
import { db, sql } from '../platform/database';
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
import { addEvent, checklistOf, ensureApplicant, getApplicant, newApplicant, usedBytes } from './applicant-records';

/**
 * Applicants: the private page an inquirer opens from a link (/apply), with the evidence they send.
 *
 * Tables (netlify/database/migrations/*_applicants.sql), each keyed by the inquiry id:
 *   applicants          one row per inquiry whose page was opened: the stage, when the last link e-mail was
 *                       asked for, when retention removed the files
 *   applicant_stages    each stage change after the first ('received', the applicant's created_at)
 *   applicant_links     the SHA-256 of each link token, and until when it opens the page
 *   evidence_files      each upload from its start ('uploading', its size reserved) to 'complete'
 *   applicant_reviews   the staff review of each checklist item
 *   applicant_events    what happened (uploads, removals, reviews, stages, revocations, expiry)
 *   applicant_erasures  the anonymous line left when staff erase an applicant's data
 *   applicant_mail      e-mails to the applicant waiting to be sent (./applicant-mail.ts)
 * `evidence` Blobs store:  chunk/{id}/{n}  the n-th part of a file (4 MB, the last one shorter)
 * The evidence store is private: no public route reads it, and the staff download sends no cache headers
 * but `private, no-store`. Tokens are 256 random bits; only their SHA-256 is stored.
 *
 * By concern: ./applicant-records.ts (the record read back, the checklist), ./applicant-links.ts (links and
 * sessions), ./applicant-evidence.ts (uploads, downloads, retention); this file is what the applicant and
 * staff see and what staff do (reviews, stages, erasure).
 */

/* ---------- what the applicant and staff see ---------- */

const reviewsOf = (record: ApplicantRecord) => new Map(record.reviews);

export async function applicantView({ inquiry }: ApplicantSession): Promise<ApplicantView> {
  const record = (await getApplicant(inquiry.id)) ?? newApplicant(inquiry.id, new Date(inquiry.createdAt));
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

/**
 * Staff mark a checklist item accepted or needing more (with a note): one row per item, so reviews of
 * different items made at once are all kept, and a second review of an item replaces the first.
 */
export async function reviewItem(
  inquiryId: string,
  itemId: string,
  review: { status: Review['status']; note: string },
  by: StaffRef,
  now = new Date(),
): Promise<{ item: ChecklistItem } | null> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return null;
  const item = (await checklistOf(inquiry)).checklist.find((entry) => entry.id === itemId);
  if (!item) throw new RefusedInput(404, 'There is no such checklist item.');
  const at = now.toISOString();
  await db().transaction(async (tx) => {
    await ensureApplicant(tx, inquiryId, now);
    await tx.query(sql`
      INSERT INTO applicant_reviews (inquiry_id, item_id, status, note, by_username, by_name, at)
      VALUES (${inquiryId}, ${itemId}, ${review.status}, ${review.note}, ${by.username}, ${by.name}, ${at})
      ON CONFLICT (inquiry_id, item_id) DO UPDATE SET status = EXCLUDED.status, note = EXCLUDED.note,
        by_username = EXCLUDED.by_username, by_name = EXCLUDED.by_name, at = EXCLUDED.at`);
    await addEvent(tx, inquiryId, 'review', `${item.text}: ${review.status}`, now);
  });
  return { item };
}

/**
 * Staff move the application to a stage; the date of each stage reached is kept. The stage, its history
 * line and its event change in one statement that holds the applicant row: of two moves at once the second
 * waits, then moves from the stage the first left (or changes nothing if it is the same).
 */
export async function setStage(
  inquiryId: string,
  stage: Stage,
  now = new Date(),
): Promise<{ changed: boolean } | null> {
  if (!(await getInquiry(inquiryId))) return null;
  const at = now.toISOString();
  await ensureApplicant(db(), inquiryId, now);
  const moved = await db().query(sql`
    WITH moved AS (
      UPDATE applicants SET stage = ${stage} WHERE inquiry_id = ${inquiryId} AND stage <> ${stage}
      RETURNING inquiry_id, stage
    ), kept AS (
      INSERT INTO applicant_stages (inquiry_id, stage, at) SELECT inquiry_id, stage, ${at}::timestamptz FROM moved
    )
    INSERT INTO applicant_events (inquiry_id, at, type, detail)
    SELECT inquiry_id, ${at}::timestamptz, 'stage', ${STAGE_LABELS[stage]}::text FROM moved
    RETURNING inquiry_id`);
  return { changed: moved.length > 0 };
}

/**
 * Erasure on request (APP 11 / APP 13): the files first (they are in Blobs, outside any transaction), then in one
 * transaction the applicant (with its links, stages, reviews, events and waiting e-mails), the inquiry's personal
 * fields and an anonymous line (when, by whom, how many files). A failure part-way leaves the rows as they were
 * and erasing again finishes the job.
 */
export async function eraseApplicant(inquiryId: string, by: StaffRef, now = new Date()): Promise<boolean> {
  const inquiry = await getInquiry(inquiryId);
  if (!inquiry) return false;
  const files = await deleteEvidenceOf(inquiryId);
  await eraseInquiryPersonalData(inquiryId, now, async (tx) => {
    await tx.query(sql`DELETE FROM applicants WHERE inquiry_id = ${inquiryId}`);
    // A "needs more" e-mail waiting for the retry quotes the staff's note about the person.
    await tx.query(sql`DELETE FROM applicant_mail WHERE inquiry_id = ${inquiryId}`);
    await tx.query(sql`
      INSERT INTO applicant_erasures (inquiry_id, at, by_username, files)
      VALUES (${inquiryId}, ${now.toISOString()}, ${by.username}, ${files})
      ON CONFLICT (inquiry_id) DO NOTHING`);
  });
  return true;
}
