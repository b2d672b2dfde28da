import * as v from 'valibot';

/**
 * The open editor's form, kept in this browser (localStorage) while it has unsaved changes, so a crash,
 * a closed tab or a reload loses nothing: the editor offers it back the next time that post is opened.
 * One entry per post (`new` for a post not saved yet); removed once the post is saved or discarded.
 */
const PREFIX = 'blog-autosave:';

const EntrySchema = v.object({
  savedAt: v.string(),
  title: v.string(),
  form: v.record(v.string(), v.unknown()),
});
export type Autosave = v.InferOutput<typeof EntrySchema>;

export const autosaveKey = (postId: string | null) => `${PREFIX}${postId ?? 'new'}`;

export function readAutosave(postId: string | null): Autosave | null {
  try {
    const raw = localStorage.getItem(autosaveKey(postId));
    const parsed = v.safeParse(EntrySchema, raw ? JSON.parse(raw) : null);
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

export function writeAutosave(postId: string | null, form: Record<string, unknown> & { title: string }): void {
  try {
    localStorage.setItem(
      autosaveKey(postId),
      JSON.stringify({ savedAt: new Date().toISOString(), title: form.title, form }),
    );
  } catch {
    // Storage full or switched off: the editor still works, only without the safety copy.
  }
}

export function clearAutosave(postId: string | null): void {
  try {
    localStorage.removeItem(autosaveKey(postId));
  } catch {
    // Nothing to remove.
  }
}

/** Every kept form in this browser: the post's id (null for a new post) and when and what was typed. */
export function listAutosaves(): { postId: string | null; entry: Autosave }[] {
  const found: { postId: string | null; entry: Autosave }[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const id = key.slice(PREFIX.length);
      const postId = id === 'new' ? null : id;
      const entry = readAutosave(postId);
      if (entry) found.push({ postId, entry });
    }
  } catch {
    return [];
  }
  return found;
}
