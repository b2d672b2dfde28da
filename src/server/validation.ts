import * as v from 'valibot';
import { error, readCappedBody } from './http.ts';

type Schema = v.GenericSchema<unknown, unknown>;

/** Turns valibot issues into `{ field, message }` pairs a client can show next to its inputs. */
export function issuesToErrors(issues: v.BaseIssue<unknown>[]) {
  return issues.map((issue) => ({ field: v.getDotPath(issue) ?? '', message: issue.message }));
}

/** Parses URL query parameters (single values) with a schema; answers 400 on bad input. */
export function parseQuery<S extends Schema>(
  schema: S,
  url: URL,
): { ok: true; data: v.InferOutput<S> } | { ok: false; response: Response } {
  // Own properties only, whatever the name: `?__proto__=x` is a parameter like any other, not a prototype.
  const raw: Record<string, string> = Object.fromEntries(url.searchParams);
  const result = v.safeParse(schema, raw);
  if (result.success) return { ok: true, data: result.output };
  const errors = issuesToErrors(result.issues);
  return { ok: false, response: error(400, errors[0]?.message ?? 'Invalid query parameters', errors) };
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; response: Response };

/**
 * Reads a JSON request body with a hard size cap (the stream is cut off, whatever Content-Length says),
 * then validates it: 413 when too large, 415 when not JSON, 400 with `{ message, errors }` when invalid.
 */
export async function parseJsonBody<S extends Schema>(
  schema: S,
  request: Request,
  maxBytes: number,
): Promise<Parsed<v.InferOutput<S>>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type))
    return { ok: false, response: error(415, 'Send the request body as JSON (Content-Type: application/json).') };
  let bytes: Uint8Array | null;
  try {
    bytes = await readCappedBody(request, maxBytes);
  } catch {
    return { ok: false, response: error(400, 'The request body could not be read.') };
  }
  if (!bytes)
    return {
      ok: false,
      response: error(413, `The request body is too large (at most ${Math.round(maxBytes / 1024)} KB).`),
    };
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, response: error(400, 'The request body is not valid JSON.') };
  }
  const result = v.safeParse(schema, raw);
  if (result.success) return { ok: true, data: result.output };
  const errors = issuesToErrors(result.issues);
  return { ok: false, response: error(400, errors[0]?.message ?? 'The request is not valid.', errors) };
}
