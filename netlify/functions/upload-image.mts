import type { Config } from '@netlify/functions';
import { error, json, methodNotAllowed, readCappedBody, RefusedInput } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { storeImage } from '../../src/server/uploads';
import { MAX_UPLOAD_BYTES } from '../../src/schemas/blog';

/** Room for the multipart boundaries and headers around a 5 MB image. */
const MAX_BODY = MAX_UPLOAD_BYTES + 64 * 1024;
const TOO_LARGE = 'The image is larger than 5 MB. Choose a smaller image.';

/** POST /api/upload/image (multipart, field "image", staff only) -> {success, imageUrl, width, height, message} (docs/routes.md, docs/limits.md#images). */
export default async (request: Request) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const auth = await authorize(request, 'uploads');
  if (!auth.ok) return auth.response;

  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type))
    return error(415, 'Send the image as multipart/form-data in the field "image".');
  let form: FormData;
  try {
    const body = await readCappedBody(request, MAX_BODY);
    if (!body) return error(413, TOO_LARGE);
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    return error(400, 'The upload could not be read. Please try again.');
  }
  const files = [...form.values()].filter((value): value is File => typeof value !== 'string');
  if (files.length === 0) return error(400, 'No image was uploaded. Choose a JPG, PNG, GIF or WebP image.');
  if (files.length > 1) return error(400, 'Upload one image at a time.');
  const file = form.get('image');
  if (!(file instanceof File)) return error(400, 'Send the image in the field "image".');
  if (file.size > MAX_UPLOAD_BYTES) return error(413, TOO_LARGE);

  try {
    const { imageUrl, width, height } = await storeImage(new Uint8Array(await file.arrayBuffer()), auth.user.username);
    return json({ success: true, imageUrl, message: 'Image uploaded successfully', width, height }, { status: 201 });
  } catch (cause) {
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
};

export const config: Config = {
  path: '/api/upload/image',
  method: 'POST',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
