import { dataStore, type StoreName } from './blobs.ts';

/**
 * Every store whose entries can name an uploaded image: blog posts, their saved revisions and slug index
 * (`blogs`), the staff edits of the catalogue (category pictures, course texts: `catalogue`) and the site
 * settings (`settings`). An image is only deleted when none of them mentions it.
 */
export const REFERRING_STORES: readonly StoreName[] = ['blogs', 'catalogue', 'settings'];

/** An entry as text with JSON escapes undone ("\/api\/uploads\/..." counts), or the raw text. */
function normalised(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/**
 * The ids among `candidates` (32 hex digits) that nothing in the referring stores mentions any more.
 * An id counts as used wherever it appears, in whatever address form, so an image is kept rather than lost
 * when in doubt; if a store cannot be read, nothing is reported unused.
 */
export async function unusedUploadIds(candidates: Iterable<string>): Promise<string[]> {
  const remaining = new Set([...candidates].map((id) => id.toLowerCase()));
  if (remaining.size === 0) return [];
  try {
    for (const name of REFERRING_STORES) {
      const store = dataStore(name);
      const { blobs } = await store.list();
      for (const { key } of blobs) {
        const text = await store.get(key, { type: 'text' });
        if (text === null) continue;
        const haystack = normalised(text).toLowerCase();
        for (const id of remaining) if (haystack.includes(id)) remaining.delete(id);
        if (remaining.size === 0) return [];
      }
    }
  } catch (cause) {
    console.error('Uploads: could not check where images are used; none deleted.', String(cause));
    return [];
  }
  return [...remaining];
}
