import * as v from 'valibot';
import { api, ApiError } from '../api';
import { UploadResponseSchema, type UploadResponse } from '../../schemas/blog';

/** Uploads get longer than the 10 s of other calls: a few megabytes on a site connection take time. */
export const UPLOAD_TIMEOUT_MS = 60_000;

/** POST /api/upload/image, multipart field "image". */
export async function uploadImage(file: File): Promise<UploadResponse> {
  const form = new FormData();
  form.append('image', file, file.name);
  const answer = await api<unknown>('/upload/image', { method: 'POST', body: form, timeoutMs: UPLOAD_TIMEOUT_MS });
  const parsed = v.safeParse(UploadResponseSchema, answer);
  if (!parsed.success || !parsed.output.success || !parsed.output.imageUrl)
    throw new ApiError('The upload was not accepted. Please try again.', 200, [], false, answer);
  return parsed.output;
}

/** What the editor is told when an upload fails: refused by the server, or lost on the way (network, timeout). */
export function uploadFailure(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return cause instanceof ApiError && cause.status !== 0
    ? `Failed to upload image: ${message}`
    : `Error uploading image: ${message}`;
}
