import type { Config, DOMPurify } from 'dompurify';
import { Marked } from 'marked';

/**
 * The one content policy of blog posts, shared by the server (sanitize-html in src/server/sanitize.ts: when
 * a post is saved and again when it is rendered) and the admin's Markdown preview (DOMPurify in the
 * browser). HTML from the editor and HTML rendered from Markdown go through the same allow-list.
 */
export const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h2',
  'h3',
  'h4',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'del',
  'sub',
  'sup',
  'mark',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'code',
  'pre',
  'img',
  'figure',
  'figcaption',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
export const ALLOWED_ATTR = [
  'href',
  'title',
  'src',
  'alt',
  'width',
  'height',
  'colspan',
  'rowspan',
  'start',
  'reversed',
  'scope',
];

/** In rendered content only links with these protocols are kept; others are blanked (see docs/limits.md). */
export const LINK_PROTOCOLS = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'] as const;

// Whitespace and control characters browsers ignore inside a URL scheme ("java\tscript:").
// eslint-disable-next-line no-control-regex
const IGNORED_IN_URL = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;

/** The scheme of a URL, or null for a relative address ("/x", "#x", "page?a=b:c"). */
function scheme(url: string): string | null {
  const compact = url.replace(IGNORED_IN_URL, '');
  const match = /^([^/?#]*?):/.exec(compact);
  return match ? match[1].toLowerCase() : null;
}

/** A link address allowed in content: relative, or one of the allowed protocols. */
export function isAllowedLink(url: string): boolean {
  // Judge the address as written and once percent-decoded, so "javascript%3A…" cannot slip through
  // to a tool that decodes it later.
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return false;
  }
  return [url, decoded].every((candidate) => {
    const found = scheme(candidate);
    return found === null || (LINK_PROTOCOLS as readonly string[]).includes(found);
  });
}

/**
 * An image in content must come from this site (the page's CSP only loads images from 'self'), and its address
 * must pass the link rules too (a malformed escape such as "/%" does not).
 */
export function isAllowedImageSource(url: string): boolean {
  const compact = url.replace(IGNORED_IN_URL, '');
  return /^\/(?![/\\])/.test(compact) && isAllowedLink(url);
}

/** Elements dropped together with everything inside them (their text is never kept). */
export const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'form',
  'textarea',
  'select',
  'button',
  'title',
  'head',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
];

/** Image sizes are plain pixel counts. */
export function isAllowedDimension(value: string): boolean {
  return /^\d{1,4}$/.test(value);
}

/**
 * The page's own origin as the URL parser sees it, over https (the site) and over http (a local run): the
 * parser reads "https:evil.example" as a path on an https page but as another site on an http one.
 */
const PAGE_ORIGINS = ['https://this-site.invalid', 'http://this-site.invalid'] as const;

/**
 * Links that leave the site open without handing it the page (rel="noopener noreferrer"): any address the
 * WHATWG URL parser, as a browser uses it, resolves to another origin ("//x", "/\\x", "\\\\x", "https:x",
 * "mailto:", ...), and any it cannot parse at all.
 */
export function isExternalLink(href: string): boolean {
  return PAGE_ORIGINS.some((origin) => {
    try {
      return new URL(href, `${origin}/blog/post`).origin !== origin;
    } catch {
      return true;
    }
  });
}

/** Attributes the policy sets on every image it keeps. */
export const IMAGE_LOADING = { loading: 'lazy', decoding: 'async' } as const;
export const EXTERNAL_LINK_REL = 'noopener noreferrer';

const PURIFY_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Same rule as isAllowedLink, as DOMPurify's own second check.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|ircs?|mailto|xmpp):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  KEEP_CONTENT: true,
  // Text inside these is dropped with the element, not kept.
  FORBID_CONTENTS: DROPPED_WITH_CONTENT,
  SANITIZE_DOM: true,
  SANITIZE_NAMED_PROPS: true,
};

const configured = new WeakSet<DOMPurify>();

/** Adds the blog policy's hooks to a DOMPurify instance (once) and returns its sanitiser (browser preview). */
export function blogSanitizer(purify: DOMPurify): (html: string) => string {
  if (!configured.has(purify)) {
    configured.add(purify);
    purify.addHook('uponSanitizeAttribute', (node, event) => {
      if (event.attrName === 'href' && !isAllowedLink(event.attrValue)) event.keepAttr = false;
      if (event.attrName === 'src' && (node.nodeName !== 'IMG' || !isAllowedImageSource(event.attrValue)))
        event.keepAttr = false;
      if ((event.attrName === 'width' || event.attrName === 'height') && !isAllowedDimension(event.attrValue))
        event.keepAttr = false;
    });
    purify.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName === 'A' && node.hasAttribute('href')) {
        const href = node.getAttribute('href') ?? '';
        if (isExternalLink(href)) node.setAttribute('rel', EXTERNAL_LINK_REL);
      }
      if (node.nodeName === 'IMG') {
        if (!node.hasAttribute('src')) node.remove();
        else {
          for (const [name, value] of Object.entries(IMAGE_LOADING)) node.setAttribute(name, value);
          if (!node.hasAttribute('alt')) node.setAttribute('alt', '');
        }
      }
    });
  }
  return (html: string) => purify.sanitize(html, PURIFY_CONFIG) as string;
}

/**
 * Markdown to (unsanitised) HTML with GitHub-flavoured Markdown. Headings start at h2, since the page
 * title is the h1. Raw HTML inside Markdown is passed on and then held to the same allow-list.
 */
const markdown = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  walkTokens(token) {
    if (token.type === 'heading' && token.depth === 1) token.depth = 2;
  },
});
export function markdownToHtml(source: string): string {
  return markdown.parse(source, { async: false }) as string;
}

/** Words of HTML content, for the read time (about 200 words a minute; 5 when there is no text). */
export function readTimeMinutes(html: string): number {
  const words = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
  return words === 0 ? 5 : Math.max(1, Math.ceil(words / 200));
}
