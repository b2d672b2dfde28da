import * as v from 'valibot';
import { ContactSchema, QuoteSchema } from './inquiry';
import { REPLY_BODY_MAX, REPLY_SUBJECT_MAX } from './replies';

/**
 * Inquiries as they are kept in the `inquiries` store (src/server/inquiries.ts). The visitor's fields come
 * from the form schemas themselves, so a field added to a form is stored (and read back) without touching
 * this file; what the store adds around them (ids, status, mail delivery, notes, assignment) is defined here.
 * The store parses every record it reads with these schemas instead of trusting the JSON.
 */

/** Copies a schema's entries without the named ones, keeping the type of every entry that stays. */
function entriesWithout<E extends v.ObjectEntries, K extends keyof E>(entries: E, keys: readonly K[]): Omit<E, K> {
  const copy: Partial<E> = { ...entries };
  for (const key of keys) delete copy[key];
  return copy as Omit<E, K>;
}

const INQUIRY_ID = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;
export const InquiryIdSchema = v.pipe(v.string(), v.regex(INQUIRY_ID, 'Not an inquiry id'));
const Timestamp = v.pipe(v.string(), v.isoTimestamp('Not a timestamp'));

/**
 * What a person reads out over the phone: RPL- and six to eight characters from an alphabet without
 * look-alikes (no 0/O, 1/I/L). Given to every inquiry stored since references were introduced; older
 * inquiries go by their id (see referenceOf in src/server/inquiries.ts).
 */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERENCE_PATTERN = /^RPL-[2-9A-HJKMNP-Z]{6,8}$/;
/** The reference shown to people: the record's own, or its id for inquiries stored before references existed. */
export const referenceOf = (record: { id: string; reference?: string }) => record.reference ?? record.id;
export const ReferenceSchema = v.pipe(v.string(), v.regex(REFERENCE_PATTERN, 'Not an inquiry reference'));

/** The person who wrote in: the same four fields on every form. */
export const InquiryContactSchema = v.object({
  firstName: ContactSchema.entries.firstName,
  lastName: ContactSchema.entries.lastName,
  email: ContactSchema.entries.email,
  phone: ContactSchema.entries.phone,
});

/**
 * A quote request's own answers: every field of the quote form except the person (kept in `contact`), the
 * consents (kept in `consents`), the terms tick and the abuse checks, plus what the request was matched to
 * when it came in.
 */
export const StoredQuoteSchema = v.object({
  ...entriesWithout(QuoteSchema.entries, [
    'firstName',
    'lastName',
    'email',
    'phone',
    'acceptedTerms',
    'consentPartnerRto',
    'consentMarketing',
    'website',
    'elapsedMs',
  ]),
  /** The chosen categories and courses as the catalogue named them on the day. */
  categories: v.array(v.object({ slug: v.string(), name: v.string() })),
  courses: v.array(v.object({ code: v.string(), title: v.string(), level: v.string(), category: v.string() })),
  /** Codes of the indicative result shown to the visitor, best first. */
  matches: v.optional(v.array(v.string())),
  /** The fee sentence shown with each of them, as it stood when the quote came in (src/lib/prices.ts). */
  fees: v.optional(v.array(v.object({ code: v.string(), text: v.string() }))),
});

/** A call-back the visitor asked for: a day (Sydney date) and a time window taken from the business hours. */
export const CallbackRequestSchema = v.strictObject({
  day: v.pipe(v.string('Choose a day'), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a day')),
  window: v.pipe(v.string('Choose a time'), v.minLength(1, 'Choose a time'), v.maxLength(40, 'Choose a time')),
});
export const StoredCallbackSchema = v.object({
  ...CallbackRequestSchema.entries,
  requestedAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type StoredCallback = v.InferOutput<typeof StoredCallbackSchema>;

export const MAIL_KINDS = ['staff', 'ack'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const MailDeliverySchema = v.object({
  /**
   * sending: a sender holds it until nextAttemptAt (a new inquiry's request holds it first);
   * pending: waiting for a retry at nextAttemptAt; sent; failed: gave up after the last attempt.
   */
  state: v.picklist(['pending', 'sending', 'sent', 'failed']),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** Derived from inquiry id + message kind; the same on every attempt, so a retry never sends twice. */
  idempotencyKey: v.string(),
  nextAttemptAt: v.optional(v.string()),
  lastAttemptAt: v.optional(v.string()),
  lastError: v.optional(v.string()),
  sentAt: v.optional(v.string()),
  providerId: v.optional(v.string()),
  via: v.optional(v.picklist(['resend', 'outbox'])),
});

/** The two optional consents every form asks for; both false unless the visitor ticked them. */
export const InquiryConsentsSchema = v.object({
  /** May share the details with the partner RTO that would assess the visitor. */
  partnerRto: v.boolean(),
  /** May send marketing e-mails. */
  marketing: v.boolean(),
});

/** A staff member as named on a note or an assignment: the account and the name it had at the time. */
export const StaffRefSchema = v.object({ username: v.string(), name: v.string() });

/** An address withdrew its marketing consent: when, and from the e-mail link or recorded by staff (who). */
export const MarketingWithdrawalSchema = v.object({
  at: Timestamp,
  via: v.picklist(['email-link', 'staff']),
  by: v.optional(StaffRefSchema),
});
export type MarketingWithdrawal = v.InferOutput<typeof MarketingWithdrawalSchema>;

export const NOTE_MAX_LENGTH = 2000;
export const MAX_NOTES = 200;

export const InquiryNoteSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/)),
  text: v.pipe(v.string(), v.maxLength(NOTE_MAX_LENGTH)),
  author: StaffRefSchema,
  at: Timestamp,
});

/** Who looks after an inquiry; `to` is null once someone took the assignment away. */
export const AssignmentSchema = v.object({
  to: v.nullable(StaffRefSchema),
  by: StaffRefSchema,
  at: Timestamp,
});

/** A reply staff sent from the inbox: the text as sent (placeholders filled), who and when, and its delivery. */
export const InquiryReplySchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/)),
  subject: v.pipe(v.string(), v.maxLength(REPLY_SUBJECT_MAX + 200)),
  body: v.pipe(v.string(), v.maxLength(REPLY_BODY_MAX + 2000)),
  by: StaffRefSchema,
  at: Timestamp,
  mail: MailDeliverySchema,
});
export type InquiryReply = v.InferOutput<typeof InquiryReplySchema>;

/** When staff mean to come back to the inquiry (a Sydney day), or null once cleared; rev orders the changes. */
export const FollowUpSchema = v.object({
  date: v.nullable(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/))),
  by: StaffRefSchema,
  at: Timestamp,
  rev: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

const storedMeta = {
  id: InquiryIdSchema,
  /** The reference people use (RPL-7KQ3M9); absent on inquiries stored before references existed. */
  reference: v.optional(ReferenceSchema),
  /** The latest call-back the visitor asked for, if any. */
  callback: v.optional(StoredCallbackSchema),
  createdAt: Timestamp,
  status: v.picklist(['new', 'handled']),
  handledAt: v.nullable(v.string()),
  /** How many times the status changed (absent: never). Orders status changes in the inbox index. */
  statusRev: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  contact: InquiryContactSchema,
  /** Missing only on inquiries stored before the forms asked for consent. */
  consents: v.optional(InquiryConsentsSchema),
  /**
   * The wording the visitor was shown: a hash of the collection notice and consent texts
   * (src/server/consent-version.ts). Missing on inquiries stored before it was kept.
   */
  consentVersion: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/))),
  /**
   * Not stored with the inquiry: added for staff when the address is on the marketing suppression list
   * (src/server/marketing-consent.ts), which wins over `consents.marketing`.
   */
  marketingWithdrawn: v.optional(MarketingWithdrawalSchema),
  mail: v.object({ staff: MailDeliverySchema, ack: MailDeliverySchema }),
  /** Staff notes, oldest first (absent on inquiries nobody wrote about yet). */
  notes: v.optional(v.array(InquiryNoteSchema)),
  /** The latest assignment (absent: never assigned). */
  assignment: v.optional(AssignmentSchema),
  /** Replies staff sent from the inbox, oldest first (absent: none yet). */
  replies: v.optional(v.array(InquiryReplySchema)),
  /** The follow-up date staff set (absent: never set). */
  followUp: v.optional(FollowUpSchema),
  /** When staff erased the person's data on request (the personal fields are placeholders since). */
  erasedAt: v.optional(Timestamp),
};

/** A contact page message or a home page consultation request. */
export const ContactInquirySchema = v.object({
  ...storedMeta,
  kind: v.literal('contact'),
  source: ContactSchema.entries.source,
  message: ContactSchema.entries.message,
  quote: v.optional(v.undefined()),
});

/** A free-quote request. */
export const QuoteInquirySchema = v.object({
  ...storedMeta,
  kind: v.literal('quote'),
  source: v.literal('quote'),
  quote: StoredQuoteSchema,
  message: v.optional(v.undefined()),
});

export const InquiryRecordSchema = v.variant('kind', [ContactInquirySchema, QuoteInquirySchema]);

export type InquiryRecord = v.InferOutput<typeof InquiryRecordSchema>;
export type InquiryStatus = InquiryRecord['status'];
export type InquiryContact = v.InferOutput<typeof InquiryContactSchema>;
export type MailDelivery = v.InferOutput<typeof MailDeliverySchema>;
export type InquiryConsents = v.InferOutput<typeof InquiryConsentsSchema>;
export type StaffRef = v.InferOutput<typeof StaffRefSchema>;

/** What a form hands the store: the visitor's answers (defaults may be left out), before the store adds its own fields. */
export type NewInquiry =
  | {
      kind: 'contact';
      source: v.InferOutput<typeof ContactInquirySchema>['source'];
      contact: InquiryContact;
      message: string;
      consents?: InquiryConsents;
    }
  | {
      kind: 'quote';
      source: 'quote';
      contact: InquiryContact;
      quote: v.InferInput<typeof StoredQuoteSchema>;
      consents?: InquiryConsents;
    };
