// @vitest-environment jsdom
/**
 * A scheduled post that the schedule missed says so in Manage Blogs ("Overdue") and offers "Publish now";
 * a post whose time has only just come, or is still ahead, stays "Scheduled".
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import BlogCard, { isOverdue } from '../../src/admin/blog/BlogCard';
import * as v from 'valibot';
import { AdminBlogSchema } from '../../src/schemas/blog';

const NOW = Date.parse('2026-11-26T10:00:00Z');
const post = (publishAt: string | null, isPublished = false) =>
  v.parse(AdminBlogSchema, {
    _id: 'a'.repeat(32),
    slug: 'a-post',
    title: 'A post',
    excerpt: 'About it',
    content: '<p>Text</p>',
    contentType: 'html',
    author: 'Support Team',
    featuredImage: '',
    category: 'General',
    tags: [],
    seoKeywords: [],
    metaTitle: '',
    metaDescription: '',
    isPublished,
    publishAt,
    publishedAt: isPublished ? '2026-11-21T10:00:00Z' : null,
    createdAt: '2026-11-20T10:00:00Z',
    views: 0,
    updatedAt: '2026-11-20T10:00:00Z',
    version: 1,
  });

afterEach(cleanup);

describe('Manage Blogs: a post the schedule missed', () => {
  it('is overdue only when unpublished and more than two minutes past its time', () => {
    expect(isOverdue(post('2026-11-26T09:50:00Z'), NOW)).toBe(true);
    expect(isOverdue(post('2026-11-26T09:59:00Z'), NOW)).toBe(false); // the next run is still to come
    expect(isOverdue(post('2026-11-26T10:30:00Z'), NOW)).toBe(false);
    expect(isOverdue(post('2026-11-26T09:50:00Z', true), NOW)).toBe(false);
    expect(isOverdue(post(null), NOW)).toBe(false);
  });

  it('shows "Overdue" and a "Publish now" button that publishes it', () => {
    const onToggle = vi.fn();
    render(
      <BlogCard
        blog={post('2026-11-26T09:50:00Z')}
        busy={false}
        onEdit={() => {}}
        onToggle={onToggle}
        onDelete={() => {}}
        now={NOW}
      />,
    );
    expect(screen.getByText(/^Overdue: due/)).toBeTruthy();
    expect(screen.queryByText(/^Scheduled/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Publish now' }));
    expect(onToggle).toHaveBeenCalledOnce();
  });

  it('a post still ahead shows "Scheduled" and a plain "Publish" button', () => {
    render(
      <BlogCard
        blog={post('2026-11-26T10:30:00Z')}
        busy={false}
        onEdit={() => {}}
        onToggle={() => {}}
        onDelete={() => {}}
        now={NOW}
      />,
    );
    expect(screen.getByText(/^Scheduled/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Publish' })).toBeTruthy();
    expect(screen.queryByText(/Overdue/)).toBeNull();
  });
});
