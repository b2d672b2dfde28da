/** Inquiry fixtures: what the contact and quote forms send, and inquiries as the store keeps them. */
import { db, sql } from '../../../src/platform/database.ts';
import { createInquiry, type InquiryRecord } from '../../../src/server/inquiries';

type Fields = Record<string, unknown>;

/** A valid contact form submission, without the fields that tell a person from a bot. */
export const contactForm = <T extends Fields>(overrides: T = {} as T) => ({
  firstName: 'Jane',
  lastName: 'Citizen',
  email: 'jane@example.com',
  phone: '0412 345 678',
  message: 'Ten years on the tools.',
  ...overrides,
});

/** A valid quote form submission, without the fields that tell a person from a bot. */
export const quoteForm = <T extends Fields>(overrides: T = {} as T) => ({
  firstName: 'Sam',
  lastName: 'Nguyen',
  email: 'sam@example.com',
  phone: '0412 345 678',
  mobileNumber: '',
  preferredContact: 'Any time',
  state: 'VIC',
  selectedCategories: ['civil-construction'],
  selectedCourses: ['RII30820'],
  experience: '',
  goals: '',
  additionalInfo: '',
  acceptedTerms: true,
  ...overrides,
});

/** The quote part of a stored inquiry: the answers, with the chosen category and course by name. */
export const storedQuote = <T extends Fields>(overrides: T = {} as T) => ({
  mobileNumber: '',
  preferredContact: 'Any time' as const,
  state: 'VIC' as const,
  selectedCategories: ['civil-construction'],
  selectedCourses: ['RII30820'],
  categories: [{ slug: 'civil-construction', name: 'Civil Construction' }],
  courses: [
    {
      code: 'RII30820',
      title: 'Certificate III in Civil Construction Plant Operations',
      level: 'Certificate III',
      category: 'civil-construction',
    },
  ],
  notSure: false,
  experience: '',
  goals: '',
  additionalInfo: '',
  ...overrides,
});

/** A contact inquiry as stored, both e-mails sent. */
export const storedContact = (overrides: Partial<InquiryRecord> = {}): InquiryRecord =>
  ({
    id: '20250722T101530123Z-0a1b2c3d',
    kind: 'contact',
    source: 'contact',
    createdAt: '2025-07-22T10:15:30.123Z',
    status: 'new',
    handledAt: null,
    contact: { firstName: 'Jane', lastName: 'Citizen', email: 'jane@example.com', phone: '0412 345 678' },
    message: 'Hi',
    mail: {
      staff: { state: 'sent', attempts: 1, idempotencyKey: 'k1' },
      ack: { state: 'sent', attempts: 1, idempotencyKey: 'k2' },
    },
    ...overrides,
  }) as InquiryRecord;

/** Stores a short contact message (in the blob store the test has started), as the contact form would. */
export const storeContactInquiry = (
  contact: Partial<{ firstName: string; lastName: string; email: string; phone: string }> = {},
  { source = 'contact', at }: { source?: 'contact' | 'home'; at?: Date } = {},
) =>
  createInquiry(
    {
      kind: 'contact',
      source,
      contact: { firstName: 'Pat', lastName: 'Lee', email: 'pat@example.com', phone: '0400 000 000', ...contact },
      message: 'Hi',
    },
    at,
  );

/** Removes every inquiry (their notes, replies, deliveries and applicants go with them); the counts follow. */
export async function clearInquiries(): Promise<void> {
  await db().query(sql`DELETE FROM inquiries`);
}
