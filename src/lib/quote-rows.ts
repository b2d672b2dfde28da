import { QUOTE_LABELLED_FIELDS } from '../schemas/inquiry';

/** A stored quote as the staff views read it: its fields by name, and the names of what was chosen as they were. */
export interface StoredQuoteLike {
  notSure?: boolean;
  categories?: readonly { slug: string; name: string }[];
  courses?: readonly { code: string; title: string; level: string }[];
}

/** `empty`: nothing was entered (the text then says so), for views that leave such rows out. */
export type QuoteRow = { field: string; label: string; text: string; empty: boolean };

/** Fields whose stored value reads better through the catalogue names kept with the quote. */
const SHOWN_AS: Record<string, (quote: StoredQuoteLike) => string | null> = {
  selectedCategories: (quote) =>
    (quote.categories ?? []).map((category) => category.name).join('\n') || 'None: their industry is not listed',
  selectedCourses: (quote) =>
    (quote.courses ?? []).map((course) => `${course.code} – ${course.title} (${course.level})`).join('\n') ||
    'None chosen',
  notSure: (quote) => (quote.notSure === true ? 'Asked for suggestions from their experience' : null),
};

const NOT_GIVEN = 'Not given';

function plain(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = Array.isArray(value) ? value.map(String).join('\n') : String(value);
  return text.trim() === '' ? NOT_GIVEN : text;
}

/**
 * Every labelled quote field of a stored quote as `{ label, text }`, in the form's order: what staff read in
 * their e-mail and in the inbox. A field missing from an older record is left out.
 */
export function quoteRows(quote: StoredQuoteLike): QuoteRow[] {
  return QUOTE_LABELLED_FIELDS.flatMap(({ field, label }) => {
    const text = Object.hasOwn(SHOWN_AS, field)
      ? SHOWN_AS[field](quote)
      : plain((quote as Record<string, unknown>)[field]);
    return text === null ? [] : [{ field, label, text, empty: text === NOT_GIVEN }];
  });
}
