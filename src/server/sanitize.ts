import sanitize, { type IOptions } from 'sanitize-html';
import type { ContentType } from '../schemas/blog.ts';
import {
  ALLOWED_ATTR,
  ALLOWED_TAGS,
  DROPPED_WITH_CONTENT,
  EXTERNAL_LINK_REL,
  IMAGE_LOADING,
  LINK_PROTOCOLS,
  isAllowedDimension,
  isAllowedImageSource,
  isAllowedLink,
  isExternalLink,
  markdownToHtml,
} from '../lib/blog-content.ts';

/**
 * Server-side sanitising of blog content with sanitize-html (a parser, no DOM), held to the allow-lists
 * and link rules of src/lib/blog-content.ts that the admin's browser preview applies with DOMPurify.
 */

/** Attributes only the policy itself may set; whatever a post says for them is dropped first. */
const POLICY_ATTRIBUTES = new Set(['rel', ...Object.keys(IMAGE_LOADING)]);

function applyPolicy(tagName: string, attribs: sanitize.Attributes): sanitize.Tag {
  const kept: sanitize.Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (POLICY_ATTRIBUTES.has(name)) continue;
    if (name === 'href' && !isAllowedLink(value)) continue;
    if (name === 'src' && (tagName !== 'img' || !isAllowedImageSource(value))) continue;
    if ((name === 'width' || name === 'height') && !isAllowedDimension(value)) continue;
    kept[name] = value;
  }
  if (tagName === 'a' && kept.href !== undefined && isExternalLink(kept.href)) kept.rel = EXTERNAL_LINK_REL;
  if (tagName === 'img' && kept.src !== undefined) {
    Object.assign(kept, IMAGE_LOADING);
    kept.alt ??= '';
  }
  return { tagName, attribs: kept };
}

const OPTIONS: IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    '*': ALLOWED_ATTR.filter((name) => name !== 'src'),
    a: ['rel'],
    img: ['src', ...Object.keys(IMAGE_LOADING)],
  },
  allowedSchemes: [...LINK_PROTOCOLS],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: true,
  allowedClasses: {},
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  // Disallowed elements keep their text, except these, which go with everything inside them.
  nonTextTags: DROPPED_WITH_CONTENT,
  selfClosing: ['img', 'br', 'hr'],
  transformTags: { '*': applyPolicy },
  // An image whose source was not allowed is dropped rather than left empty.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** HTML held to the blog allow-list. */
export function sanitizeHtml(html: string): string {
  // Void elements are written the HTML way (<br>, not <br />). Text and attribute values come out
  // escaped, so " />" can only be the end of such a tag.
  return sanitize(html, OPTIONS).replace(/ \/>/g, '>');
}

/** The safe HTML of a post's content, whether it was written as HTML or as Markdown. */
export function renderContent(content: string, contentType: ContentType): string {
  return sanitizeHtml(contentType === 'markdown' ? markdownToHtml(content) : content);
}
