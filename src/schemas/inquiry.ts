import * as v from 'valibot';
import { CourseCodeSchema, SlugSchema } from './catalogue';

/**
 * Contact, home consultation and free-quote submissions (field rules: docs/limits.md). The islands validate with
 * these before sending and the functions validate again, so both sides give the same messages.
 */

/** Hidden field a person never sees or fills; automated form fillers do (abuse protection). */
export const HONEYPOT_FIELD = 'website';
/** Milliseconds between page load and submit; anything faster is not a person typing. */
export const ELAPSED_FIELD = 'elapsedMs';
export const MIN_FILL_MS = 3000;

export const LIMITS = { name: 60, email: 254, phone: 30, message: 5000, longText: 2000 } as const;

/** Single-line text from an <input>: a browser never sends CR or LF, so a value with one is refused. */
const noLineBreaks = (label: string) =>
  v.check((value: string) => !/[\r\n]/.test(value), `${label} cannot contain line breaks`);

/** A missing field is treated as empty, so it gets the same 'X is required' message as a blank one. */
const missingAs = <S extends v.GenericSchema>(schema: S, empty: v.InferInput<S>) => v.optional(schema, empty as never);

const requiredLine = (label: string, max: number) =>
  v.pipe(
    v.string(`${label} is required`),
    noLineBreaks(label),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.maxLength(max, `${label} must be at most ${max} characters`),
  );

const optionalText = (label: string, max: number) =>
  v.optional(
    v.pipe(v.string(`${label} must be text`), v.trim(), v.maxLength(max, `${label} must be at most ${max} characters`)),
    '',
  );

export const EmailSchema = v.pipe(
  v.string('E-mail is required'),
  noLineBreaks('E-mail address'),
  v.trim(),
  v.nonEmpty('E-mail is required'),
  v.maxLength(LIMITS.email, 'Enter a valid e-mail address'),
  v.email('Enter a valid e-mail address'),
);

const phoneDigits = (value: string) => value.replace(/\D/g, '').length;
export const PhoneSchema = v.pipe(
  requiredLine('Phone', LIMITS.phone),
  v.regex(/^\+?[\d\s().-]+$/, 'Enter a valid phone number (digits, spaces, +, ( ) and - only)'),
  v.check((value) => phoneDigits(value) >= 6 && phoneDigits(value) <= 15, 'Enter a valid phone number'),
);

const personFields = {
  firstName: missingAs(requiredLine('First name', LIMITS.name), ''),
  lastName: missingAs(requiredLine('Last name', LIMITS.name), ''),
  email: missingAs(EmailSchema, ''),
  phone: missingAs(PhoneSchema, ''),
};

/** Present on every form; checked by the functions before anything else (see src/server/form-request.ts). */
const abuseFields = {
  [HONEYPOT_FIELD]: v.optional(v.string(), ''),
  [ELAPSED_FIELD]: v.optional(v.number(), 0),
};

/**
 * Two separate, optional consents asked on every form (unticked by default): sharing the details with
 * the partner RTO that would assess the visitor, and receiving marketing. Missing means not given, and
 * the inquiry goes through either way. Only a real boolean is accepted, never "on" or "true".
 */
export const CONSENT_FIELDS = ['consentPartnerRto', 'consentMarketing'] as const;
export type ConsentField = (typeof CONSENT_FIELDS)[number];
const consentFields = {
  consentPartnerRto: v.optional(v.boolean('Sharing with the partner RTO must be true or false'), false),
  consentMarketing: v.optional(v.boolean('Marketing consent must be true or false'), false),
};

/** Where a contact message was written: the contact page or the home page's consultation form. */
export const CONTACT_SOURCES = ['contact', 'home'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

/** POST /api/email/contact: contact page and home consultation form (all five fields required). */
export const ContactSchema = v.object({
  ...personFields,
  message: missingAs(
    v.pipe(
      v.string('Message is required'),
      v.trim(),
      v.nonEmpty('Message is required'),
      v.maxLength(LIMITS.message, `Message must be at most ${LIMITS.message} characters`),
    ),
    '',
  ),
  source: v.optional(v.picklist(CONTACT_SOURCES, 'Unknown form'), 'contact'),
  ...consentFields,
  ...abuseFields,
});

export const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const;
export const CONTACT_TIMES = ['Morning (8AM-12PM)', 'Afternoon (12PM-5PM)', 'Evening (5PM-8PM)', 'Any time'] as const;

const unique = <T>(label: string) =>
  v.check((items: T[]) => new Set(items).size === items.length, `${label} must not repeat`);

/** The wizard's steps, 1 to 5. */
export type QuoteStep = 1 | 2 | 3 | 4 | 5;
/**
 * What the quote keeps about a field besides its rules. `step`: the wizard step that asks for it (its
 * errors are checked when leaving that step). `typed`: free text the visitor writes, kept as typed in
 * the saved progress and never repeated in the acknowledgement sent to an unverified address.
 */
export type QuoteFieldInfo = { step: QuoteStep; typed?: boolean };

/** A quote field with its wizard step (and kind), for fields staff do not see as such. */
const quoteField = <S extends v.GenericSchema>(schema: S, info: QuoteFieldInfo) => v.pipe(schema, v.metadata(info));
/**
 * A quote field staff see: its label is the schema's title, and the staff e-mail and the inbox list every
 * titled field of a stored quote under it.
 */
const shownField = <S extends v.GenericSchema>(schema: S, info: QuoteFieldInfo, label: string) =>
  v.pipe(schema, v.metadata(info), v.title(label));

/** Step 2's choice for a visitor whose industry is not among the categories (it ticks step 3's "Not sure"). */
export const INDUSTRY_NOT_LISTED = "My industry isn't listed";
const CATEGORY_NEEDED = `Choose at least one category, or tick “${INDUSTRY_NOT_LISTED}”`;
const EXPERIENCE_NEEDED =
  'Your industry is not listed, so tell us about your work (roles, years, main duties): we suggest qualifications from it';

/** What was ticked (nothing sent: nothing), each at most once; `one` and `many` name the items in the messages. */
const chosenList = (
  item: v.GenericSchema<string>,
  names: { one: string; many: string; label: string },
  max: number,
  { step, atLeastOne }: { step: QuoteStep; atLeastOne: boolean },
) => {
  const none = `Choose at least one ${names.one}`;
  const rules = v.pipe(
    v.array(item, none),
    v.minLength(atLeastOne ? 1 : 0, none),
    v.maxLength(max, `Choose at most ${max} ${names.many}`),
    unique<string>(names.label),
  );
  return shownField(missingAs(rules, []), { step }, names.label);
};

/**
 * POST /api/email/quote: the five-step free quote. The inquiry stores the parsed quote whole, so a field
 * added here (with its step, and a label if staff should see it) and to its step's form is checked on
 * both sides, kept in the saved progress, stored, e-mailed to staff and shown in the inbox.
 */
export const QuoteSchema = v.pipe(
  v.object({
    firstName: quoteField(personFields.firstName, { step: 1, typed: true }),
    lastName: quoteField(personFields.lastName, { step: 1, typed: true }),
    email: quoteField(personFields.email, { step: 1, typed: true }),
    phone: quoteField(personFields.phone, { step: 1, typed: true }),
    /** Sent for compatibility with the original payload; the form never lets anyone edit it. */
    mobileNumber: v.optional(
      v.pipe(
        v.string(),
        noLineBreaks('Mobile number'),
        v.trim(),
        v.maxLength(LIMITS.phone, 'Mobile number is too long'),
      ),
      '',
    ),
    // At least one, unless the visitor's industry is not listed (checked below, with "Not sure").
    selectedCategories: chosenList(SlugSchema, { one: 'category', many: 'categories', label: 'Categories' }, 20, {
      step: 2,
      atLeastOne: false,
    }),
    selectedCourses: chosenList(CourseCodeSchema, { one: 'course', many: 'courses', label: 'Courses' }, 50, {
      step: 3,
      atLeastOne: false,
    }),
    /** Step 3's "Not sure" choice: suggest qualifications from the experience instead of choosing one. */
    notSure: shownField(v.optional(v.boolean('"Not sure" must be true or false'), false), { step: 3 }, 'Not sure'),
    experience: shownField(optionalText('Experience', LIMITS.longText), { step: 3, typed: true }, 'Experience'),
    goals: shownField(optionalText('Goals', LIMITS.longText), { step: 3, typed: true }, 'Goals'),
    preferredContact: shownField(
      v.optional(
        v.union(
          [v.literal(''), v.picklist(CONTACT_TIMES)],
          `Preferred contact time must be one of: ${CONTACT_TIMES.join(', ')}`,
        ),
        '',
      ),
      { step: 4 },
      'Preferred contact time',
    ),
    state: shownField(missingAs(v.picklist(STATES, 'Choose your state'), '' as never), { step: 4 }, 'State'),
    additionalInfo: shownField(
      optionalText('Additional information', LIMITS.longText),
      { step: 4, typed: true },
      'Additional information',
    ),
    acceptedTerms: quoteField(missingAs(v.literal(true, 'Please agree to the terms and conditions'), false as never), {
      step: 5,
    }),
    consentPartnerRto: quoteField(consentFields.consentPartnerRto, { step: 5 }),
    consentMarketing: quoteField(consentFields.consentMarketing, { step: 5 }),
    ...abuseFields,
  }),
  // Step 2 is satisfied by a chosen category or by "My industry isn't listed", which ticks "Not sure".
  v.forward(
    v.partialCheck(
      [['selectedCategories'], ['notSure']],
      (quote) => quote.notSure || quote.selectedCategories.length > 0,
      CATEGORY_NEEDED,
    ),
    ['selectedCategories'],
  ),
  // Without a category, the experience is all there is to suggest qualifications from.
  v.forward(
    v.partialCheck(
      [['selectedCategories'], ['notSure'], ['experience']],
      (quote) => quote.selectedCategories.length > 0 || !quote.notSure || quote.experience !== '',
      EXPERIENCE_NEEDED,
    ),
    ['experience'],
  ),
  // Step 3 is satisfied by a chosen course or by "Not sure" (suggestions from the experience).
  v.forward(
    v.partialCheck(
      [['selectedCourses'], ['notSure']],
      (quote) => quote.notSure || quote.selectedCourses.length > 0,
      'Choose at least one course',
    ),
    ['selectedCourses'],
  ),
);
export type QuoteField = keyof typeof QuoteSchema.entries;

/** A field's step and kind (empty for the fields the form sends but never asks for). */
export const quoteFieldInfo = (field: QuoteField): Partial<QuoteFieldInfo> => v.getMetadata(QuoteSchema.entries[field]);

const QUOTE_FIELDS = Object.keys(QuoteSchema.entries) as QuoteField[];

/** The fields each quote step collects, for validating one step at a time in the wizard. */
const fieldsOfStep = (step: QuoteStep) => QUOTE_FIELDS.filter((field) => quoteFieldInfo(field).step === step);
export const QUOTE_STEP_FIELDS: Record<QuoteStep, readonly QuoteField[]> = {
  1: fieldsOfStep(1),
  2: fieldsOfStep(2),
  3: fieldsOfStep(3),
  4: fieldsOfStep(4),
  5: fieldsOfStep(5),
};

/** The fields staff see, in the form's order, with their labels. */
export const QUOTE_LABELLED_FIELDS: readonly { field: QuoteField; label: string; typed: boolean }[] =
  QUOTE_FIELDS.flatMap((field) => {
    const label = v.getTitle(QuoteSchema.entries[field]);
    return label ? [{ field, label, typed: quoteFieldInfo(field).typed === true }] : [];
  });
