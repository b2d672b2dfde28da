import { DETAIL_FIELDS, type CourseEdit } from '../../schemas/catalogue';

/** A course form's values: the lists as text, one item a line, as the fields edit them. */
export type Draft = Record<keyof typeof DETAIL_FIELDS, string> & {
  featured: boolean;
  evidence: string;
  terms: string;
  retired: boolean;
  successor: string;
};

const toLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function toDraft(edit: CourseEdit): Draft {
  const details = Object.fromEntries(
    Object.entries(DETAIL_FIELDS).map(([key, field]) => {
      const value = edit.details[key as keyof typeof DETAIL_FIELDS];
      return [
        key,
        field.kind === 'lines'
          ? ((value as string[] | undefined) ?? []).join('\n')
          : ((value as string | undefined) ?? ''),
      ];
    }),
  ) as Record<keyof typeof DETAIL_FIELDS, string>;
  return {
    ...details,
    featured: edit.featured,
    evidence: edit.evidence.join('\n'),
    terms: edit.terms.join('\n'),
    retired: Boolean(edit.retired),
    successor: edit.retired?.successor ?? '',
  };
}

export const EMPTY_EDIT: CourseEdit = {
  featured: false,
  details: {
    about: '',
    overview: '',
    aboutCertification: '',
    scopeOfWork: [],
    experienceRequirements: [],
    eligibility: [],
    entryRequirements: '',
    regulatoryRequirements: '',
    jobOutcomes: [],
    careerOutcomes: [],
    studyPathway: '',
  },
  evidence: [],
  terms: [],
  retired: null,
};

/** What is sent: the draft's lists split into items, the search words in lower case. */
export function fromDraft(draft: Draft): unknown {
  const details: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(DETAIL_FIELDS)) {
    const raw = draft[key as keyof typeof DETAIL_FIELDS];
    if (field.kind === 'lines') {
      const items = toLines(raw);
      if (items.length > 0 || !('optional' in field)) details[key] = items;
    } else details[key] = raw;
  }
  const successor = draft.successor.trim().toUpperCase();
  return {
    featured: draft.featured,
    details,
    evidence: toLines(draft.evidence),
    terms: toLines(draft.terms).map((term) => term.toLowerCase()),
    retired: draft.retired ? (successor ? { successor } : {}) : null,
  };
}

/** The labels of the form's fields, as an edit conflict names them. */
const LABELS = new Map<string, string>([
  ...Object.entries(DETAIL_FIELDS).map(([key, field]): [string, string] => [key, field.label]),
  ['featured', 'Featured on the home page and in lists'],
  ['evidence', 'Evidence checklist for this qualification'],
  ['terms', 'Occupations and search words'],
  ['retired', 'Retired'],
  ['successor', 'Successor'],
]);
export const draftLabel = (path: string) => LABELS.get(path) ?? path;

export const EMPTY_FACTS = {
  code: '',
  title: '',
  level: '',
  category: '',
  source: '',
  checkedOn: new Date().toISOString().slice(0, 10),
};
