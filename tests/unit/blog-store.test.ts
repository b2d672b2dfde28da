import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { startStores } from './helpers/stores';
import { lineUp } from './helpers/race';
import { signedInStaff } from './helpers/staff';
import { sanitizeHtml } from '../../src/server/sanitize';
import {
  adminList,
  countView,
  listPublished,
  viewCount,
  getBlogById,
  getBlogBySlug,
} from '../../src/server/blog-reads';
import { listRevisions } from '../../src/server/blogs';
import { createBlog, deleteBlog, SLUG_TAKEN, slugify, updateBlog } from '../../src/server/blogs';
import { viewsIn } from '../../src/server/counters';
import { monthKey } from '../../src/server/months';
import { BlogInputSchema, BlogUpdateSchema, cleanChips, type BlogInput } from '../../src/schemas/blog';
import blogsHandler from '../../netlify/functions/blogs.mts';
import adminHandler from '../../netlify/functions/blogs-admin.mts';
import viewHandler from '../../netlify/functions/blog-view.mts';

let stores: Awaited<ReturnType<typeof startStores>>;
let token = '';
beforeAll(async () => {
  process.env.JWT_SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
  stores = await startStores();
  token = await signedInStaff({ username: 'blog-editor', firstName: 'Bea', lastName: 'Editor' });
  // The sanitiser loads its parser on first use; load it here, so the first test's time limit is for the test.
  await sanitizeHtml('<p>warm</p>');
}, 60_000);
afterAll(() => stores.stop());

/** The post an address belongs to in `blog_slugs`, or null when it is free. */
const slugOwner = async (slug: string) =>
  (await stores.engine.query<{ post_id: string }>('SELECT post_id FROM blog_slugs WHERE slug = $1', [slug])).rows[0]
    ?.post_id ?? null;

let n = 0;
const input = (overrides: Partial<BlogInput> = {}): BlogInput =>
  v.parse(BlogInputSchema, {
    title: `Post ${n++}`,
    excerpt: 'An excerpt.',
    content: '<p>Hello world</p>',
    ...overrides,
  });

const call = (method: string, path: string, body?: unknown, auth = true) =>
  new Request(`http://localhost${path}`, {
    method,
    headers: {
      ...(auth ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('slugs', () => {
  it('come from the title: lower case, ASCII, hyphens, no leading or trailing hyphen', () => {
    expect(slugify('What Is RPL? A Plain-English Guide')).toBe('what-is-rpl-a-plain-english-guide');
    expect(slugify("RPL & Licences: What's Different?")).toBe('rpl-and-licences-whats-different');
    expect(slugify('  Évaluation  des   compétences  ')).toBe('evaluation-des-competences');
    expect(slugify('!!!')).toBe('post');
    expect(slugify('日本語')).toBe('post');
    const long = slugify('Recognition of prior learning '.repeat(10));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^recognition-of-prior-learning(-[a-z]+)*$/);
  });

  it('are always valid addresses (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (title) => {
        expect(slugify(title)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(slugify(title).length).toBeLessThanOrEqual(80);
      }),
    );
  });

  it('are unique, even for posts created at the same moment', async () => {
    const posts = await Promise.all(
      Array.from({ length: 6 }, () => createBlog(input({ title: 'Same Title' }), 'blog-editor')),
    );
    const slugs = posts.map((post) => post.slug).sort();
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toContain('same-title');
    expect(slugs).toContain('same-title-2');
    for (const post of posts) expect((await getBlogBySlug(post.slug))?._id).toBe(post._id);
  });

  it('follow the title while a draft, and stay fixed once published (even after unpublishing)', async () => {
    const draft = await createBlog(input({ title: 'First Draft Title' }), 'blog-editor');
    expect(draft.slug).toBe('first-draft-title');
    const renamed = await updateBlog(
      draft._id,
      { ...input({ title: 'Better Title For Draft' }), version: 1 },
      'blog-editor',
    );
    expect(renamed.ok && renamed.blog.slug).toBe('better-title-for-draft');
    expect(await getBlogBySlug('first-draft-title')).toBeNull(); // the old slug is free again
    expect(await slugOwner('first-draft-title')).toBeNull();

    const published = await updateBlog(
      draft._id,
      { ...input({ title: 'Better Title For Draft', isPublished: true }), version: 2 },
      'blog-editor',
    );
    expect(published.ok && published.blog.publishedAt).toBeTruthy();
    const retitled = await updateBlog(
      draft._id,
      { ...input({ title: 'A Completely New Title' }), version: 3 },
      'blog-editor',
    );
    expect(retitled.ok && retitled.blog.slug).toBe('better-title-for-draft');
    expect(retitled.ok && retitled.blog.isPublished).toBe(false);
    const again = await updateBlog(
      draft._id,
      { ...input({ title: 'Yet Another Title', isPublished: true }), version: 4 },
      'blog-editor',
    );
    expect(again.ok && again.blog.slug).toBe('better-title-for-draft');
    expect(again.ok && again.blog.publishedAt).toBe(published.ok && published.blog.publishedAt);
  });

  it('free the address when a post is deleted', async () => {
    const post = await createBlog(input({ title: 'Short Lived' }), 'blog-editor');
    await deleteBlog(post._id);
    expect(await getBlogById(post._id)).toBeNull();
    expect(await slugOwner('short-lived')).toBeNull();
    const next = await createBlog(input({ title: 'Short Lived' }), 'blog-editor');
    expect(next.slug).toBe('short-lived');
  });
});

describe('optimistic concurrency', () => {
  it('refuses to save over a newer version and keeps the other edit', async () => {
    const post = await createBlog(input({ title: 'Shared Post' }), 'blog-editor');
    const alice = await updateBlog(
      post._id,
      { ...input({ title: 'Shared Post', excerpt: 'Alice was here' }), version: 1 },
      'alice',
    );
    expect(alice.ok).toBe(true);
    const bob = await updateBlog(
      post._id,
      { ...input({ title: 'Shared Post', excerpt: 'Bob was here' }), version: 1 },
      'bob',
    );
    expect(bob).toMatchObject({
      ok: false,
      reason: 'conflict',
      current: { excerpt: 'Alice was here', version: 2, updatedBy: 'alice' },
    });
    expect((await getBlogById(post._id))?.excerpt).toBe('Alice was here');
  });

  it('lets exactly one of many simultaneous saves of the same version win', async () => {
    const post = await createBlog(input({ title: 'Race' }), 'blog-editor');
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        updateBlog(post._id, { ...input({ title: 'Race', excerpt: `edit ${i}` }), version: 1 }, `editor-${i}`),
      ),
    );
    const winners = results.filter((result) => result.ok);
    expect(winners).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === 'conflict')).toHaveLength(4);
    const stored = await getBlogById(post._id);
    expect(stored?.version).toBe(2);
    expect(winners[0].ok && stored?.excerpt).toBe(winners[0].ok && winners[0].blog.excerpt);
  });

  it('a view never changes the post or its version', async () => {
    const post = await createBlog(input({ title: 'Viewed', isPublished: true }), 'blog-editor');
    const before = monthKey();
    const monthBefore = await viewsIn(before);
    await Promise.all([countView(post.slug), countView(post.slug), countView(post.slug)]);
    expect(await viewCount(post._id)).toBe(3);
    expect(await viewsIn(before)).toBe(monthBefore + 3);
    expect((await getBlogById(post._id))?.version).toBe(1);
    const saved = await updateBlog(
      post._id,
      { ...input({ title: 'Viewed', isPublished: true }), version: 1 },
      'blog-editor',
    );
    expect(saved.ok && saved.blog.views).toBe(3);
  });

  it('answers 409 with the newer version through the API', async () => {
    const created = await (
      await blogsHandler(call('POST', '/api/blogs', { title: 'API Race', excerpt: 'e', content: '<p>c</p>' }))
    ).json();
    const id = created.blog._id;
    const first = await blogsHandler(call('PUT', `/api/blogs/${id}`, { ...created.blog, excerpt: 'first' }));
    expect(first.status).toBe(200);
    const second = await blogsHandler(call('PUT', `/api/blogs/${id}`, { ...created.blog, excerpt: 'second' }));
    expect(second.status).toBe(409);
    const body = await second.json();
    expect(body.message).toMatch(/changed by blog-editor .* after you opened it, so your changes were not saved/);
    expect(body.current).toMatchObject({ excerpt: 'first', version: 2 });
  });
});

describe('parallel requests through the API', () => {
  const post = (body: Record<string, unknown>) =>
    blogsHandler(call('POST', '/api/blogs', { excerpt: 'e', content: '<p>c</p>', ...body }));

  it('50 view beacons at once count 50, for the post and for the month', async () => {
    const { blog } = await (await post({ title: 'Beacon Target', isPublished: true })).json();
    const month = monthKey();
    const monthBefore = await viewsIn(month);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => viewHandler(call('POST', `/api/blogs/${blog.slug}/view`, undefined, false))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    // Each beacon was told its own count: 1 to 50, none twice.
    const counted = await Promise.all(answers.map(async (answer) => (await answer.json()).views as number));
    expect(counted.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const read = await (await blogsHandler(call('GET', `/api/blogs/${blog.slug}`, undefined, false))).json();
    expect(read.views).toBe(50);
    expect(await viewsIn(month)).toBe(monthBefore + 50);
    expect((await getBlogById(blog._id))?.version).toBe(1);
  });

  it('two saves of one post from the same version at once: one lands, the other gets 409 with it', async () => {
    const { blog } = await (await post({ title: 'Two Tabs' })).json();
    // Both requests read the post before either writes.
    const race = lineUp(stores.db, { count: 2, statement: /\bblog_posts\b/ });
    const answers = await Promise.all(
      ['tab A', 'tab B'].map((tab) =>
        blogsHandler(call('PUT', `/api/blogs/${blog._id}`, { ...blog, excerpt: `Saved from ${tab}` })),
      ),
    ).finally(race.stop);
    expect(race.arrived()).toBe(2);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const [won, lost] = await Promise.all(
      [200, 409].map(async (status) => answers.find((answer) => answer.status === status)!.json()),
    );
    expect(lost.current).toMatchObject({ version: 2, excerpt: won.blog.excerpt });
    expect(await getBlogById(blog._id)).toMatchObject({ version: 2, excerpt: won.blog.excerpt });
    expect((await listRevisions(blog._id))?.map((revision) => [revision.version, revision.excerpt])).toEqual([
      [2, won.blog.excerpt],
      [1, 'e'],
    ]);
  });

  it('two posts choosing one address at once: one gets it, the other the clear refusal, never a 500', async () => {
    const before = (await adminList()).length;
    // Both requests are in their transaction's queue before either has claimed the address.
    const race = lineUp(stores.db, { count: 2 });
    const answers = await Promise.all(
      ['First', 'Second'].map((title) => post({ title: `${title} claimant`, slug: 'one-address-for-two' })),
    ).finally(race.stop);
    expect(race.arrived()).toBe(2);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    const created = await answers.find((answer) => answer.status === 201)!.json();
    const refused = await answers.find((answer) => answer.status === 400)!.json();
    expect(refused.errors).toEqual([{ field: 'slug', message: SLUG_TAKEN }]);
    expect(await slugOwner('one-address-for-two')).toBe(created.blog._id);
    expect((await adminList()).length).toBe(before + 1);
  });

  it('posts with one title sent at once all get their own address', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => post({ title: 'Parallel Title' })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    const blogs = await Promise.all(answers.map(async (answer) => (await answer.json()).blog));
    expect(new Set(blogs.map((blog) => blog.slug)).size).toBe(8);
    for (const blog of blogs) expect(await slugOwner(blog.slug)).toBe(blog._id);
  });
});

describe('the blog API', () => {
  it('creates, lists, publishes, reads, unpublishes and deletes', async () => {
    const create = await blogsHandler(
      call('POST', '/api/blogs', {
        title: 'Evidence That Counts',
        excerpt: 'What assessors look for.',
        content: '<p onclick="x()">Good <script>bad()</script>evidence</p>',
        tags: [' evidence ', '', 'Evidence', 'rpl'],
        seoKeywords: ['rpl evidence'],
      }),
    );
    expect(create.status).toBe(201);
    const { blog } = await create.json();
    expect(blog).toMatchObject({
      slug: 'evidence-that-counts',
      isPublished: false,
      author: 'RPL Pathways Team',
      category: 'General',
      contentType: 'html',
      tags: ['evidence', 'rpl'],
      content: '<p>Good evidence</p>',
      version: 1,
      views: 0,
    });

    // Drafts are not public.
    expect((await blogsHandler(call('GET', '/api/blogs/evidence-that-counts', undefined, false))).status).toBe(404);
    const admin = await (await adminHandler(call('GET', '/api/blogs/admin/all'))).json();
    expect(admin.blogs[0]).toMatchObject({ _id: blog._id, isPublished: false });

    const publish = await blogsHandler(call('PUT', `/api/blogs/${blog._id}`, { ...blog, isPublished: true }));
    expect(publish.status).toBe(200);
    const publicPost = await blogsHandler(call('GET', '/api/blogs/evidence-that-counts', undefined, false));
    expect(publicPost.status).toBe(200);
    expect(publicPost.headers.get('netlify-cache-tag')).toBe('blog,blog-evidence-that-counts');
    expect(publicPost.headers.get('netlify-cdn-cache-control')).toContain('durable');
    const post = await publicPost.json();
    expect(Object.keys(post)).toEqual(
      expect.arrayContaining([
        '_id',
        'slug',
        'title',
        'excerpt',
        'featuredImage',
        'author',
        'publishedAt',
        'createdAt',
        'readTime',
        'views',
        'tags',
        'content',
      ]),
    );
    expect(post).not.toHaveProperty('version');
    expect(post).not.toHaveProperty('html');
    expect(post.readTime).toBe(1);

    const list = await (
      await blogsHandler(call('GET', '/api/blogs?search=evidence%20counts', undefined, false))
    ).json();
    expect(list).toMatchObject({ total: 1, totalPages: 1, currentPage: 1 });
    expect(list.blogs[0]).not.toHaveProperty('content');

    // Views: counted once per call, public posts only.
    expect((await viewHandler(call('POST', '/api/blogs/evidence-that-counts/view', undefined, false))).status).toBe(
      200,
    );
    expect((await viewHandler(call('POST', '/api/blogs/nope/view', undefined, false))).status).toBe(404);

    const unpublish = await (
      await blogsHandler(call('PUT', `/api/blogs/${blog._id}`, { ...blog, isPublished: false, version: 2 }))
    ).json();
    expect(unpublish.blog).toMatchObject({ isPublished: false, slug: 'evidence-that-counts', views: 1 });
    expect((await blogsHandler(call('GET', '/api/blogs/evidence-that-counts', undefined, false))).status).toBe(404);
    expect((await viewHandler(call('POST', '/api/blogs/evidence-that-counts/view', undefined, false))).status).toBe(
      404,
    );

    expect((await blogsHandler(call('DELETE', `/api/blogs/${blog._id}`))).status).toBe(200);
    expect((await blogsHandler(call('DELETE', `/api/blogs/${blog._id}`))).status).toBe(404);
  });

  it('refuses anonymous writes and invalid posts with field errors', async () => {
    expect(
      (await blogsHandler(call('POST', '/api/blogs', { title: 't', excerpt: 'e', content: 'c' }, false))).status,
    ).toBe(401);
    expect(
      (await blogsHandler(call('DELETE', '/api/blogs/0123456789abcdef0123456789abcdef', undefined, false))).status,
    ).toBe(401);
    expect((await adminHandler(call('GET', '/api/blogs/admin/all', undefined, false))).status).toBe(401);
    const invalid = await blogsHandler(
      call('POST', '/api/blogs', {
        title: ' ',
        excerpt: '',
        content: '<p> </p>',
        featuredImage: 'https://evil.example/x.png',
        contentType: 'rtf',
      }),
    );
    expect(invalid.status).toBe(400);
    const body = await invalid.json();
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual([
      'title',
      'excerpt',
      'content',
      'contentType',
      'featuredImage',
    ]);
    expect(body.errors[0].message).toBe('Title is required');
    expect(
      (
        await blogsHandler(
          call('PUT', '/api/blogs/0123456789abcdef0123456789abcdef', { title: 't', excerpt: 'e', content: 'c' }),
        )
      ).status,
    ).toBe(400); // no version
    expect((await blogsHandler(call('PATCH', '/api/blogs/x'))).status).toBe(405);
  });

  it('pages nine at a time, newest first, and validates the query', async () => {
    for (let i = 0; i < 11; i++)
      await createBlog(
        input({ title: `Paged ${i}`, tags: ['paging-test'], isPublished: true }),
        'blog-editor',
        new Date(Date.UTC(2026, 0, 1 + i)),
      );
    const first = await listPublished({ page: 1, limit: 9, search: 'paging-test' });
    expect(first).toMatchObject({ total: 11, totalPages: 2, currentPage: 1 });
    expect(first.blogs).toHaveLength(9);
    expect(first.blogs[0].title).toBe('Paged 10');
    const second = await listPublished({ page: 2, limit: 9, search: 'paging-test' });
    expect(second.blogs.map((b) => b.title)).toEqual(['Paged 1', 'Paged 0']);
    expect((await listPublished({ page: 1, limit: 9, search: 'no such words anywhere' })).total).toBe(0);
    // Words are compared without case or accents, and taken as they are typed (% and _ are no wildcards).
    await createBlog(
      input({ title: 'Évaluation des compétences', tags: ['Français'], isPublished: true }),
      'blog-editor',
    );
    const found = await listPublished({ page: 1, limit: 9, search: 'EVALUATION francais' });
    expect(found.blogs.map((b) => b.title)).toEqual(['Évaluation des compétences']);
    expect((await listPublished({ page: 1, limit: 9, search: '%' })).total).toBe(0);
    expect((await listPublished({ page: 1, limit: 9, search: 'p_ged' })).total).toBe(0);
    expect((await blogsHandler(call('GET', '/api/blogs?page=0', undefined, false))).status).toBe(400);
    expect((await blogsHandler(call('GET', '/api/blogs?limit=500', undefined, false))).status).toBe(400);
  });

  it('renders and stores Markdown posts safely', async () => {
    const post = await createBlog(
      input({
        title: 'Markdown Post',
        contentType: 'markdown',
        content: '# Heading\n\n[bad](javascript:alert(1)) <script>x</script> **ok**',
        isPublished: true,
      }),
      'blog-editor',
    );
    expect(post.content).toContain('# Heading'); // the source is kept for editing
    expect(post.html).toBe('<h2>Heading</h2>\n<p><a>bad</a>  <strong>ok</strong></p>\n');
  });
});

describe('chips', () => {
  it('are trimmed, never blank and never repeated', () => {
    expect(cleanChips([' RPL ', '', '  ', 'rpl', 'Evidence', 'evidence ', 'Trades'])).toEqual([
      'RPL',
      'Evidence',
      'Trades',
    ]);
    expect(v.safeParse(BlogUpdateSchema, { title: 't', excerpt: 'e', content: 'c', version: 0 }).success).toBe(false);
  });
});
