/**
 * Large pictures are scaled down in the browser before upload, so every upload fits the platform's
 * request limit (about 6 MB, less once the body is encoded) and uploads faster on site. The server
 * re-encodes whatever arrives anyway; this only makes the request small.
 */
export const SCALE_ABOVE_BYTES = 4 * 1024 * 1024;
export const MAX_SIDE = 2000;

export async function prepareForUpload(file: File): Promise<File> {
  // Animated GIFs would lose their animation on a canvas: only flatten one that is too large to send.
  if (file.type === 'image/gif' && file.size <= SCALE_ABOVE_BYTES) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file; // not decodable here: let the server give the reason
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  if (scale === 1 && file.size <= SCALE_ABOVE_BYTES) {
    bitmap.close();
    return file;
  }
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  for (const quality of [0.85, 0.75, 0.6, 0.45]) {
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', quality));
    if (!blob) break;
    if (blob.size <= SCALE_ABOVE_BYTES || quality === 0.45) {
      const type = blob.type || 'image/webp';
      return new File(
        [blob],
        file.name.replace(/\.[^.]+$/, '') + (type === 'image/png' ? '.png' : type === 'image/jpeg' ? '.jpg' : '.webp'),
        { type },
      );
    }
  }
  return file;
}
