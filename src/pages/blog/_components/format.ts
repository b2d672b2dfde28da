import { variantUrls } from '../../../server/uploads';
import { formatLongDate } from '../../../lib/dates';

/** Dates in Australian long format ("22 November 2026"), as the business's calendar sees them. */
export const formatDate = (iso: string | null | undefined) => (iso ? formatLongDate(iso) : '');

export const viewsLabel = (views: number) => `${views.toLocaleString('en-AU')} ${views === 1 ? 'view' : 'views'}`;
export const readTimeLabel = (minutes: number) => `${minutes || 5} min read`;

/** srcset of an uploaded image: the phone and tablet copies, then the full image (at most 2000 px). */
export function imageSrcset(imageUrl: string): string | undefined {
  const copies = variantUrls(imageUrl);
  if (!copies.length) return undefined;
  return [...copies.map((copy) => `${copy.url} ${copy.width}w`), `${imageUrl} 2000w`].join(', ');
}
