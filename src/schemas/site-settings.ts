import * as v from 'valibot';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `Must be at most ${max} characters`));

/**
 * An address shown as a social link: an http(s) URL, or empty to hide it. The placeholders '#' and
 * 'javascript:void(0)' also mean a hidden link; they are accepted and stored as empty.
 */
const socialUrl = v.pipe(
  v.string(),
  v.trim(),
  v.transform((value) => (value === '#' || value.toLowerCase() === 'javascript:void(0)' ? '' : value)),
  v.maxLength(300, 'Links must be at most 300 characters'),
  v.check(
    (value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value),
    'Social links must start with http:// or https://',
  ),
);

export const ContactInfoSchema = v.object(
  {
    email: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty('E-mail is required'),
      v.email('Enter a valid e-mail address'),
      v.maxLength(254),
    ),
    phone: v.pipe(
      text(40),
      v.nonEmpty('Phone is required'),
      v.regex(/^[+()\d\s-]+$/, 'Phone numbers may contain digits, spaces, +, ( ) and -'),
    ),
    phoneSecondary: v.pipe(
      text(40),
      v.regex(/^[+()\d\s-]*$/, 'Phone numbers may contain digits, spaces, +, ( ) and -'),
    ),
    address: v.pipe(text(200), v.nonEmpty('Address is required')),
    businessHours: v.pipe(text(120), v.nonEmpty('Business hours are required')),
    /** Where visitors' answers to staff replies from the inbox go; empty: the staff inbox (MAIL_TO). */
    replyTo: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(254, 'The reply-to address must be at most 254 characters'),
        v.check(
          (value) => value === '' || v.is(v.pipe(v.string(), v.email()), value),
          'Enter a valid reply-to e-mail address',
        ),
      ),
      '',
    ),
  },
  'Contact information must list email, phone, phoneSecondary, address and businessHours',
);

export const SocialMediaSchema = v.object(
  {
    facebook: socialUrl,
    instagram: socialUrl,
    youtube: socialUrl,
  },
  'Social media links must list facebook, instagram and youtube',
);

/** Australian Business Number: 11 digits whose weighted sum (first digit less one) divides by 89. */
export function isValidAbn(value: string): boolean {
  const digits = value.replace(/\s+/g, '');
  if (!/^\d{11}$/.test(digits)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...digits].reduce(
    (total, digit, index) => total + (Number(digit) - (index === 0 ? 1 : 0)) * weights[index]!,
    0,
  );
  return sum % 89 === 0;
}

/** "51824753556" -> "51 824 753 556", the way the ABN Lookup shows it. */
export const formatAbn = (abn: string) => abn.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4');

/** The national register's page for an RTO (training.gov.au). */
export const registerUrlFor = (code: string) => `https://training.gov.au/Organisation/Details/${code}`;

export const BusinessSchema = v.object(
  {
    legalName: text(200),
    abn: v.pipe(
      v.string(),
      v.transform((value) => value.replace(/\s+/g, '')),
      v.check((value) => value === '' || /^\d{11}$/.test(value), 'An ABN has 11 digits'),
      v.check((value) => value === '' || isValidAbn(value), 'This ABN is not valid (check digits do not match)'),
    ),
  },
  'Business details must list legalName and abn',
);

const slugList = (label: string) =>
  v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(40),
        v.regex(/^[A-Za-z0-9-]+$/, `${label} may contain letters, digits and hyphens only`),
      ),
    ),
    v.maxLength(300, `At most 300 ${label.toLowerCase()}`),
  );

export const PartnerRtoSchema = v.pipe(
  v.object(
    {
      legalName: v.pipe(text(200), v.nonEmpty('The RTO legal name is required')),
      code: v.pipe(v.string(), v.trim(), v.regex(/^\d{4,6}$/, 'An RTO code has 4 to 6 digits, as on training.gov.au')),
      /**
       * Accepted for settings saved before the link was derived, and ignored: the link is always the
       * register page of the current code (a link kept from an earlier code pointed at another RTO).
       */
      registerUrl: v.optional(v.unknown()),
      /**
       * Category slugs this RTO delivers, picked from the catalogue (the save endpoint refuses unknown ones).
       * An RTO that lists no category and no course delivers nothing and is named on no course page.
       */
      categories: v.optional(slugList('Categories'), []),
      /** Course codes this RTO delivers (takes precedence over another RTO's category); from the catalogue. */
      courses: v.optional(slugList('Courses'), []),
    },
    'A partner RTO must list legalName, code, categories and courses',
  ),
  v.transform((rto) => ({ ...rto, registerUrl: registerUrlFor(rto.code) })),
);

const ClaimSchema = (value: v.GenericSchema<string, string>) =>
  v.object(
    {
      value,
      source: text(300),
      /** Shown under the figure so visitors can check it ("Based on 212 reviews on ..."); saved settings may lack it. */
      publicSource: v.optional(text(200), ''),
      enabled: v.boolean('Choose whether the claim is shown'),
    },
    'A claim must list value, source and enabled',
  );

const figure = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\d{1,7}(\.\d{1,2})?$/, 'Enter a number, for example 5000 or 4.9'),
);

/**
 * Marketing claims staff stand behind: the figure or text, where it comes from, and whether it is shown.
 * Figures the catalogue can count (qualifications offered, industries) are never claims: they come from the
 * catalogue. Settings saved when those were claims (`qualifications`, `sectors`) still load; the keys are dropped.
 */
export const ClaimsSchema = v.object(
  {
    successRate: ClaimSchema(figure),
    satisfaction: ClaimSchema(figure),
    completionTime: ClaimSchema(v.pipe(text(40), v.nonEmpty('Enter the timeframe, for example 4-8 weeks'))),
    process: ClaimSchema(v.pipe(text(120), v.nonEmpty('Enter the heading of the process section'))),
  },
  'Claims must list successRate, satisfaction, completionTime and process',
);

export type ClaimKey = keyof v.InferOutput<typeof ClaimsSchema>;
export const CLAIM_KEYS: ClaimKey[] = ['successRate', 'satisfaction', 'completionTime', 'process'];

/** Figures a visitor must be able to check: switched on without a public source, the launch panel lists them. */
export const PUBLIC_SOURCE_CLAIMS: ClaimKey[] = ['successRate', 'satisfaction', 'completionTime'];

/** A YYYY-MM-DD date that exists (not 30 February) in this century. */
function isRealRecentDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whole dollars or dollars and cents, at most 999,999.99. */
const dollars = (label: string) =>
  v.pipe(
    v.string(`${label} must be text`),
    v.trim(),
    v.transform((value) => value.replace(/[$,\s]/g, '')),
    v.regex(/^\d{1,6}(\.\d{2})?$/, `${label}: enter an amount in dollars, for example 1500 or 1499.50`),
  );

/**
 * An indicative fee staff set for one qualification (`scope: 'course'`, target its code) or for every
 * qualification of a category (`scope: 'category'`, target its slug): from, or from-to, in AUD including GST,
 * an optional payment-plan note, the partner RTO that charges it (its code) and the day it was set. Never
 * invented: a qualification without one says how the fee is decided instead.
 */
export const PriceSchema = v.pipe(
  v.object(
    {
      scope: v.picklist(['course', 'category'], 'Choose whether the fee is for one qualification or a category'),
      target: v.pipe(
        v.string(),
        v.trim(),
        v.nonEmpty('Choose the qualification or category the fee is for'),
        v.maxLength(40),
        v.regex(/^[A-Za-z0-9-]+$/, 'Choose the qualification or category the fee is for'),
      ),
      from: dollars('Fee from'),
      to: v.optional(v.union([v.literal(''), dollars('Fee up to')]), ''),
      plan: v.optional(text(200), ''),
      rtoCode: v.pipe(v.string(), v.trim(), v.regex(/^\d{4,6}$/, 'Choose the partner RTO that charges this fee')),
      setOn: v.pipe(
        v.string(),
        v.isoDate('Enter the date the fee was set (YYYY-MM-DD)'),
        v.check(isRealRecentDate, 'Enter a real date from 2000 on, for example 2026-11-26'),
      ),
    },
    'A fee must list scope, target, from, to, plan, rtoCode and setOn',
  ),
  v.forward(
    v.check(
      (price) => price.to === '' || Number(price.to) >= Number(price.from),
      'The upper fee is below the "from" fee',
    ),
    ['to'],
  ),
);
export type Price = v.InferOutput<typeof PriceSchema>;
export const MAX_PRICES = 200;

export const SiteSettingsSchema = v.object({
  contactInfo: ContactInfoSchema,
  socialMedia: SocialMediaSchema,
  business: BusinessSchema,
  partnerRtos: v.pipe(v.array(PartnerRtoSchema), v.maxLength(10, 'At most 10 partner RTOs')),
  claims: ClaimsSchema,
  prices: v.optional(v.pipe(v.array(PriceSchema), v.maxLength(MAX_PRICES, `At most ${MAX_PRICES} fees`)), []),
});

export type SiteSettings = v.InferOutput<typeof SiteSettingsSchema>;

/**
 * What the save endpoint accepts: the groups added after launch may be left out (an admin tab opened
 * before they existed); the endpoint keeps the saved ones for any group that is missing.
 */
export const SiteSettingsInputSchema = v.object({
  ...SiteSettingsSchema.entries,
  /** The version the settings were loaded at (0: never saved); a save over a newer one is refused (409). */
  version: v.pipe(
    v.number('The version of the settings you edited is missing'),
    v.integer('version must be a whole number'),
    v.minValue(0, 'version cannot be negative'),
  ),
  business: v.optional(BusinessSchema),
  partnerRtos: v.optional(SiteSettingsSchema.entries.partnerRtos),
  claims: v.optional(ClaimsSchema),
  prices: v.optional(v.pipe(v.array(PriceSchema), v.maxLength(MAX_PRICES, `At most ${MAX_PRICES} fees`))),
});
export type SocialNetwork = keyof SiteSettings['socialMedia'];
export type PartnerRto = SiteSettings['partnerRtos'][number];
