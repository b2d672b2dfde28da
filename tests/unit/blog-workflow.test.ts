import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import sharp from 'sharp';
import { startStores } from './helpers/stores';
import { signedInStaff } from './helpers/staff';
import { sanitizeHtml } from '../../src/server/sanitize';
import { adminList, listPublished, findMovedBlog, getBlogById, getBlogBySlug } from '../../src/server/blog-reads';
import { createBlog, deleteBlog, listRevisions, publishDuePosts, updateBlog } from '../../src/server/blogs';
import { readImage, storeImage } from '../../src/server/uploads';
import { saveCategory } from '../../src/server/catalogue';
import { readSettings, saveSettings } from '../../src/server/settings';
import { BlogInputSchema, MAX_REVISIONS, type BlogInput } from '../../src/schemas/blog';
import blogsHandler from '../../netlify/functions/blogs.mts';
import adminHandler from '../../netlify/functions/blogs-admin.mts';
import uploadsHandler from '../../netlify/functions/uploads.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';
let editorToken = '';
beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  [token, editorToken] = await Promise.all([
    signedInStaff({ username: 'workflow-admin', firstName: 'Wes', lastName: 'Admin' }),
    signedInStaff({ username: 'workflow-editor', firstName: 'Eve', lastName: 'Editor', role: 'editor' }),
  ]);
  // The sanitiser loads its parser on first use; load it here, so the first test's time limit is for the test.
  await sanitizeHtml('<p>warm</p>');
}, 60_000);
afterAll(() => stores.stop());

let n = 0;
const input = (overrides: Record<string, unknown> = {}): BlogInput =>
  v.parse(BlogInputSchema, {
    title: `Workflow post ${n++}`,
    excerpt: 'An excerpt.',
    content: '<p>Hello world</p>',
    ...overrides,
  });

const call = (
  handler: (request: Request) => Promise<Response>,
  method: string,
  path: string,
  body?: unknown,
  bearer: string | null = token,
) =>
  handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

/** The post's row as stored, whole. */
const stored = async (id: string) =>
  JSON.stringify((await stores.engine.query('SELECT * FROM blog_posts WHERE id = $1', [id])).rows[0]);
/** The post an address belongs to in `blog_slugs`, or null when it is free. */
const slugOwner = async (slug: string) =>
  (await stores.engine.query<{ post_id: string }>('SELECT post_id FROM blog_slugs WHERE slug = $1', [slug])).rows[0]
    ?.post_id ?? null;

describe('chosen addresses', () => {
  it('a new post may choose its address; one already taken is refused with the field named, and nothing is created', async () => {
    const post = await createBlog(input({ slug: 'My-Chosen-Address' }), 'workflow-admin');
    expect(post.slug).toBe('my-chosen-address');
    const before = (await adminList()).length;
    const response = await call(blogsHandler, 'POST', '/api/blogs', { ...input(), slug: 'my-chosen-address' });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual([{ field: 'slug', message: expect.stringContaining('already used') }]);
    expect((await adminList()).length).toBe(before);
  });

  it('refuses malformed addresses and publish times with a 400 and leaves the post as it was', async () => {
    const post = await createBlog(input(), 'workflow-admin');
    const before = await stored(post._id);
    for (const bad of [
      { slug: 'two  words' },
      { slug: 'ends-' },
      { slug: 'a/b' },
      { slug: 'x'.repeat(81) },
      { publishAt: 'tomorrow' },
      { publishAt: 12 },
    ]) {
      const response = await call(blogsHandler, 'PUT', `/api/blogs/${post._id}`, { ...input(), ...bad, version: 1 });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect((await response.json()).errors?.[0]?.field).toBe(Object.keys(bad)[0]);
    }
    expect(await stored(post._id)).toBe(before);
  });

  it('finding 6: a publish time on 30 February or in year 0 gets a 400 saying so, and the post stays as it was', async () => {
    const post = await createBlog(input(), 'workflow-admin');
    const before = await stored(post._id);
    for (const publishAt of ['2026-02-30T10:00:00.000Z', '0000-01-01T00:00:00.000Z']) {
      const response = await call(blogsHandler, 'PUT', `/api/blogs/${post._id}`, { ...input(), publishAt, version: 1 });
      expect(response.status, publishAt).toBe(400);
      expect((await response.json()).errors).toEqual([
        { field: 'publishAt', message: expect.stringContaining('is not a real date and time') },
      ]);
    }
    expect(await stored(post._id)).toBe(before);
  });

  it('a draft that moves gives up its old address', async () => {
    const draft = await createBlog(input({ title: 'Draft that moves' }), 'workflow-admin');
    const moved = await updateBlog(
      draft._id,
      { ...input({ title: 'Draft that moves', slug: 'draft-new-home' }), version: 1 },
      'workflow-admin',
    );
    expect(moved.ok && moved.blog.slug).toBe('draft-new-home');
    expect(moved.ok && moved.blog.previousSlugs).toEqual([]);
    expect(await slugOwner('draft-that-moves')).toBeNull();
    expect(await findMovedBlog('draft-that-moves')).toBeNull();
  });

  it('a published post keeps its address when retitled, and a chosen new address keeps the old one as a 301', async () => {
    const post = await createBlog(input({ title: 'Published and moving', isPublished: true }), 'workflow-admin');
    const retitled = await updateBlog(
      post._id,
      { ...input({ title: 'Another title entirely', isPublished: true }), version: 1 },
      'workflow-admin',
    );
    expect(retitled.ok && retitled.blog.slug).toBe('published-and-moving');

    const moved = await updateBlog(
      post._id,
      { ...input({ title: 'Another title entirely', isPublished: true, slug: 'published-new-home' }), version: 2 },
      'workflow-admin',
    );
    expect(moved.ok && moved.blog.slug).toBe('published-new-home');
    expect((await getBlogBySlug('published-new-home'))?._id).toBe(post._id);
    expect((await findMovedBlog('published-and-moving'))?.slug).toBe('published-new-home');

    const api = await call(blogsHandler, 'GET', '/api/blogs/published-and-moving', undefined, null);
    expect(api.status).toBe(301);
    expect(api.headers.get('location')).toBe('/api/blogs/published-new-home');

    // The old address stays reserved: a new post with that title gets another one.
    const other = await createBlog(input({ title: 'Published and moving' }), 'workflow-admin');
    expect(other.slug).toBe('published-and-moving-2');

    // Moving back takes the old address again and drops the redirect.
    const back = await updateBlog(
      post._id,
      { ...input({ title: 'x', isPublished: true, slug: 'published-and-moving' }), version: 3 },
      'workflow-admin',
    );
    expect(back.ok && back.blog.slug).toBe('published-and-moving');
    expect(back.ok && back.blog.previousSlugs).toEqual(['published-new-home']);

    expect(await slugOwner('published-new-home')).toBe(post._id);
    await deleteBlog(post._id);
    for (const slug of ['published-and-moving', 'published-new-home']) expect(await slugOwner(slug)).toBeNull();
  });
});

describe('revision history', () => {
  it(`keeps the last ${MAX_REVISIONS} saved versions, newest first`, async () => {
    const post = await createBlog(input({ title: 'Many saves', content: '<p>Version 1</p>' }), 'workflow-admin');
    for (let version = 1; version < 25; version++) {
      const saved = await updateBlog(
        post._id,
        { ...input({ title: 'Many saves', content: `<p>Version ${version + 1}</p>` }), version },
        'workflow-editor',
      );
      expect(saved.ok).toBe(true);
    }
    const revisions = (await listRevisions(post._id))!;
    expect(revisions).toHaveLength(20);
    expect(revisions.map((revision) => revision.version)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    expect(revisions[0]).toMatchObject({ content: '<p>Version 25</p>', savedBy: 'workflow-editor' });
    expect(revisions.at(-1)?.content).toBe('<p>Version 6</p>');
  }, 60_000);

  it('restores an older revision as a new save, through the admin API; a stale version gets 409 with the newer post', async () => {
    const post = await createBlog(
      input({ title: 'Restore me', content: '<p>First words</p>', tags: ['one'] }),
      'workflow-admin',
    );
    await updateBlog(
      post._id,
      { ...input({ title: 'Restore me, edited', content: '<p>Second words</p>', isPublished: true }), version: 1 },
      'workflow-admin',
    );

    const listed = await call(adminHandler, 'GET', `/api/blogs/admin/${post._id}/revisions`, undefined, editorToken);
    expect(listed.status).toBe(200);
    expect(
      (await listed.json()).revisions.map((revision: { version: number; title: string }) => [
        revision.version,
        revision.title,
      ]),
    ).toEqual([
      [2, 'Restore me, edited'],
      [1, 'Restore me'],
    ]);

    const stale = await call(adminHandler, 'POST', `/api/blogs/admin/${post._id}/revisions`, {
      revision: 1,
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect((await stale.json()).current).toMatchObject({ _id: post._id, version: 2, title: 'Restore me, edited' });

    const restored = await call(
      adminHandler,
      'POST',
      `/api/blogs/admin/${post._id}/revisions`,
      { revision: 1, version: 2 },
      editorToken,
    );
    expect(restored.status).toBe(200);
    const blog = (await getBlogById(post._id))!;
    expect(blog).toMatchObject({
      version: 3,
      title: 'Restore me',
      content: '<p>First words</p>',
      tags: ['one'],
      isPublished: true,
      slug: 'restore-me-edited',
    });
    expect((await listRevisions(post._id))?.map((revision) => revision.version)).toEqual([3, 2, 1]);
  });

  it('refuses bad restore requests with a 4xx and changes nothing', async () => {
    const post = await createBlog(input(), 'workflow-admin');
    const before = await stored(post._id);
    const cases: [unknown, number, string | null][] = [
      [{ revision: 9, version: 1 }, 404, token],
      [{ revision: 'one', version: 1 }, 400, token],
      [{ version: 1 }, 400, token],
      [{ revision: 1, version: 1 }, 401, null],
    ];
    for (const [body, status, bearer] of cases) {
      expect(
        (await call(adminHandler, 'POST', `/api/blogs/admin/${post._id}/revisions`, body, bearer)).status,
        JSON.stringify(body),
      ).toBe(status);
    }
    expect(
      (await call(adminHandler, 'GET', '/api/blogs/admin/ffffffffffffffffffffffffffffffff/revisions')).status,
    ).toBe(404);
    expect(await stored(post._id)).toBe(before);
  });
});

describe('scheduled publishing', () => {
  const isListed = async (slug: string) =>
    (await listPublished({ page: 1, limit: 50 })).blogs.some((blog) => blog.slug === slug);

  it('keeps a post with a publish time in the future as a draft until the due run reaches that time', async () => {
    const now = new Date();
    const publishAt = new Date(now.getTime() + 60_000).toISOString();
    const post = await createBlog(input({ title: 'Scheduled post', publishAt }), 'workflow-admin', now);
    expect(post).toMatchObject({ isPublished: false, publishAt, publishedAt: null });
    expect(await isListed(post.slug)).toBe(false);

    expect(await publishDuePosts(new Date(now.getTime() + 30_000))).not.toContain(post.slug);
    expect((await getBlogById(post._id))?.isPublished).toBe(false);

    expect(await publishDuePosts(new Date(now.getTime() + 61_000))).toContain(post.slug);
    expect(await getBlogById(post._id)).toMatchObject({
      isPublished: true,
      publishAt: null,
      publishedAt: publishAt,
      version: 2,
    });
    expect(await isListed(post.slug)).toBe(true);
    // A second run has nothing left to do.
    expect(await publishDuePosts(new Date(now.getTime() + 120_000))).not.toContain(post.slug);
  });

  it('publishes at once when the chosen time has already passed, and "publish now" wins over a schedule', async () => {
    const past = await createBlog(input({ publishAt: new Date(Date.now() - 60_000).toISOString() }), 'workflow-admin');
    expect(past).toMatchObject({ isPublished: true, publishAt: null });
    const both = await createBlog(
      input({ isPublished: true, publishAt: new Date(Date.now() + 3_600_000).toISOString() }),
      'workflow-admin',
    );
    expect(both).toMatchObject({ isPublished: true, publishAt: null });
  });

  it('leaves a post alone that was unscheduled before its time', async () => {
    const post = await createBlog(input({ publishAt: new Date(Date.now() + 60_000).toISOString() }), 'workflow-admin');
    await updateBlog(post._id, { ...input({ title: post.title, publishAt: null }), version: 1 }, 'workflow-admin');
    expect(await publishDuePosts(new Date(Date.now() + 120_000))).not.toContain(post.slug);
    expect((await getBlogById(post._id))?.isPublished).toBe(false);
  });

  it('the due run is also reachable by staff through the admin API (editors included), never anonymously', async () => {
    const post = await createBlog(input({ publishAt: new Date(Date.now() + 1_000).toISOString() }), 'workflow-admin');
    expect((await call(adminHandler, 'POST', '/api/blogs/admin/publish-due', undefined, null)).status).toBe(401);
    expect((await getBlogById(post._id))?.isPublished).toBe(false);
    expect((await call(adminHandler, 'GET', '/api/blogs/admin/publish-due')).status).toBe(405);
    await vi.waitFor(
      async () => {
        const response = await call(adminHandler, 'POST', '/api/blogs/admin/publish-due', undefined, editorToken);
        expect(response.status).toBe(200);
        expect((await getBlogById(post._id))?.isPublished).toBe(true);
      },
      { timeout: 10_000, interval: 250 },
    );
  });
});

describe('images of a deleted post', () => {
  const png = () =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 20, b: 20 } } })
      .png()
      .toBuffer();

  it("go with it unless another post (or another post's history) still uses them", async () => {
    const [own, shared, historic] = await Promise.all([
      storeImage(await png(), 'workflow-admin'),
      storeImage(await png(), 'workflow-admin'),
      storeImage(await png(), 'workflow-admin'),
    ]);
    const key = (url: string) => url.split('/').pop()!;
    const a = await createBlog(
      input({
        featuredImage: own.imageUrl,
        content: `<p>Hi</p><img src="${shared.imageUrl}" alt="Shared"><img src="${historic.imageUrl}" alt="Old">`,
      }),
      'workflow-admin',
    );
    const b = await createBlog(
      input({ content: `<p>Also</p><img src="${shared.imageUrl}" alt="Shared">` }),
      'workflow-admin',
    );
    const c = await createBlog(
      input({ content: `<p>Once</p><img src="${historic.imageUrl}" alt="Old">` }),
      'workflow-admin',
    );
    await updateBlog(
      c._id,
      { ...input({ title: c.title, content: '<p>No picture now</p>' }), version: 1 },
      'workflow-admin',
    );

    const listed = async () =>
      (await stores.engine.query<{ id: string }>('SELECT id FROM images')).rows.map((row) => `${row.id}.webp`);
    await deleteBlog(a._id);
    expect(await listed()).not.toContain(key(own.imageUrl));
    expect(await listed()).toEqual(expect.arrayContaining([key(shared.imageUrl), key(historic.imageUrl)]));
    expect(await readImage(key(own.imageUrl))).toBeNull();
    expect(await readImage(key(own.imageUrl).replace('.webp', '-w480.webp'))).toBeNull();
    expect(await readImage(key(shared.imageUrl))).not.toBeNull();
    expect(await readImage(key(historic.imageUrl))).not.toBeNull();

    await deleteBlog(b._id);
    expect(await readImage(key(shared.imageUrl))).toBeNull();
  });

  it('finding 4: deleting a post keeps an image a category or the site settings still use', async () => {
    const [categoryImage, settingsImage] = await Promise.all([
      storeImage(await png(), 'workflow-admin'),
      storeImage(await png(), 'workflow-admin'),
    ]);
    const key = (url: string) => url.split('/').pop()!;
    const post = await createBlog(
      input({
        featuredImage: categoryImage.imageUrl,
        content: `<p>Both</p><img src="${settingsImage.imageUrl}" alt="Shared">`,
      }),
      'workflow-admin',
    );
    // An admin picks the same upload as a category's picture, and links to the other from the settings.
    const category = await saveCategory(
      'civil-construction',
      {
        version: 0,
        edit: {
          description: 'Building, civil and trade qualifications for people who build.',
          color: '#01675f',
          image: categoryImage.imageUrl,
        },
      },
      'workflow-admin',
    );
    expect(category.ok).toBe(true);
    const settings = await readSettings();
    await saveSettings(
      {
        ...settings,
        socialMedia: { ...settings.socialMedia, instagram: `https://rplpathways.com.au${settingsImage.imageUrl}` },
      },
      settings.version,
      'workflow-admin',
    );

    // An editor deletes the post.
    const deleted = await call(blogsHandler, 'DELETE', `/api/blogs/${post._id}`, undefined, editorToken);
    expect(deleted.status).toBe(200);
    expect(await getBlogById(post._id)).toBeNull();
    expect(await readImage(key(categoryImage.imageUrl))).not.toBeNull();
    expect(await readImage(key(categoryImage.imageUrl).replace('.webp', '-w480.webp'))).not.toBeNull();
    expect(await readImage(key(settingsImage.imageUrl))).not.toBeNull();
  });

  it('the media picker lists uploaded images to staff only', async () => {
    const image = await storeImage(await png(), 'workflow-admin');
    expect((await call(uploadsHandler, 'GET', '/api/uploads', undefined, null)).status).toBe(401);
    const response = await call(uploadsHandler, 'GET', '/api/uploads', undefined, editorToken);
    expect(response.status).toBe(200);
    const { images } = await response.json();
    expect(images[0]).toMatchObject({ imageUrl: image.imageUrl, width: 40, height: 30 });
    expect(images.every((entry: { imageUrl: string }) => !entry.imageUrl.includes('-w'))).toBe(true);
  });
});

describe('stored rows are parsed', () => {
  it('a row the schema refuses is left out of the lists instead of breaking them', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const good = await createBlog(input({ isPublished: true }), 'workflow-admin');
    // The table takes any text as a featured image; the schema only an image uploaded here.
    const brokenId = 'b'.repeat(32);
    await stores.engine.query(
      `INSERT INTO blog_posts (id, slug, title, excerpt, content, content_type, html, author, category, featured_image,
         is_published, version, created_at, updated_at)
       VALUES ($1, 'broken-row', 'Broken', 'e', '<p>c</p>', 'html', '<p>c</p>', 'a', 'c', 'javascript:alert(1)',
         true, 1, now(), now())`,
      [brokenId],
    );
    const response = await call(adminHandler, 'GET', '/api/blogs/admin/all');
    expect(response.status).toBe(200);
    const ids = (await response.json()).blogs.map((blog: { _id: string }) => blog._id);
    expect(ids).toContain(good._id);
    expect(ids).not.toContain(brokenId);
    const list = await call(blogsHandler, 'GET', '/api/blogs?limit=50', undefined, null);
    expect(list.status).toBe(200);
    expect((await list.json()).blogs.map((blog: { _id: string }) => blog._id)).not.toContain(brokenId);
    expect((await call(blogsHandler, 'GET', '/api/blogs/broken-row', undefined, null)).status).toBe(404);
    expect(await getBlogById(brokenId)).toBeNull();
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining(brokenId));
    await stores.engine.query('DELETE FROM blog_posts WHERE id = $1', [brokenId]);
  });
});
