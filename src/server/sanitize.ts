import type { ContentType } from '../schemas/blog.ts';
import { blogSanitizer, markdownToHtml } from '../lib/blog-content.ts';

/**
 * Server-side sanitising of blog content: DOMPurify on a jsdom window, with the blog policy of
 * src/lib/blog-content.ts. jsdom is loaded on first use, so functions that never sanitise (views,
 * uploads) do not pay for it at start-up.
 */
let sanitizer: Promise<(html: string) => string> | undefined;

function load() {
  sanitizer ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([
      import('jsdom').catch((cause: unknown) => {
        // jsdom's dependencies are ES modules loaded with require(); AWS Lambda turns that off unless
        // NODE_OPTIONS has --experimental-require-module (README, "Blog").
        sanitizer = undefined;
        throw new Error('The HTML sanitiser could not start: set NODE_OPTIONS=--experimental-require-module for functions.', { cause });
      }),
      import('dompurify'),
    ]);
    const { window } = new JSDOM('<!doctype html><html><body></body></html>');
    return blogSanitizer(createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]));
  })();
  return sanitizer;
}

/** Starts loading the sanitiser now, so it is ready by the time the content is (page renders). */
export function warmSanitizer(): void {
  void load().catch(() => {});
}

/** HTML held to the blog allow-list. */
export async function sanitizeHtml(html: string): Promise<string> {
  return (await load())(html);
}

/** The safe HTML of a post's content, whether it was written as HTML or as Markdown. */
export async function renderContent(content: string, contentType: ContentType): Promise<string> {
  return sanitizeHtml(contentType === 'markdown' ? markdownToHtml(content) : content);
}
