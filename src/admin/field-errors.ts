import * as v from 'valibot';

/** valibot issues as `{ "group.field": message }`, first message per field. */
export function issuesToFieldErrors(issues: v.BaseIssue<unknown>[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '';
    errors[path] ??= issue.message;
  }
  return errors;
}
