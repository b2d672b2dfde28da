import * as v from 'valibot';

/** SPEC 3 defaults of a blog post. */
export const DEFAULT_AUTHOR = 'RPL Pathways Team';
export const DEFAULT_CATEGORY = 'General';
export const CONTENT_TYPES = ['html', 'markdown'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** SPEC 9: public page size; the admin list is not paged. */
export const BLOG_PAGE_SIZE = 9;
export const MAX_CONTENT_CHARS = 200_000;
export const MAX_TAGS = 20;
export const MAX_KEYWORDS = 30;

/** SPEC 5: one image, jpg/jpeg/png/gif/webp, at most 5 MB. */
export const MAX_UPLOAD_BYTES = 5_242_880;
export const UPLOAD_TYPES = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/gif': ['.gif'], 'image/webp': ['.webp'] } as const;
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
  v.pipe(v.optional(text(max, label), fallback), v.transform((value) => value || fallback));

/** SPEC 5: chips are trimmed, never blank, never repeated (compared without case). */
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
    v.optional(v.array(v.pipe(v.string(`${label} must be text`), cleanText(label), v.maxLength(maxChars, `Each of the ${label.toLowerCase()} must be at most ${maxChars} characters`)), `${label} must be a list`), () => [] as string[]),
    v.transform(cleanChips),
    v.maxLength(maxItems, `At most ${maxItems} ${label.toLowerCase()}`),
  );

/** The visible text of HTML (tags dropped): a post needs some, or at least an image. */
export function hasVisibleContent(content: string): boolean {
  if (/<img\b/i.test(content)) return true;
  return !isBlankText(content.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;/g, ' '));
}

/** POST /api/blogs: the admin form (SPEC 2.15, 3). Unknown fields are ignored. */
export const BlogInputSchema = v.object({
  title: required(200, 'Title'),
  excerpt: required(500, 'Excerpt'),
  content: v.pipe(
    v.string('Content must be text'),
    cleanText('Content'),
    v.maxLength(MAX_CONTENT_CHARS, `Content must be at most ${MAX_CONTENT_CHARS.toLocaleString('en-AU')} characters`),
    v.check(hasVisibleContent, 'Content is required'),
  ),
  contentType: v.optional(v.picklist(CONTENT_TYPES, 'Content type must be html or markdown'), 'html'),
  author: withDefault(100, 'Author', DEFAULT_AUTHOR),
  featuredImage: v.optional(
    v.pipe(v.string(), v.trim(), v.check((value) => value === '' || UPLOAD_URL_PATTERN.test(value), 'The featured image must be an image uploaded here')),
    '',
  ),
  featuredImageAlt: v.optional(text(200, 'Image alt text'), ''),
  category: withDefault(60, 'Category', DEFAULT_CATEGORY),
  tags: chips('Tags', MAX_TAGS, 40),
  seoKeywords: chips('SEO keywords', MAX_KEYWORDS, 60),
  metaTitle: v.optional(text(120, 'Meta title'), ''),
  metaDescription: v.optional(text(300, 'Meta description'), ''),
  isPublished: v.optional(v.boolean('Publish immediately must be true or false'), false),
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
  search: v.optional(v.pipe(v.unknown(), v.transform(blankToUndefined), v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Search text must be at most 100 characters'))))),
});
export type BlogListQuery = v.InferOutput<typeof BlogListQuerySchema>;

/** A slug as it appears in /blog/{slug}. */
export const BlogSlugSchema = v.pipe(v.string(), v.maxLength(100), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Not a blog address'));

/** SPEC 3: upload response. */
export const UploadResponseSchema = v.object({ success: v.boolean(), imageUrl: v.string(), message: v.string() });
export type UploadResponse = v.InferOutput<typeof UploadResponseSchema>;

/** SPEC 3: the admin shape of a post, as GET /api/blogs/admin/all answers it. */
export interface AdminBlog extends BlogInput {
  _id: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  views: number;
  readTime: number;
  version: number;
  updatedBy: string;
}

/** SPEC 3: the public shape of a post (content is sanitised HTML). */
export interface PublicBlog {
  _id: string;
  slug: string;
  title: string;
  excerpt: string;
  featuredImage: string;
  featuredImageAlt: string;
  author: string;
  category: string;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  readTime: number;
  views: number;
  tags: string[];
  content: string;
  metaTitle: string;
  metaDescription: string;
  seoKeywords: string[];
}
export type PublicBlogSummary = Omit<PublicBlog, 'content'>;

export interface BlogListAnswer<T = PublicBlogSummary> {
  blogs: T[];
  totalPages: number;
  currentPage: number;
  total: number;
}
