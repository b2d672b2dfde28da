import * as v from 'valibot';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `Must be at most ${max} characters`));

/** An address shown as a social link: empty (hidden) or an http(s) URL. */
const socialUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(300, 'Links must be at most 300 characters'),
  v.check((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'Social links must start with http:// or https://'),
);

export const ContactInfoSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('E-mail is required'), v.email('Enter a valid e-mail address'), v.maxLength(254)),
  phone: v.pipe(text(40), v.nonEmpty('Phone is required'), v.regex(/^[+()\d\s-]+$/, 'Phone numbers may contain digits, spaces, +, ( ) and -')),
  phoneSecondary: v.pipe(text(40), v.regex(/^[+()\d\s-]*$/, 'Phone numbers may contain digits, spaces, +, ( ) and -')),
  address: v.pipe(text(200), v.nonEmpty('Address is required')),
  businessHours: v.pipe(text(120), v.nonEmpty('Business hours are required')),
});

export const SocialMediaSchema = v.object({
  facebook: socialUrl,
  instagram: socialUrl,
  youtube: socialUrl,
});

export const SiteSettingsSchema = v.object({
  contactInfo: ContactInfoSchema,
  socialMedia: SocialMediaSchema,
});

export type SiteSettings = v.InferOutput<typeof SiteSettingsSchema>;
export type SocialNetwork = keyof SiteSettings['socialMedia'];

/** SPEC 2.3: a social link whose address is empty, '#' or 'javascript:void(0)' is hidden. */
export function isShownSocialLink(href: string | undefined | null): href is string {
  const value = (href ?? '').trim();
  return value !== '' && value !== '#' && value.toLowerCase() !== 'javascript:void(0)';
}
