// @vitest-environment jsdom
/**
 * Values the site writes into HTML from data someone typed (post titles, authors, tags, the address in
 * the site settings) must never end an element early. The JSON-LD block of every page once carried them
 * with JSON.stringify alone, so a title such as `</script><img src=x onerror=...>` closed the block and
 * became markup (found by tests/e2e/xss.spec.ts, stopped only by the CSP).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonForScript } from '../../src/lib/json-ld';
import { HTML_PAYLOADS, MARKDOWN_PAYLOADS } from '../fixtures/xss-payloads';
import { fuzzParameters, hostileString } from './helpers/hostile';

/** Parses a page the way a browser does and returns what the JSON-LD block holds and what else appeared. */
function parse(value: unknown) {
  const html = `<!doctype html><html><head><script type="application/ld+json">${jsonForScript(value)}</script></head><body><p id="after">after</p></body></html>`;
  const document = new DOMParser().parseFromString(html, 'text/html');
  const scripts = document.querySelectorAll('script');
  return {
    scripts: scripts.length,
    data: JSON.parse(scripts[0]?.textContent ?? 'null'),
    elements: [...document.querySelectorAll('body *')].map((el) => el.tagName.toLowerCase()),
  };
}

describe('JSON-LD cannot be broken out of', () => {
  const breakouts = [
    '</script><img src=x onerror=__xss(1)>',
    '</SCRIPT ><svg onload=__xss(2)>',
    '<!--<script>',
    '</script',
    '</script>',
    '\u2028\u2029',
    ...HTML_PAYLOADS.map((p) => p.html),
    ...MARKDOWN_PAYLOADS.map((p) => p.html),
  ];

  it.each(breakouts)('%s stays data', (text) => {
    const value = [{ '@type': 'BlogPosting', headline: text, author: { name: text }, keywords: [text] }];
    const parsed = parse(value);
    expect(parsed.scripts).toBe(1);
    expect(parsed.data).toEqual(value);
    expect(parsed.elements).toEqual(['p']);
  });

  it('holds for any string (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostileString,
          fc.string({
            unit: fc.constantFrom('<', '/', 's', 'c', 'r', 'i', 'p', 't', '>', '!', '-', ' ', '\u2028'),
            maxLength: 30,
          }),
        ),
        (text) => {
          const parsed = parse({ name: text });
          expect(parsed.data).toEqual({ name: text });
          expect(parsed.elements).toEqual(['p']);
        },
      ),
      fuzzParameters(300),
    );
  });
});
