import type * as v from 'valibot';
import {
  type BlogInputSchema,
  CONTENT_TYPES,
  DEFAULT_AUTHOR,
  DEFAULT_CATEGORY,
  type AdminBlog,
  type ContentType,
} from '../../schemas/blog';

/** The form's state: the post's input, with the publish time as the date-time field holds it (local time). */
export type BlogForm = Required<Omit<v.InferInput<typeof BlogInputSchema>, 'publishAt'>> & {
  publishAt: string;
  contentType: ContentType;
};

export const EMPTY_FORM: BlogForm = {
  title: '',
  excerpt: '',
  content: '',
  contentType: 'html',
  author: DEFAULT_AUTHOR,
  featuredImage: '',
  featuredImageAlt: '',
  category: DEFAULT_CATEGORY,
  tags: [],
  seoKeywords: [],
  metaTitle: '',
  metaDescription: '',
  slug: '',
  isPublished: false,
  publishAt: '',
};

/** An ISO time as a datetime-local field shows it, in this browser's time zone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formFromBlog(blog: AdminBlog): BlogForm {
  const fields = Object.fromEntries(Object.keys(EMPTY_FORM).map((key) => [key, blog[key as keyof AdminBlog]]));
  return {
    ...(fields as BlogForm),
    tags: [...blog.tags],
    seoKeywords: [...blog.seoKeywords],
    publishAt: toLocalInput(blog.publishAt),
  };
}

/** A form kept by the autosave, field by field: only values of the right type are taken back. */
export function formFromSaved(saved: Record<string, unknown>, base: BlogForm): BlogForm {
  const form: Record<string, unknown> = { ...base };
  for (const [key, fallback] of Object.entries(base)) {
    const value = saved[key];
    if (
      Array.isArray(fallback)
        ? Array.isArray(value) && value.every((item) => typeof item === 'string')
        : typeof value === typeof fallback
    )
      form[key] = value;
  }
  if (!CONTENT_TYPES.includes(form.contentType as ContentType)) form.contentType = base.contentType;
  return form as BlogForm;
}

export const sameForm = (a: BlogForm, b: BlogForm) => JSON.stringify(a) === JSON.stringify(b);

/** The form's fields by the names a person sees (an edit conflict lists them so). */
const LABELS = new Map([
  ['title', 'Title'],
  ['excerpt', 'Excerpt'],
  ['content', 'Content'],
  ['contentType', 'Content format'],
  ['author', 'Author'],
  ['featuredImage', 'Featured Image'],
  ['featuredImageAlt', 'Image alt text'],
  ['category', 'Category'],
  ['tags', 'Tags'],
  ['seoKeywords', 'SEO Keywords'],
  ['metaTitle', 'Meta Title'],
  ['metaDescription', 'Meta Description'],
  ['slug', 'Address'],
  ['isPublished', 'Publish immediately'],
  ['publishAt', 'Publish at'],
]);
export const blogFieldLabel = (path: string) => LABELS.get(path) ?? path;

/** What is sent: the address only when chosen, the publish time as an ISO time (or the text typed, to be refused). */
export function payload(form: BlogForm, slugChosen: boolean) {
  const at = form.publishAt.trim();
  const time = at ? new Date(at) : null;
  return {
    ...form,
    slug: slugChosen ? form.slug : '',
    publishAt: form.isPublished || !at ? null : time && !Number.isNaN(time.getTime()) ? time.toISOString() : at,
  };
}
