/** A social link whose address is empty, '#' or 'javascript:void(0)' is hidden (see docs/texts.md, Site-wide). */
export function isShownSocialLink(href: string | undefined | null): href is string {
  const value = (href ?? '').trim();
  return value !== '' && value !== '#' && value.toLowerCase() !== 'javascript:void(0)';
}

/** tel: links want digits only (and a leading +). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
