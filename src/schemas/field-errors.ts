import type * as v from 'valibot';

/**
 * valibot issues as `{ field: message }`, the first message per field, for showing next to inputs. The
 * field is the issue's dot path (`contact.phone`); `depth` cuts it, so a flat form can put a problem
 * with one item of a list (`selectedCourses.2`) next to the list itself (`selectedCourses`).
 */
export function issuesToFieldErrors(
  issues: readonly v.BaseIssue<unknown>[],
  depth = Number.POSITIVE_INFINITY,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const keys = (issue.path ?? []).slice(0, depth).map((item) => String(item.key));
    const field = keys.join('.');
    if (field && !Object.hasOwn(errors, field)) errors[field] = issue.message;
  }
  return errors;
}
