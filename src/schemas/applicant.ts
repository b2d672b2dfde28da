import * as v from 'valibot';
import { InquiryIdSchema, StaffRefSchema } from './inquiry-record';

/**
 * The private applicant page (/apply) and its evidence: the applicant as the functions read it back from its
 * tables (src/server/applicants.ts), and every body and path parameter the applicant and staff routes accept.
 */

const Timestamp = v.pipe(v.string(), v.isoTimestamp('Not a timestamp'));

/** Where an application stands, in order. */
export const STAGES = ['received', 'gathering', 'assessment', 'outcome'] as const;
export type Stage = (typeof STAGES)[number];
export const STAGE_LABELS: Readonly<Record<Stage, string>> = {
  received: 'Received',
  gathering: 'Gathering evidence',
  assessment: 'With the RTO for assessment',
  outcome: 'Outcome',
};

/** One file at most 15 MB; everything an applicant sends at most 200 MB. */
export const MAX_FILE_BYTES = 15 * 1024 * 1024;
export const MAX_APPLICANT_BYTES = 200 * 1024 * 1024;
/** A Function takes at most 6 MB a request: files travel in 4 MB chunks. */
export const CHUNK_BYTES = 4 * 1024 * 1024;
export const FILE_NAME_MAX = 120;
export const REVIEW_NOTE_MAX = 1000;
/** Links stay valid this long; asking again with the same e-mail and reference gives a new one. */
export const LINK_LIFETIME_DAYS = 30;
/**
 * Evidence files are deleted this many days after the inquiry is marked handled (APP 11). A constant, not
 * a setting: changing it is a code change, so the privacy policy and the collection notice change with it.
 */
export const EVIDENCE_RETENTION_DAYS = 90;
/** An upload nobody completed is removed after this many hours. */
export const STALE_UPLOAD_HOURS = 24;

/** The item an upload belongs to: a checklist item's id, or 'general'. */
export const ItemIdSchema = v.pipe(v.string(), v.regex(/^(general|ev-[0-9a-f]{10})$/, 'Unknown checklist item'));
/** Generated ids of uploads (and of the files they become): 32 hex characters, nothing else. */
export const UploadIdSchema = v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, 'Unknown file'));
export const ChunkNumberSchema = v.pipe(
  v.string(),
  v.regex(/^(0|[1-9]\d{0,2})$/, 'Not a chunk number'),
  v.transform(Number),
);

export const FILE_KINDS = ['pdf', 'jpeg', 'png', 'heic', 'docx', 'odt'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const EvidenceFileSchema = v.object({
  id: UploadIdSchema,
  /** Sanitised: no path, no control characters. */
  name: v.string(),
  size: v.pipe(v.number(), v.integer(), v.minValue(1)),
  kind: v.picklist(FILE_KINDS),
  item: ItemIdSchema,
  uploadedAt: Timestamp,
});
export type EvidenceFile = v.InferOutput<typeof EvidenceFileSchema>;

/** An upload started and not yet complete: its size counts against the 200 MB from the start. */
export const PendingUploadSchema = v.object({
  id: UploadIdSchema,
  size: v.pipe(v.number(), v.integer(), v.minValue(1)),
  startedAt: Timestamp,
});

export const ReviewSchema = v.object({
  status: v.picklist(['accepted', 'needs-more']),
  note: v.string(),
  by: StaffRefSchema,
  at: Timestamp,
});
export type Review = v.InferOutput<typeof ReviewSchema>;

export const ApplicantEventSchema = v.object({
  at: Timestamp,
  type: v.picklist(['upload', 'remove', 'review', 'stage', 'link-revoked', 'files-expired']),
  /** What it was about: a file name, an item id, a stage. */
  detail: v.string(),
});

export const LinkTokenSchema = v.object({
  /** SHA-256 of the token, hex. The token itself is never stored. */
  hash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  issuedAt: Timestamp,
  expiresAt: Timestamp,
});

export const ApplicantRecordSchema = v.object({
  inquiryId: InquiryIdSchema,
  createdAt: Timestamp,
  stage: v.picklist(STAGES),
  /** Each stage reached, with when. */
  stages: v.array(v.object({ stage: v.picklist(STAGES), at: Timestamp })),
  tokens: v.array(LinkTokenSchema),
  files: v.array(EvidenceFileSchema),
  pending: v.array(PendingUploadSchema),
  /** Staff reviews by checklist item id (a list of pairs: an item id never indexes an object). */
  reviews: v.array(v.tuple([ItemIdSchema, ReviewSchema])),
  events: v.array(ApplicantEventSchema),
  /** When the last link e-mail was asked for (renewals are spaced). */
  lastLinkMailAt: v.optional(Timestamp),
  /** Set when retention removed the files. */
  filesExpiredAt: v.optional(Timestamp),
});
export type ApplicantRecord = v.InferOutput<typeof ApplicantRecordSchema>;

/** An e-mail to an applicant, as the applicant_mail table keeps it until it is sent (src/server/applicant-mail.ts). */
export const ApplicantMailSchema = v.variant('kind', [
  v.object({ kind: v.literal('applicant-link') }),
  v.object({ kind: v.literal('applicant-needs-more'), item: v.string(), note: v.string() }),
  v.object({ kind: v.literal('applicant-stage'), stage: v.picklist(STAGES) }),
]);
export type ApplicantMail = v.InferOutput<typeof ApplicantMailSchema>;

/** Where each checklist item comes from: the qualifications (codes) whose list names it. */
export const ChecklistItemSchema = v.object({ id: v.string(), text: v.string(), codes: v.array(v.string()) });
export type ChecklistItem = v.InferOutput<typeof ChecklistItemSchema>;

/** What GET /api/applicant answers (the applicant's own view); the page parses the answer with it. */
export const ApplicantViewSchema = v.object({
  reference: v.string(),
  firstName: v.string(),
  qualifications: v.array(v.object({ code: v.string(), title: v.string(), chosen: v.boolean() })),
  stage: v.picklist(STAGES),
  stages: v.array(v.object({ stage: v.picklist(STAGES), at: v.string() })),
  checklist: v.array(
    v.object({
      ...ChecklistItemSchema.entries,
      review: v.optional(v.object({ status: ReviewSchema.entries.status, note: v.string(), at: v.string() })),
    }),
  ),
  files: v.array(EvidenceFileSchema),
  usedBytes: v.number(),
  limits: v.object({ fileBytes: v.number(), applicantBytes: v.number(), chunkBytes: v.number() }),
  events: v.array(ApplicantEventSchema),
});
export type ApplicantView = v.InferOutput<typeof ApplicantViewSchema>;

/** What the staff routes answer about an inquiry's applicant. */
export interface StaffApplicantView extends Omit<ApplicantView, 'firstName' | 'limits' | 'checklist'> {
  checklist: (ChecklistItem & { review?: Review })[];
  linkActive: boolean;
  filesExpiredAt?: string;
}

/* ---------- bodies ---------- */

const fileName = v.pipe(
  v.string(),
  v.minLength(1, 'The file needs a name'),
  v.maxLength(1000, 'The file name is too long'),
);

export const StartUploadSchema = v.strictObject({
  name: fileName,
  size: v.pipe(
    v.number('Give the file size in bytes'),
    v.integer('Give the file size in bytes'),
    v.minValue(1, 'The file is empty'),
  ),
  item: ItemIdSchema,
});

export const RenewLinkSchema = v.strictObject({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Enter your e-mail address'),
    v.maxLength(254),
    v.email('Enter a valid e-mail address'),
  ),
  reference: v.pipe(v.string(), v.trim(), v.nonEmpty('Enter your reference'), v.maxLength(40, 'Not a reference')),
});

export const ReviewInputSchema = v.strictObject({
  status: v.picklist(['accepted', 'needs-more'], 'Choose accepted or needs more'),
  note: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(REVIEW_NOTE_MAX, `At most ${REVIEW_NOTE_MAX} characters`)),
    '',
  ),
});

export const StageInputSchema = v.strictObject({ stage: v.picklist(STAGES, 'Unknown stage') });

/** Erasing is confirmed by typing the inquiry's reference. */
export const EraseInputSchema = v.strictObject({ confirm: v.pipe(v.string(), v.maxLength(40)) });
