import * as v from 'valibot';
import { errorBody, json, readCappedBody, type FieldError } from './http';
import { issuesToErrors } from './validation';
import { createInquiry, referenceOf, type InquiryRecord, type NewInquiry } from './inquiries';
import { sendNewInquiryMail } from './mail';
import { ELAPSED_FIELD, HONEYPOT_FIELD, MIN_FILL_MS } from '../schemas/inquiry';

/**
 * The checks every public form submission passes before anything is stored, in this order:
 * method and type, body size (read with a cap, whatever Content-Length claims), JSON, honeypot,
 * minimum fill time, schema. Each refusal is a 4xx JSON answer `{ success: false, message, errors? }`.
 */

/** A contact message is at most 5000 characters; a quote a few more fields. 32 KB leaves room for UTF-8. */
export const MAX_BODY_BYTES = 32 * 1024;

export const MESSAGES = {
  tooLarge: `The form is too large to send (the limit is ${MAX_BODY_BYTES / 1024} KB). Please shorten your message.`,
  badJson: 'Invalid JSON body',
  notJson: 'Send the form as JSON (Content-Type: application/json)',
  honeypot: 'This submission looks automated and was not accepted. Please try again, or call or e-mail us.',
  tooFast: 'The form was sent too quickly to be filled in by a person. Please wait a few seconds and try again.',
} as const;

/** A refused form: the shared error shape plus `success: false`, which the forms' scripts look at. */
export const refuse = (status: number, message: string, errors?: FieldError[]) =>
  json({ success: false, ...errorBody(message, errors) }, { status });

type Parsed<S extends v.GenericSchema> = { ok: true; data: v.InferOutput<S> } | { ok: false; response: Response };

export async function parseFormSubmission<S extends v.GenericSchema>(request: Request, schema: S): Promise<Parsed<S>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) return { ok: false, response: refuse(415, MESSAGES.notJson) };

  let bytes: Uint8Array | null;
  try {
    bytes = await readCappedBody(request, MAX_BODY_BYTES);
  } catch {
    return { ok: false, response: refuse(400, 'The request body could not be read') };
  }
  if (!bytes) return { ok: false, response: refuse(413, MESSAGES.tooLarge) };
  const text = new TextDecoder().decode(bytes);

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, response: refuse(400, MESSAGES.badJson) };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, response: refuse(400, 'The body must be a JSON object') };

  const raw = body as Record<string, unknown>;
  const honeypot = raw[HONEYPOT_FIELD];
  if (honeypot !== undefined && honeypot !== '') return { ok: false, response: refuse(400, MESSAGES.honeypot) };
  const elapsed = raw[ELAPSED_FIELD];
  if (typeof elapsed !== 'number' || !Number.isFinite(elapsed) || elapsed < MIN_FILL_MS) {
    return {
      ok: false,
      response: refuse(400, MESSAGES.tooFast, [{ field: ELAPSED_FIELD, message: MESSAGES.tooFast }]),
    };
  }

  const result = v.safeParse(schema, raw, { abortPipeEarly: true });
  if (!result.success) {
    const errors = issuesToErrors(result.issues);
    return { ok: false, response: refuse(400, errors[0]?.message ?? 'Please check the form', errors) };
  }
  return { ok: true, data: result.output };
}

/**
 * Stores the inquiry first, before anything is computed from it, so no lead is ever lost to a bug in what
 * follows (DESIGN "Forms store first, then mail"). Then, best-effort: `enrich` adds what is derived from the
 * submission (the quote's indicative matches), the e-mails go out, and `extra` adds to the answer. A failure
 * in any of these is logged (kind and id only, never the visitor's words) and the visitor still hears
 * success, with what could be made. A failed send is retried by the scheduled mail-retry function; where the
 * platform offers waitUntil, mail goes out after the answer, so the visitor does not wait.
 */
export async function acceptInquiry(
  input: NewInquiry,
  context: { waitUntil?: (promise: Promise<unknown>) => void } | undefined,
  message: string,
  {
    enrich,
    extra,
  }: {
    /** Derived data stored on the record once it is safe (the quote's matches); returns the updated record. */
    enrich?: (record: InquiryRecord) => Promise<InquiryRecord | null>;
    /** More for the answer, made from the stored record (the quote's indicative result). */
    extra?: (record: InquiryRecord) => Record<string, unknown>;
  } = {},
) {
  let record: InquiryRecord;
  try {
    record = await createInquiry(input);
  } catch (error) {
    console.error('[inquiries] could not store a submission:', error);
    return json(
      { success: false, message: 'Your submission could not be saved. Please try again in a moment.' },
      { status: 503 },
    );
  }
  if (enrich) {
    try {
      record = (await enrich(record)) ?? record;
    } catch (error) {
      console.error(`[inquiries] inquiry ${record.id} is stored; adding its derived data failed:`, errorName(error));
    }
  }
  const mail = sendNewInquiryMail(record).catch((error) => {
    // Already stored with its e-mails held; the retry job takes them over once the hold runs out.
    console.error(`[mail] sending for inquiry ${record.id} failed:`, errorName(error));
  });
  if (typeof context?.waitUntil === 'function') context.waitUntil(mail);
  else await mail;
  let more: Record<string, unknown> = {};
  try {
    more = extra?.(record) ?? {};
  } catch (error) {
    console.error(`[inquiries] inquiry ${record.id} is stored; its answer extras failed:`, errorName(error));
  }
  return json({ ...more, success: true, message, id: record.id, reference: referenceOf(record) });
}

/** What a log line says of an error: its kind and message, never a stack that may quote the visitor's input. */
const errorName = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
