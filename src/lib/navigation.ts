/** Main navigation, in order. */
export const mainNav = [
  { href: '/', label: 'Home' },
  { href: '/courses', label: 'Courses' },
  { href: '/about', label: 'About Us' },
  { href: '/contact', label: 'Contact Us' },
  { href: '/how-rpl-works', label: 'How RPL Works' },
] as const;

/** Footer quick links. */
export const quickLinks = [
  { href: '/courses', label: 'Courses' },
  { href: '/about', label: 'About Us' },
  { href: '/faq', label: 'FAQ' },
  { href: '/privacy-policy', label: 'Privacy Policy' },
  { href: '/terms-conditions', label: 'Terms & Conditions' },
  { href: '/blog', label: 'Blog' },
] as const;

/** Course pages, categories and search all live under the Courses link. */
const sections: Record<string, string[]> = {
  '/courses': ['/courses', '/category', '/search'],
};

export function isActive(href: string, pathname: string): boolean {
  const path = pathname.replace(/(\/index)?\.html$/, '').replace(/\/+$/, '') || '/';
  if (href === '/') return path === '/';
  const prefixes = sections[href] ?? [href];
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
