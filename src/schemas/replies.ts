import * as v from 'valibot';

/**
 * Staff replies to an inquiry, the reply templates staff keep, and follow-up dates. Placeholders such as
 * {firstName} are filled on the server from the inquiry when the reply is sent; the admin shows a preview.
 */

export const REPLY_SUBJECT_MAX = 150;
export const REPLY_BODY_MAX = 5000;
export const TEMPLATE_NAME_MAX = 60;
export const MAX_TEMPLATES = 30;
export const MAX_REPLIES = 100;

/** What a placeholder stands for, by its name in braces. */
export const PLACEHOLDERS = ['firstName', 'reference'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
const PLACEHOLDER_PATTERN = /\{([^{}\n]{0,40})\}/g;
const isPlaceholder = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);
const PLACEHOLDER_LIST = PLACEHOLDERS.map((name) => `{${name}}`).join(' and ');

/** Placeholders in the text that are not known, as written ("{firstname}"), each once. */
export function unknownPlaceholders(text: string): string[] {
  const found = [...text.matchAll(PLACEHOLDER_PATTERN)].filter((match) => !isPlaceholder(match[1]!));
  return [...new Set(found.map((match) => match[0]))];
}

/** The text with each known placeholder replaced, in one pass (a filled-in value is never read again). */
export function fillPlaceholders(text: string, values: Readonly<Record<Placeholder, string>>): string {
  return text.replace(PLACEHOLDER_PATTERN, (whole, name: string) => (isPlaceholder(name) ? values[name] : whole));
}

/** The message for text with unknown placeholders. */
export const unknownPlaceholderMessage = (unknown: string[]) =>
  `Unknown placeholder ${unknown.join(', ')}: use ${PLACEHOLDER_LIST} only`;

const knownPlaceholders = v.check<string, v.ErrorMessage<v.CheckIssue<string>>>(
  (text) => unknownPlaceholders(text).length === 0,
  (issue) => unknownPlaceholderMessage(unknownPlaceholders(String(issue.input))),
);

const noControl = (label: string) =>
  v.check<string, string>(
    (text) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text),
    `${label} cannot contain control characters`,
  );

export const ReplySubjectSchema = v.pipe(
  v.string('Write a subject'),
  noControl('The subject'),
  v.check((text) => !/[\r\n]/.test(text), 'The subject must be one line'),
  v.trim(),
  v.nonEmpty('Write a subject'),
  v.maxLength(REPLY_SUBJECT_MAX, `The subject is at most ${REPLY_SUBJECT_MAX} characters`),
  knownPlaceholders,
);

export const ReplyBodySchema = v.pipe(
  v.string('Write the reply first'),
  noControl('The reply'),
  v.trim(),
  v.nonEmpty('Write the reply first'),
  v.maxLength(REPLY_BODY_MAX, `A reply is at most ${REPLY_BODY_MAX} characters`),
  knownPlaceholders,
);

/** POST /api/admin/inquiries/{id}/replies */
export const ReplyInputSchema = v.object({ subject: ReplySubjectSchema, body: ReplyBodySchema });

export const ReplyTemplateSchema = v.object({
  id: v.pipe(
    v.string('A template needs an id'),
    v.regex(/^[a-z0-9-]{1,40}$/, 'A template id is letters, digits and -'),
  ),
  name: v.pipe(
    v.string('Name the template'),
    noControl('The name'),
    v.trim(),
    v.nonEmpty('Name the template'),
    v.maxLength(TEMPLATE_NAME_MAX, `A template name is at most ${TEMPLATE_NAME_MAX} characters`),
  ),
  subject: ReplySubjectSchema,
  body: ReplyBodySchema,
});
export type ReplyTemplate = v.InferOutput<typeof ReplyTemplateSchema>;

/** PUT /api/admin/reply-templates: the whole list with the version it was loaded at. */
export const ReplyTemplatesInputSchema = v.object({
  version: v.pipe(
    v.number('The version of the templates you edited is missing'),
    v.integer('version must be a whole number'),
    v.minValue(0, 'version cannot be negative'),
  ),
  templates: v.pipe(
    v.array(ReplyTemplateSchema, 'templates must be a list'),
    v.maxLength(MAX_TEMPLATES, `At most ${MAX_TEMPLATES} templates`),
    v.check((list) => new Set(list.map((t) => t.id)).size === list.length, 'Two templates have the same id'),
    v.check(
      (list) => new Set(list.map((t) => t.name.toLowerCase())).size === list.length,
      'Two templates have the same name',
    ),
  ),
});

export interface ReplyTemplates {
  version: number;
  templates: ReplyTemplate[];
  updatedBy?: string;
  updatedAt?: string;
}

/* ---------- follow-ups ---------- */

/** A YYYY-MM-DD day that exists (not 30 February), from 2000 to 2100. */
export function isRealDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && year <= 2100 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const FollowUpDaySchema = v.pipe(
  v.string('The follow-up date must be a date (YYYY-MM-DD) or null'),
  v.check(isRealDay, 'Enter a real date for the follow-up, for example 2026-11-30'),
);
