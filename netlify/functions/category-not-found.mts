import type { Config } from '@netlify/functions';
import { notFoundPage } from '../../src/server/not-found-page';

/**
 * Category pages are pre-rendered for every category; `preferStatic` lets those win. Any other
 * /category/{slug} lands here and gets the 'Category not found.' page with a real 404 status.
 */
export default async () =>
  notFoundPage('/category-not-found', { title: 'Category not found.', message: 'Category not found.' });

export const config: Config = {
  path: '/category/:slug',
  preferStatic: true,
};
