import { clearSession, readSession, redirectToLogin } from '../session';
import { ApiError, NETWORK_ERROR } from '../api';
import type { UploadResponse } from '../../schemas/blog';

const BASE = (import.meta.env.PUBLIC_API_URL as string | undefined)?.replace(/\/$/, '') || '/api';
/** Uploads get longer than the 10 s of other calls: a few megabytes on a site connection take time. */
export const UPLOAD_TIMEOUT_MS = 60_000;

/** POST /api/upload/image, multipart field "image", bearer token (SPEC 7). */
export async function uploadImage(file: File): Promise<UploadResponse> {
  const form = new FormData();
  form.append('image', file, file.name);
  const token = readSession()?.token;
  let response: Response;
  try {
    response = await fetch(`${BASE}/upload/image`, {
      method: 'POST',
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: form,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
  } catch (cause) {
    console.error('Image upload failed', cause);
    throw new Error(NETWORK_ERROR);
  }
  const data = (await response.json().catch(() => ({}))) as Partial<UploadResponse>;
  if (response.status === 401) {
    clearSession();
    redirectToLogin();
  }
  if (!response.ok || !data.success || !data.imageUrl) throw new ApiError(data.message || `Upload failed (${response.status})`, response.status);
  return data as UploadResponse;
}
