import { randomBytes } from 'node:crypto';
import type { Metadata } from 'sharp';
import { fileStore } from '../platform/blobs.ts';
import { purgeTags } from './cdn.ts';
import { db, isoOf, sql } from '../platform/database.ts';
import { RefusedInput } from './http.ts';
import { MAX_UPLOAD_BYTES } from '../schemas/blog.ts';

/**
 * Image uploads: the bytes decide what a file is (never its name or declared type); only JPEG, PNG,
 * GIF and WebP are read, and what is stored is always sharp's re-encoding (WebP, EXIF orientation
 * applied, every metadata block stripped, at most 2000 px), never the bytes that were sent. So a
 * polyglot or a file with a script appended cannot survive, and GPS data never leaves the office.
 * The files are kept in the `uploads` blob store (`{id}.webp` and its narrower copies); the facts of each
 * image (size, who uploaded it and when) are a row of `images`.
 */
export type ImageKind = 'jpeg' | 'png' | 'gif' | 'webp';

/** Largest stored width/height, and the narrower copies made for phones and tablets. */
export const MAX_DIMENSION = 2000;
export const VARIANT_WIDTHS = [480, 960] as const;
/** Decompression bombs: refuse anything with more pixels than this (all frames together). */
export const MAX_INPUT_PIXELS = 50_000_000;
const MAX_FRAMES = 300;

export const ACCEPTED = 'Only JPG, PNG, GIF and WebP images are accepted.';

/** What the first bytes say a file is. */
export function sniffImage(bytes: Uint8Array): ImageKind | 'svg' | null {
  const at = (offset: number, ...values: number[]) => values.every((value, i) => bytes[offset + i] === value);
  const ascii = (offset: number, text: string) => at(offset, ...[...text].map((c) => c.charCodeAt(0)));
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 2048))
    .replace(/^\ufeff/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<') && /<svg[\s>]/.test(head)) return 'svg';
  return null;
}

/** Checks the bytes and re-encodes them; throws RefusedInput with a message for the person uploading. */
export async function processImage(
  bytes: Uint8Array,
): Promise<{ full: Buffer; variants: { width: number; data: Buffer }[]; width: number; height: number }> {
  if (bytes.byteLength === 0) throw new RefusedInput(400, 'The file is empty.');
  if (bytes.byteLength > MAX_UPLOAD_BYTES)
    throw new RefusedInput(413, 'The image is larger than 5 MB. Choose a smaller image.');
  const kind = sniffImage(bytes);
  if (kind === 'svg') throw new RefusedInput(415, `SVG images are not accepted. ${ACCEPTED}`);
  if (!kind) throw new RefusedInput(415, `This file is not an image we can accept. ${ACCEPTED}`);

  const { default: sharp } = await import('sharp');
  const animated = kind === 'gif' || kind === 'webp';
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const, animated, autoOrient: true };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, options).metadata();
  } catch (cause) {
    throw unreadable(cause);
  }
  // The decoder must agree with the magic bytes (a file that only starts like a JPEG is refused).
  if (meta.format !== kind) throw new RefusedInput(415, `The file's contents do not match an image type. ${ACCEPTED}`);
  const frames = meta.pages ?? 1;
  const width = meta.width ?? 0;
  const frameHeight = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !frameHeight) throw new RefusedInput(415, `The image has no size. ${ACCEPTED}`);
  if (width * frameHeight * frames > MAX_INPUT_PIXELS || frames > MAX_FRAMES) {
    throw new RefusedInput(413, 'The image has too many pixels to process. Use an image under 50 megapixels.');
  }

  try {
    const base = sharp(bytes, options);
    const encode = (maxWidth: number) =>
      base
        .clone()
        .resize({
          width: maxWidth,
          height: animated ? undefined : MAX_DIMENSION,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .webp({ quality: 80, effort: 4 })
        .toBuffer({ resolveWithObject: true });
    const [full, ...variants] = await Promise.all([encode(MAX_DIMENSION), ...VARIANT_WIDTHS.map(encode)]);
    return {
      full: full.data,
      variants: variants.map((variant, i) => ({ width: VARIANT_WIDTHS[i], data: variant.data })),
      width: full.info.width,
      height: full.info.pageHeight ?? full.info.height,
    };
  } catch (cause) {
    throw unreadable(cause);
  }
}

function unreadable(cause: unknown): RefusedInput {
  const text = cause instanceof Error ? cause.message : String(cause);
  if (/pixel limit/i.test(text))
    return new RefusedInput(413, 'The image has too many pixels to process. Use an image under 50 megapixels.');
  return new RefusedInput(
    415,
    `The file could not be read as an image (it may be damaged or not really an image). ${ACCEPTED}`,
  );
}

const KEY = /^[a-f0-9]{32}(?:-w(?:480|960))?\.webp$/;
export const isUploadKey = (key: string) => KEY.test(key);
export const uploadUrl = (key: string) => `/api/uploads/${key}`;

/** `/api/uploads/{id}.webp` -> the narrower copies, for srcset. */
export function variantUrls(imageUrl: string): { url: string; width: number }[] {
  const match = /^\/api\/uploads\/([a-f0-9]{32})\.webp$/.exec(imageUrl);
  if (!match) return [];
  return VARIANT_WIDTHS.map((width) => ({ url: uploadUrl(`${match[1]}-w${width}.webp`), width }));
}

/** Stores the re-encoded image and its copies under a fresh random name; answers the image's address. */
export async function storeImage(
  bytes: Uint8Array,
  uploadedBy: string,
): Promise<{ imageUrl: string; width: number; height: number }> {
  const image = await processImage(bytes);
  const id = randomBytes(16).toString('hex');
  const store = fileStore('uploads');
  const metadata = { contentType: 'image/webp' };
  const toArrayBuffer = (data: Buffer) =>
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  await Promise.all([
    store.set(`${id}.webp`, toArrayBuffer(image.full), { metadata }),
    ...image.variants.map((variant) =>
      store.set(`${id}-w${variant.width}.webp`, toArrayBuffer(variant.data), {
        metadata: { ...metadata, variantOf: id },
      }),
    ),
  ]);
  // The row last: an image is listed only once its files are there.
  try {
    await db().query(
      sql`INSERT INTO images (id, width, height, uploaded_by, uploaded_at)
          VALUES (${id}, ${image.width}, ${image.height}, ${uploadedBy}, ${new Date().toISOString()})`,
    );
  } catch (cause) {
    await removeFiles(id).catch(() => {});
    throw cause;
  }
  return { imageUrl: uploadUrl(`${id}.webp`), width: image.width, height: image.height };
}

/** A stored image with its type, or null. */
export async function readImage(key: string): Promise<{ data: ArrayBuffer; contentType: string } | null> {
  if (!isUploadKey(key)) return null;
  const found = await fileStore('uploads').getWithMetadata(key, { type: 'arrayBuffer' });
  if (!found) return null;
  // Stored images are always WebP; the bytes are checked again rather than trusting the metadata.
  const kind = sniffImage(new Uint8Array(found.data.slice(0, 16)));
  if (kind !== 'webp') return null;
  return { data: found.data, contentType: 'image/webp' };
}

const UPLOAD_ID = /\/api\/uploads\/([a-f0-9]{32})(?:-w\d+)?\.webp/g;

/** The ids of the uploaded images a post's texts refer to (featured image, pictures in the content). */
export function imageIdsIn(texts: string[]): Set<string> {
  const ids = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(UPLOAD_ID)) ids.add(match[1]);
  return ids;
}

/** The CDN cache tag of an image and its narrower copies. */
export const uploadCacheTag = (key: string) => `upload-${key.slice(0, 32)}`;

const removeFiles = (id: string) => {
  const store = fileStore('uploads');
  return Promise.all(
    [`${id}.webp`, ...VARIANT_WIDTHS.map((width) => `${id}-w${width}.webp`)].map((key) => store.delete(key)),
  );
};

/** Removes an uploaded image: its row, its file and narrower copies, and the CDN's copies. */
export async function deleteImage(id: string): Promise<void> {
  if (!/^[a-f0-9]{32}$/.test(id)) return;
  await db().query(sql`DELETE FROM images WHERE id = ${id}`);
  await removeFiles(id);
  await purgeTags([uploadCacheTag(id)]);
}

export interface StoredImage {
  imageUrl: string;
  width: number;
  height: number;
  uploadedAt: string;
}

/** Every uploaded image (not the narrower copies), newest first, for the media picker. */
export async function listImages(): Promise<StoredImage[]> {
  const rows = await db().query<{ id: string; width: number; height: number; uploaded_at: Date }>(
    sql`SELECT id, width, height, uploaded_at FROM images ORDER BY uploaded_at DESC, id`,
  );
  return rows.map((row) => ({
    imageUrl: uploadUrl(`${row.id}.webp`),
    width: row.width,
    height: row.height,
    uploadedAt: isoOf(row.uploaded_at),
  }));
}
