import { afterAll, beforeAll, expect, test } from 'vitest';
import { getStore } from '@netlify/blobs';
import { startStores } from './helpers/stores';

/**
 * The local blob server `npm start` runs (the CLI's, from @netlify/blobs) lists a store by reading its folder.
 * A write puts a temporary file beside the blob and renames it; a delete removes the file. A list that met
 * either half-way used to stop at that file and answer 200 with only the keys read so far, so the admin's blog
 * list could drop a post another person was saving at that moment (patches/@netlify+blobs+11.1.1.patch).
 */
let blobs: Awaited<ReturnType<typeof startStores>>;
beforeAll(async () => {
  blobs = await startStores();
});
afterAll(() => blobs.stop());

test('a list made while other keys are written and deleted still has every key that stayed put', async () => {
  const store = getStore('list-under-writes');
  const kept = Array.from({ length: 40 }, (_, i) => `post/kept-${String(i).padStart(2, '0')}`);
  await Promise.all(kept.map((key) => store.setJSON(key, { key })));

  let stop = false;
  // Another writer: new keys appear and go in the same folder for as long as the lists run.
  const churn = (async () => {
    for (let round = 0; !stop; round += 1) {
      const keys = Array.from({ length: 8 }, (_, i) => `post/churn-${round}-${i}`);
      await Promise.all(keys.map((key) => store.setJSON(key, { round })));
      await Promise.all(keys.map((key) => store.delete(key)));
    }
  })();

  const shortLists: number[] = [];
  const strayKeys = new Set<string>();
  try {
    for (let i = 0; i < 30; i += 1) {
      const { blobs: listed } = await store.list({ prefix: 'post/' });
      const keys = new Set(listed.map(({ key }) => key));
      const missing = kept.filter((key) => !keys.has(key)).length;
      if (missing) shortLists.push(missing);
      for (const key of keys) if (!key.startsWith('post/kept-') && !key.startsWith('post/churn-')) strayKeys.add(key);
    }
  } finally {
    stop = true;
    await churn;
  }
  expect(shortLists, 'lists that left out keys nobody touched (keys missing in each)').toEqual([]);
  expect([...strayKeys], "the server's own temporary files are never listed as keys").toEqual([]);
});

test('a prefix list returns exactly the keys under it, with directories when asked', async () => {
  const store = getStore('list-prefixes');
  await Promise.all(['a/1', 'a/2', 'a/deep/3', 'ab/4', 'b/5'].map((key) => store.set(key, key)));
  const keys = async (prefix: string) => (await store.list({ prefix })).blobs.map(({ key }) => key).sort();
  expect(await keys('a/')).toEqual(['a/1', 'a/2', 'a/deep/3']);
  expect(await keys('a')).toEqual(['a/1', 'a/2', 'a/deep/3', 'ab/4']);
  expect(await keys('')).toEqual(['a/1', 'a/2', 'a/deep/3', 'ab/4', 'b/5']);
  const folders = await store.list({ prefix: 'a/', directories: true });
  expect(folders.blobs.map(({ key }) => key).sort()).toEqual(['a/1', 'a/2']);
  expect(folders.directories).toEqual(['a/deep']);
});
