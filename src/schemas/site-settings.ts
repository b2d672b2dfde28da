import * as v from 'valibot';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `Must be at most ${max} characters`));

/**
 * An address shown as a social link: an http(s) URL, or empty to hide it. The placeholders SPEC 2.3
 * treats as hidden ('#', 'javascript:void(0)') are accepted and stored as empty.
 */
const socialUrl = v.pipe(
  v.string(),
  v.trim(),
  v.transform((value) => (value === '#' || value.toLowerCase() === 'javascript:void(0)' ? '' : value)),
  v.maxLength(300, 'Links must be at most 300 characters'),
  v.check((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'Social links must start with http:// or https://'),
);

export const ContactInfoSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('E-mail is required'), v.email('Enter a valid e-mail address'), v.maxLength(254)),
  phone: v.pipe(text(40), v.nonEmpty('Phone is required'), v.regex(/^[+()\d\s-]+$/, 'Phone numbers may contain digits, spaces, +, ( ) and -')),
  phoneSecondary: v.pipe(text(40), v.regex(/^[+()\d\s-]*$/, 'Phone numbers may contain digits, spaces, +, ( ) and -')),
  address: v.pipe(text(200), v.nonEmpty('Address is required')),
  businessHours: v.pipe(text(120), v.nonEmpty('Business hours are required')),
}, 'Contact information must list email, phone, phoneSecondary, address and businessHours');

export const SocialMediaSchema = v.object({
  facebook: socialUrl,
  instagram: socialUrl,
  youtube: socialUrl,
}, 'Social media links must list facebook, instagram and youtube');

export const SiteSettingsSchema = v.object({
  contactInfo: ContactInfoSchema,
  socialMedia: SocialMediaSchema,
});

export type SiteSettings = v.InferOutput<typeof SiteSettingsSchema>;
export type SocialNetwork = keyof SiteSettings['socialMedia'];

export { isShownSocialLink } from '../lib/social.ts';
