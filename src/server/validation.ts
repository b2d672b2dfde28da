import * as v from 'valibot';
import { error } from './http';

type Schema = v.GenericSchema<unknown, unknown>;

/** Turns valibot issues into `{ field, message }` pairs a client can show next to its inputs. */
export function issuesToErrors(issues: v.BaseIssue<unknown>[]) {
  return issues.map((issue) => ({ field: v.getDotPath(issue) ?? '', message: issue.message }));
}

/** Parses URL query parameters (single values) with a schema; answers 400 on bad input. */
export function parseQuery<S extends Schema>(schema: S, url: URL): { ok: true; data: v.InferOutput<S> } | { ok: false; response: Response } {
  const raw: Record<string, string> = {};
  for (const [key, value] of url.searchParams) raw[key] = value;
  const result = v.safeParse(schema, raw);
  if (result.success) return { ok: true, data: result.output };
  const errors = issuesToErrors(result.issues);
  return { ok: false, response: error(400, errors[0]?.message ?? 'Invalid query parameters', errors) };
}
