/**
 * The fields of two versions of one form, compared value by value: nested groups (settings' contact details,
 * each claim) are walked down to their fields; a list counts as one field. Only the paths of this side's form
 * are walked, so the other side's answer never adds a key of its own.
 */
export type FieldPath = string;

const isGroup = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every field of a form with its value, in the form's order. */
export function fieldsOf(form: unknown, prefix = ''): Map<FieldPath, unknown> {
  const fields = new Map<FieldPath, unknown>();
  if (!isGroup(form)) return fields;
  for (const [key, value] of Object.entries(form)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isGroup(value)) for (const [inner, leaf] of fieldsOf(value, path)) fields.set(inner, leaf);
    else fields.set(path, value);
  }
  return fields;
}

/** The value at `path` in `form`, only through keys the form itself has. */
function valueAt(form: unknown, path: FieldPath): unknown {
  let value: unknown = form;
  for (const key of path.split('.')) {
    if (!isGroup(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields whose values differ, with both values. */
export function differingFields(mine: unknown, theirs: unknown): { path: FieldPath; mine: unknown; theirs: unknown }[] {
  return [...fieldsOf(mine)]
    .map(([path, value]) => ({ path, mine: value, theirs: valueAt(theirs, path) }))
    .filter((field) => field.theirs !== undefined && !same(field.mine, field.theirs));
}

/** `mine` with the value of each path in `taken` replaced by theirs. */
export function mergeFields<T>(mine: T, theirs: T, taken: Iterable<FieldPath>): T {
  const merged = structuredClone(mine);
  for (const path of taken) {
    const keys = path.split('.');
    const last = keys.pop()!;
    let group: unknown = merged;
    for (const key of keys) group = isGroup(group) && Object.hasOwn(group, key) ? group[key] : undefined;
    const value = valueAt(theirs, path);
    if (isGroup(group) && Object.hasOwn(group, last) && value !== undefined) group[last] = structuredClone(value);
  }
  return merged;
}

/** A value as a person reads it: text as it is, yes or no, one list item a line. */
export function shownValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length ? value.map(shownValue).join('\n') : '(none)';
  if (isGroup(value))
    return Object.values(value)
      .filter((inner) => inner !== '' && !(Array.isArray(inner) && inner.length === 0))
      .map(shownValue)
      .join(' · ');
  return String(value);
}
