import type { Config } from '@netlify/functions';
import { cachePolicies, error, json, methodNotAllowed, SECURITY_HEADERS } from '../../src/server/http';
import { authorize } from '../../src/server/roles';
import { listImages, readImage, uploadCacheTag } from '../../src/server/uploads';

/**
 * GET /api/uploads (staff, permission "uploads") -> {images}: every uploaded image, newest first, for the
 * editor's media picker.
 * GET /api/uploads/{key}: an uploaded image, with its real type, never sniffed by the browser, never
 * able to run anything (CSP default-src 'none'), cached for a year (each upload gets a fresh name).
 */
export default async (request: Request) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(['GET']);
  const key = new URL(request.url).pathname.replace(/^\/api\/uploads\/?/, '');
  if (key === '') {
    const auth = await authorize(request, 'uploads');
    if (!auth.ok) return auth.response;
    return json({ images: await listImages() });
  }
  const image = await readImage(key);
  if (!image) return error(404, 'Image not found.');
  return new Response(request.method === 'HEAD' ? null : image.data, {
    headers: {
      ...SECURITY_HEADERS,
      'Content-Type': image.contentType,
      'Content-Length': String(image.data.byteLength),
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      'X-Content-Type-Options': 'nosniff',
      // Public pictures of public posts: other sites (feed readers) may show them.
      'Cross-Origin-Resource-Policy': 'cross-origin',
      ...cachePolicies.upload,
      // Dropped from the CDN when the image is deleted with its last post.
      'Netlify-Cache-Tag': uploadCacheTag(key),
    },
  });
};

export const config: Config = { path: ['/api/uploads', '/api/uploads/:key'] };
