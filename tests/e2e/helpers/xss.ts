import type { Page } from '@playwright/test';

/**
 * Loads HTML in chromium and reports whether anything in it ran. Payloads (tests/fixtures/xss-payloads.ts)
 * call `__xss(id)`; alert/confirm/prompt and dialogs are recorded too. After loading, the harness also
 * does what a reader might: it activates every link, form and button whose address resolves to a
 * javascript: URL. A static pass lists what should never survive sanitising (event-handler attributes,
 * scripts, frames with inline documents, plugin objects, refresh/base tags, script URLs).
 *
 * `serveWithoutCsp` serves the HTML from the site's own origin with no Content-Security-Policy, so the
 * sanitiser alone stands between the payload and execution (the site's CSP would otherwise hide a miss).
 */
export interface XssReport {
  /** Ids passed to __xss and dialog messages: anything here means a payload ran. */
  fired: string[];
  /** Dangerous markup left in the container after sanitising. */
  dangerous: string[];
  /** CSP violations the page reported (a payload reached the page and only the CSP stopped it). */
  violations: string[];
}

export async function watchForXss(page: Page): Promise<() => Promise<XssReport>> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`dialog:${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown> & { __xssFired: string[]; __cspViolations: string[] };
    w.__xssFired = [];
    w.__cspViolations = [];
    const record = (value: unknown) => w.__xssFired.push(String(value));
    Object.defineProperty(window, '__xss', { value: record, writable: false, configurable: false });
    for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
      (window as unknown as Record<string, unknown>)[name] = (message: unknown) => record(`${name}:${String(message)}`);
    }
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI || 'inline'} ${event.sample ?? ''}`.trim());
    });
  });
  return async () => {
    const inPage = await page
      .evaluate(() => ({
        fired: (window as unknown as { __xssFired?: string[] }).__xssFired ?? [],
        violations: (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [],
      }))
      .catch(() => ({ fired: ['page navigated away or crashed'], violations: [] }));
    return { fired: [...inPage.fired, ...dialogs], dangerous: [], violations: inPage.violations };
  };
}

/**
 * Waits until everything the page set going has had its turn, instead of a fixed pause: the document and
 * its frames have loaded, every image and media element has finished (or failed) loading, and then two
 * frames and a task have passed, so the load, error, focus and toggle events those raise and any queued
 * javascript: navigation have run. The self-test proves this is long enough: it sees every raw payload run.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.readyState === 'complete' &&
      [...document.images].every((image) => image.complete) &&
      [...document.querySelectorAll('video, audio')].every(
        (media) => (media as HTMLMediaElement).networkState !== HTMLMediaElement.NETWORK_LOADING,
      ),
  );
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            // One more task after the second frame (a message to ourselves), for events queued in that frame.
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve();
            channel.port2.postMessage(null);
          }),
        ),
      ),
  );
}

/** Activates script URLs the way a reader would (click, submit), then lists dangerous markup in `container`. */
export async function exerciseAndInspect(page: Page, container = 'body'): Promise<string[]> {
  await page.evaluate(() => {
    const scriptUrl = (value: string | null | undefined) =>
      !!value && /^\s*(javascript|vbscript)\s*:/i.test(value.replace(/[\u0000-\u001f]/g, ''));
    for (const a of document.querySelectorAll<HTMLAnchorElement | HTMLAreaElement>('a[href], area[href]')) {
      if (a.protocol === 'javascript:') a.click();
    }
    for (const a of document.querySelectorAll('svg a')) {
      const href = a.getAttribute('href') ?? a.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
      if (scriptUrl(href)) a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    }
    for (const form of document.querySelectorAll('form')) {
      if (scriptUrl(form.getAttribute('action'))) form.requestSubmit();
    }
    for (const button of document.querySelectorAll<HTMLButtonElement>('button[formaction], input[formaction]')) {
      if (scriptUrl(button.getAttribute('formaction'))) button.click();
    }
  });
  await settle(page);
  return page.evaluate((selector) => {
    const found: string[] = [];
    const root = document.querySelector(selector) ?? document.body;
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()}${[...el.attributes].map((a) => ` ${a.name}="${a.value.slice(0, 60)}"`).join('')}>`;
    // A scheme needs its colon: `javascript%3A...` is a harmless relative address.
    const badUrl = (value: string) =>
      /^\s*(javascript\s*:|vbscript\s*:|data:text\/html|data:image\/svg)/i.test(value.replace(/[\u0000-\u001f]/g, ''));
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const tag = el.tagName.toLowerCase();
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name)) found.push(`event handler: ${describe(el)}`);
        if (
          ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background'].includes(
            attr.name.toLowerCase(),
          ) &&
          badUrl(attr.value)
        )
          found.push(`script URL: ${describe(el)}`);
      }
      if (root !== document.body || el !== root) {
        if (tag === 'script' && root !== document.body) found.push(`script: ${describe(el)}`);
        if (['object', 'embed', 'frame', 'frameset', 'applet', 'base'].includes(tag))
          found.push(`element: ${describe(el)}`);
        if (tag === 'iframe' && (el.hasAttribute('srcdoc') || !/^https:\/\//i.test(el.getAttribute('src') ?? '')))
          found.push(`frame: ${describe(el)}`);
        if (tag === 'meta' && /refresh/i.test(el.getAttribute('http-equiv') ?? ''))
          found.push(`refresh: ${describe(el)}`);
      }
    }
    return found;
  }, container);
}

/** Serves `html` at `path` on the site's origin, without any CSP, and loads it. */
export async function serveWithoutCsp(page: Page, path: string, html: string): Promise<void> {
  // Everything else under the harness's folder (what `src=x` and the like point at) is answered 404 here,
  // at once, rather than by the site: the errors the payloads wait for come without a round trip. The route of
  // an earlier call on the same page is replaced.
  await page.unroute('**/__xss-harness/**');
  await page.route('**/__xss-harness/**', (route) =>
    new URL(route.request().url()).pathname === path
      ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })
      : route.fulfill({ status: 404, contentType: 'text/plain', body: '' }),
  );
  await page.goto(path, { waitUntil: 'load' });
  await settle(page);
}

/** Loads HTML, exercises it and reports. `wrap` puts a fragment into a minimal document. */
export async function renderAndCheck(page: Page, path: string, html: string, container = 'body'): Promise<XssReport> {
  const report = await watchForXss(page);
  await serveWithoutCsp(page, path, html);
  const dangerous = await exerciseAndInspect(page, container);
  return { ...(await report()), dangerous };
}

export const fragmentPage = (fragment: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>XSS check</title></head><body><main id="content">${fragment}</main></body></html>`;
