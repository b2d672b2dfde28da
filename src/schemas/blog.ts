import * as v from 'valibot';

/** Defaults of a blog post (docs/limits.md#form-fields). */
export const DEFAULT_AUTHOR = 'RPL Pathways Team';
export const DEFAULT_CATEGORY = 'General';
export const CONTENT_TYPES = ['html', 'markdown'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Public page size (docs/limits.md#lists-and-pages); the admin list is not paged. */
export const BLOG_PAGE_SIZE = 9;
export const MAX_CONTENT_CHARS = 200_000;
export const MAX_TAGS = 20;
export const MAX_KEYWORDS = 30;

/** One image, jpg/jpeg/png/gif/webp, at most 5 MB (docs/limits.md#images). */
export const MAX_UPLOAD_BYTES = 5_242_880;
export const UPLOAD_TYPES = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
} as const;
/** Where uploaded images are served from; only these may be a post's featured image. */
export const UPLOAD_URL_PATTERN = /^\/api\/uploads\/[a-f0-9]{32}\.(?:webp|jpg|png|gif)$/;

/** No NUL and no lone UTF-16 surrogate: neither can be stored, indexed or sent on safely. */
export function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}
/** Text with nothing a reader could see: only white space, control or format characters (zero-width space...). */
export function isBlankText(value: string): boolean {
  return /^[\s\p{Z}\p{Cc}\p{Cf}]*$/u.test(value);
}
const cleanText = (label: string) => v.check(isCleanText, `${label} contains characters that are not allowed`);

const text = (max: number, label: string) =>
  v.pipe(
    v.string(`${label} must be text`),
    cleanText(label),
    v.trim(),
    v.transform((value: string) => (isBlankText(value) ? '' : value)),
    v.maxLength(max, `${label} must be at most ${max} characters`),
  );
const required = (max: number, label: string) => v.pipe(text(max, label), v.nonEmpty(`${label} is required`));
const withDefault = (max: number, label: string, fallback: string) =>
  v.pipe(
    v.optional(text(max, label), fallback),
    v.transform((value) => value || fallback),
  );

/** Chips (tags, SEO keywords) are trimmed, never blank, never repeated (compared without case). */
export function cleanChips(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const value = raw.trim();
    if (isBlankText(value) || seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    out.push(value);
  }
  return out;
}
const chips = (label: string, maxItems: number, maxChars: number) =>
  v.pipe(
    v.optional(
      v.array(
        v.pipe(
          v.string(`${label} must be text`),
          cleanText(label),
          v.maxLength(maxChars, `Each of the ${label.toLowerCase()} must be at most ${maxChars} characters`),
        ),
        `${label} must be a list`,
      ),
      () => [] as string[],
    ),
    v.transform(cleanChips),
    v.maxLength(maxItems, `At most ${maxItems} ${label.toLowerCase()}`),
  );

/** The visible text of HTML (tags dropped): a post needs some, or at least an image. */
export function hasVisibleContent(content: string): boolean {
  if (/<img\b/i.test(content)) return true;
  return !isBlankText(content.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;/g, ' '));
}

/** Length limits of the blog form's fields: the schema enforces them and the form's inputs show them. */
export const BLOG_LIMITS = {
  title: 200,
  excerpt: 500,
  author: 100,
  featuredImageAlt: 200,
  category: 60,
  metaTitle: 120,
  metaDescription: 300,
  slug: 80,
} as const;

/** A post's address: lower case letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_RULE = 'The address may use only lower-case letters, digits and single hyphens between words';

/** The fields of a post a person writes; a revision keeps exactly these. */
const contentEntries = {
  title: required(BLOG_LIMITS.title, 'Title'),
  excerpt: required(BLOG_LIMITS.excerpt, 'Excerpt'),
  content: v.pipe(
    v.string('Content must be text'),
    cleanText('Content'),
    v.maxLength(MAX_CONTENT_CHARS, `Content must be at most ${MAX_CONTENT_CHARS.toLocaleString('en-AU')} characters`),
    v.check(hasVisibleContent, 'Content is required'),
  ),
  contentType: v.optional(v.picklist(CONTENT_TYPES, 'Content type must be html or markdown'), 'html'),
  author: withDefault(BLOG_LIMITS.author, 'Author', DEFAULT_AUTHOR),
  featuredImage: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check(
        (value) => value === '' || UPLOAD_URL_PATTERN.test(value),
        'The featured image must be an image uploaded here',
      ),
    ),
    '',
  ),
  featuredImageAlt: v.optional(text(BLOG_LIMITS.featuredImageAlt, 'Image alt text'), ''),
  category: withDefault(BLOG_LIMITS.category, 'Category', DEFAULT_CATEGORY),
  tags: chips('Tags', MAX_TAGS, 40),
  seoKeywords: chips('SEO keywords', MAX_KEYWORDS, 60),
  metaTitle: v.optional(text(BLOG_LIMITS.metaTitle, 'Meta title'), ''),
  metaDescription: v.optional(text(BLOG_LIMITS.metaDescription, 'Meta description'), ''),
};
export const BlogContentSchema = v.object(contentEntries);
export type BlogContent = v.InferOutput<typeof BlogContentSchema>;
export const CONTENT_FIELDS = [
  'title',
  'excerpt',
  'content',
  'contentType',
  'author',
  'featuredImage',
  'featuredImageAlt',
  'category',
  'tags',
  'seoKeywords',
  'metaTitle',
  'metaDescription',
] as const satisfies readonly (keyof BlogContent)[];

/** A post's automatic address, from its title: "RPL & Licences: What's Different?" -> "rpl-and-licences-whats-different". Never empty. */
export function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!base) return 'post';
  if (base.length <= BLOG_LIMITS.slug) return base;
  const cut = base.slice(0, BLOG_LIMITS.slug + 1);
  const atWord = cut.lastIndexOf('-');
  return (atWord > 20 ? cut.slice(0, atWord) : base.slice(0, BLOG_LIMITS.slug)).replace(/-+$/, '');
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** Years a time on this site can be in (the parser would take year 0 and roll 30 February over to March). */
const TIME_YEARS = { min: 2000, max: 9999 } as const;

/** Whether an ISO time names a moment that exists: a real calendar day, 00:00 to 23:59:59, a real zone offset. */
function isRealIsoTime(value: string): boolean {
  const match = ISO_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (year === undefined || month === undefined || day === undefined) return false;
  if (year < TIME_YEARS.min || year > TIME_YEARS.max) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour !== undefined &&
    hour <= 23 &&
    minute !== undefined &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59
  );
}

/** An ISO time with its zone (what `Date#toISOString` writes), or empty for none. */
const isoTime = (name: string) =>
  v.pipe(
    v.string(`${name} must be a date and time`),
    v.trim(),
    v.check((value) => value === '' || ISO_TIME.test(value), `${name} must be a date and time`),
    v.check(
      // Judged only once the shape is right, so a wrong shape gets one message.
      (value) => value === '' || !ISO_TIME.test(value) || isRealIsoTime(value),
      `${name} is not a real date and time: use a day that exists (not 30 February) in the years ${TIME_YEARS.min} to ${TIME_YEARS.max}`,
    ),
    v.transform((value) => (value === '' ? null : new Date(value).toISOString())),
  );

/** POST /api/blogs: the admin form. Unknown fields are ignored. */
export const BlogInputSchema = v.object({
  ...contentEntries,
  /** Empty: made from the title (while the post is a draft) or kept as it is (once published). */
  slug: v.optional(
    v.pipe(
      v.string('The address must be text'),
      v.trim(),
      v.toLowerCase(),
      v.maxLength(BLOG_LIMITS.slug, `The address must be at most ${BLOG_LIMITS.slug} characters`),
      v.check((value) => value === '' || SLUG_PATTERN.test(value), SLUG_RULE),
    ),
    '',
  ),
  isPublished: v.optional(v.boolean('Publish immediately must be true or false'), false),
  /** When a draft is published by the scheduled run; null for none. */
  publishAt: v.optional(v.nullable(isoTime('The publish time')), null),
});
export type BlogInput = v.InferOutput<typeof BlogInputSchema>;

/**
 * PUT /api/blogs/{id}: the whole post again, with the version it was loaded at. Saving over a newer
 * version is refused (409) instead of silently replacing someone else's edit.
 */
export const BlogUpdateSchema = v.object({
  ...BlogInputSchema.entries,
  version: v.pipe(v.number('The version of the post you edited is missing'), v.integer(), v.minValue(1)),
});
export type BlogUpdate = v.InferOutput<typeof BlogUpdateSchema>;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const wholeNumber = (name: string, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, `${name} must be a whole number from 1 to ${max}`),
    v.transform(Number),
    v.minValue(1, `${name} must be a whole number from 1 to ${max}`),
    v.maxValue(max, `${name} must be a whole number from 1 to ${max}`),
  );

/** GET /api/blogs?page&limit&search and the /blog page. */
export const BlogListQuerySchema = v.object({
  page: v.optional(wholeNumber('page', 100_000), '1'),
  limit: v.optional(wholeNumber('limit', 50), String(BLOG_PAGE_SIZE)),
  search: v.optional(
    v.pipe(
      v.unknown(),
      v.transform(blankToUndefined),
      v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Search text must be at most 100 characters'))),
    ),
  ),
});

/** A slug as it appears in /blog/{slug}. */
export const BlogSlugSchema = v.pipe(
  v.string(),
  v.maxLength(100),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Not a blog address'),
);

/** Answer of POST /api/upload/image (docs/routes.md, Blog). */
export const UploadResponseSchema = v.object({ success: v.boolean(), imageUrl: v.string(), message: v.string() });
export type UploadResponse = v.InferOutput<typeof UploadResponseSchema>;

/** Everything stored for a post (a row of `blog_posts`, src/server/blog-records.ts). */
export const StoredBlogSchema = v.object({
  _id: v.pipe(v.string(), v.regex(/^[a-f0-9]{32}$/)),
  slug: v.pipe(v.string(), v.regex(SLUG_PATTERN)),
  /** Addresses the post had once it was published; each answers with a redirect to `slug`. */
  previousSlugs: v.optional(v.array(v.string()), () => [] as string[]),
  ...v.object(contentEntries).entries,
  title: v.string(),
  excerpt: v.string(),
  /** As written: sanitised HTML for html posts, the Markdown source for markdown posts. */
  content: v.string(),
  /** The sanitised HTML of the content, rendered when the post was saved. */
  html: v.string(),
  tags: v.array(v.string()),
  seoKeywords: v.array(v.string()),
  isPublished: v.boolean(),
  /** When the post was first published (kept when it is unpublished); null for a post never published. */
  publishedAt: v.nullable(v.string()),
  publishAt: v.optional(v.nullable(v.string()), null),
  createdAt: v.string(),
  updatedAt: v.string(),
  /** Views counted by the view beacon (a save never changes them). */
  views: v.optional(v.number(), 0),
  readTime: v.optional(v.number(), 5),
  /** Starts at 1 and grows by one with every save; an update must name the version it was based on. */
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  createdBy: v.optional(v.string(), ''),
  updatedBy: v.optional(v.string(), ''),
});
export type StoredBlog = v.InferOutput<typeof StoredBlogSchema>;

/** The admin shape of a post, as GET /api/blogs/admin/all answers it. */
export const AdminBlogSchema = v.omit(StoredBlogSchema, ['html', 'createdBy']);
export type AdminBlog = v.InferOutput<typeof AdminBlogSchema>;

/** The public shape of a post (content is sanitised HTML). */
export const PublicBlogSchema = v.object({
  ...v.pick(StoredBlogSchema, [
    '_id',
    'slug',
    'title',
    'excerpt',
    'featuredImage',
    'featuredImageAlt',
    'author',
    'category',
    'publishedAt',
    'createdAt',
    'updatedAt',
    'readTime',
    'views',
    'tags',
    'metaTitle',
    'metaDescription',
    'seoKeywords',
  ]).entries,
  content: v.string(),
});
export type PublicBlog = v.InferOutput<typeof PublicBlogSchema>;
export const PublicBlogSummarySchema = v.omit(PublicBlogSchema, ['content']);
export type PublicBlogSummary = v.InferOutput<typeof PublicBlogSummarySchema>;

export interface BlogListAnswer<T = PublicBlogSummary> {
  blogs: T[];
  totalPages: number;
  currentPage: number;
  total: number;
}

/** One saved version of a post's written fields; the last MAX_REVISIONS are kept per post. */
export const MAX_REVISIONS = 20;
export const BlogRevisionSchema = v.object({
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  savedAt: v.string(),
  savedBy: v.string(),
  ...v.pick(StoredBlogSchema, CONTENT_FIELDS).entries,
});
export type BlogRevision = v.InferOutput<typeof BlogRevisionSchema>;
export const BlogRevisionsSchema = v.object({ revisions: v.array(BlogRevisionSchema) });

/** POST /api/blogs/admin/{id}/revisions: bring back a revision's text, as a new save of the post. */
export const BlogRestoreSchema = v.object({
  revision: v.pipe(
    v.number('Name the revision to restore'),
    v.integer('Name the revision to restore'),
    v.minValue(1, 'Name the revision to restore'),
  ),
  version: v.pipe(v.number('The version of the post you edited is missing'), v.integer(), v.minValue(1)),
});
