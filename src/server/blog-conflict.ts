import { json } from './http.ts';
import { toAdmin } from './blog-reads.ts';
import type { StoredBlog } from '../schemas/blog.ts';

/** 409: the post changed since the editor loaded it; the answer carries the newer post for the editor. */
export function conflictAnswer(current: StoredBlog): Response {
  const when = new Date(current.updatedAt).toLocaleString('en-AU', {
    timeZone: 'Australia/Sydney',
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return json(
    {
      message: `This blog was changed by ${current.updatedBy} (${when}) after you opened it, so your changes were not saved. Your text is still in the form: copy what you need, or save again to replace their version with yours.`,
      current: toAdmin(current),
    },
    { status: 409 },
  );
}
