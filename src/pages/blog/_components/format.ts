import { variantUrls } from '../../../server/uploads';

/** SPEC 2.11: dates in en-US long format ("November 22, 2026"), as the business's calendar sees them. */
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'Australia/Sydney' });
export const formatDate = (iso: string | null | undefined) => (iso ? longDate.format(new Date(iso)) : '');

export const viewsLabel = (views: number) => `${views.toLocaleString('en-US')} ${views === 1 ? 'view' : 'views'}`;
export const readTimeLabel = (minutes: number) => `${minutes || 5} min read`;

/** srcset of an uploaded image: the phone and tablet copies, then the full image (at most 2000 px). */
export function imageSrcset(imageUrl: string): string | undefined {
  const copies = variantUrls(imageUrl);
  if (!copies.length) return undefined;
  return [...copies.map((copy) => `${copy.url} ${copy.width}w`), `${imageUrl} 2000w`].join(', ');
}
