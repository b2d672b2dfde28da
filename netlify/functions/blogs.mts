import type { Config } from '@netlify/functions';
import {
  BlogInputSchema,
  BlogListQuerySchema,
  BlogSlugSchema,
  BlogUpdateSchema,
  type StoredBlog,
} from '../../src/schemas/blog';
import { error, json, methodNotAllowed, RefusedInput, safeDecode } from '../../src/server/http';
import { parseJsonBody, parseQuery } from '../../src/server/validation';
import { authorize } from '../../src/server/roles';
import { createBlog, deleteBlog, type UpdateResult, updateBlog } from '../../src/server/blogs';
import { findMovedBlog, getBlogBySlug, listPublished, toAdmin, toPublic } from '../../src/server/blog-reads';
import { conflictAnswer } from '../../src/server/blog-conflict';
import { BLOG_NOT_FOUND, cachedJson, listCacheHeaders, postCacheHeaders } from '../../src/server/blog-http';
import { actorOf } from '../../src/server/activity';
import { logPost, postAction } from '../../src/server/blog-activity';
import * as v from 'valibot';

/** A post's JSON body may be large (content up to 200,000 characters, escaped). */
const MAX_BODY = 1_000_000;
const ID = /^[a-f0-9]{32}$/;

/**
 * GET    /api/blogs?page&limit&search -> {blogs, totalPages, currentPage, total} (published only; docs/routes.md)
 * GET    /api/blogs/{slug}            -> the public post, or 404 'Blog not found or no longer available.'
 * POST   /api/blogs                   -> creates a post (staff)
 * PUT    /api/blogs/{id}              -> saves the whole post at the version it was loaded (staff; 409 if newer)
 * DELETE /api/blogs/{id}              -> deletes a post (staff)
 */
export default async (request: Request) => {
  const url = new URL(request.url);
  const param = safeDecode(url.pathname.replace(/^\/api\/blogs\/?/, ''));
  // A malformed escape in the address names no post.
  if (param === null) return error(404, BLOG_NOT_FOUND);
  const method = request.method;

  if (method === 'GET' || method === 'HEAD') return param ? readOne(param) : readList(url);
  if (!param && method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  if (param && method !== 'PUT' && method !== 'DELETE') return methodNotAllowed(['GET', 'PUT', 'DELETE']);

  const auth = await authorize(request, 'blogs');
  if (!auth.ok) return auth.response;
  const by = auth.user.username;

  if (method === 'POST') {
    const body = await parseJsonBody(BlogInputSchema, request, MAX_BODY);
    if (!body.ok) return body.response;
    let blog: StoredBlog;
    try {
      blog = await createBlog(body.data, by);
    } catch (cause) {
      if (cause instanceof RefusedInput) return cause.answer();
      throw cause;
    }
    await logPost(actorOf(auth.user), 'created', null, blog);
    return json({ success: true, message: 'Blog created successfully', blog: toAdmin(blog, 0) }, { status: 201 });
  }

  if (!ID.test(param)) return error(404, 'This blog no longer exists.');
  if (method === 'DELETE') {
    const removed = await deleteBlog(param);
    if (!removed) return error(404, 'This blog no longer exists.');
    await logPost(actorOf(auth.user), 'deleted', removed, null);
    return json({ success: true, message: 'Blog deleted successfully' });
  }

  const body = await parseJsonBody(BlogUpdateSchema, request, MAX_BODY);
  if (!body.ok) return body.response;
  let result: UpdateResult;
  try {
    result = await updateBlog(param, body.data, by);
  } catch (cause) {
    if (cause instanceof RefusedInput) return cause.answer();
    throw cause;
  }
  if (!result.ok && result.reason === 'not-found')
    return error(404, 'This blog no longer exists. It may have been deleted by someone else.');
  if (!result.ok) return conflictAnswer(result.current);
  await logPost(actorOf(auth.user), postAction(result.before, result.blog), result.before, result.blog);
  return json({ success: true, message: 'Blog updated successfully', blog: toAdmin(result.blog, result.blog.views) });
};

async function readList(url: URL): Promise<Response> {
  const query = parseQuery(BlogListQuerySchema, url);
  if (!query.ok) return query.response;
  return cachedJson(await listPublished(query.data), listCacheHeaders());
}

async function readOne(slug: string): Promise<Response> {
  if (!v.is(BlogSlugSchema, slug)) return error(404, BLOG_NOT_FOUND);
  const blog = await getBlogBySlug(slug);
  if (!blog) {
    // An old address of a published post that moved.
    const moved = await findMovedBlog(slug);
    if (moved)
      return cachedJson(
        { message: 'This post has moved.', slug: moved.slug },
        { ...postCacheHeaders(slug), Location: `/api/blogs/${moved.slug}` },
        301,
      );
  }
  if (!blog?.isPublished) return cachedJson({ message: BLOG_NOT_FOUND }, postCacheHeaders(slug), 404);
  return cachedJson(await toPublic(blog), postCacheHeaders(slug));
}

export const config: Config = {
  path: ['/api/blogs', '/api/blogs/:slug'],
};
