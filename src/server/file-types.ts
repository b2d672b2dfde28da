import type { FileKind } from '../schemas/applicant';

/**
 * What a file really is, from its first bytes, never from its name or the type the browser claims:
 * PDF, JPEG, PNG, HEIC/HEIF, DOCX or ODT, else null. DOCX and ODT are ZIP archives: a DOCX names
 * [Content_Types].xml and word/ entries, an ODT starts with a stored `mimetype` entry saying
 * application/vnd.oasis.opendocument.text. Reads the local file headers found in `head` (the first chunk).
 */
export function sniffDocument(head: Uint8Array): FileKind | null {
  const starts = (...bytes: number[]) => bytes.every((byte, i) => head[i] === byte);
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (ascii(0, 5) === '%PDF-') return 'pdf';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (head.length >= 12 && ascii(4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(8, 12))) return 'heic';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return zipKind(head);
  return null;
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1']);
const ODT_MIMETYPE = 'application/vnd.oasis.opendocument.text';

/** The entry names of the ZIP local file headers in `bytes` (at most 200), in order. */
function zipEntryNames(bytes: Uint8Array): { name: string; offset: number; method: number; size: number }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: { name: string; offset: number; method: number; size: number }[] = [];
  for (let at = 0; at + 30 <= bytes.length && entries.length < 200; at++) {
    if (view.getUint32(at, true) !== 0x04034b50) continue;
    const method = view.getUint16(at + 8, true);
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    if (nameLength === 0 || at + 30 + nameLength > bytes.length) continue;
    const name = new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength));
    entries.push({ name, offset: at + 30 + nameLength + extraLength, method, size });
    at += 29 + nameLength;
  }
  return entries;
}

function zipKind(head: Uint8Array): FileKind | null {
  const entries = zipEntryNames(head);
  const first = entries[0];
  if (first?.name === 'mimetype' && first.method === 0) {
    const content = new TextDecoder().decode(head.subarray(first.offset, first.offset + first.size));
    return content === ODT_MIMETYPE ? 'odt' : null;
  }
  const names = entries.map((entry) => entry.name);
  return names.includes('[Content_Types].xml') && names.some((name) => name.startsWith('word/')) ? 'docx' : null;
}

/** The type a download is labelled with (the browser is told not to guess: nosniff, attachment). */
export const CONTENT_TYPES: Readonly<Record<FileKind, string>> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  heic: 'image/heic',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
};

export const ACCEPTED_FILES = 'Only PDF, JPEG, PNG, HEIC, Word (DOCX) and OpenDocument (ODT) files are accepted.';

/**
 * A file name as stored and shown: the last path part only, no control or bidi-override characters,
 * at most `max` characters; never empty.
 */
export function sanitiseFileName(name: string, max = 120): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const clean = last
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return [...clean].slice(0, max).join('') || 'file';
}
