import { describe, expect, it } from 'vitest';
import type { APIContext } from 'astro';
import { onRequest } from '../../src/middleware';
import { missingSecurityHeaders } from './helpers/hostile';

/**
 * Pages rendered on request are function answers in production, where netlify.toml's header rules do
 * not apply (the local CLI applies them anyway, so the end-to-end header test cannot see a gap there).
 */
const page = (headers: Record<string, string> = {}) =>
  new Response('<!doctype html><title>x</title>', {
    status: 200,
    headers: { 'content-type': 'text/html', ...headers },
  });
const run = (isPrerendered: boolean, response: Response) =>
  onRequest({ isPrerendered } as APIContext, async () => response) as Promise<Response>;

describe('security headers on pages rendered on request', () => {
  it('adds every required header and keeps the page its own CSP, status and body', async () => {
    const csp = "default-src 'self'; script-src 'self' 'sha256-abc='; frame-ancestors 'none'";
    const answer = await run(
      false,
      new Response('not here', { status: 404, headers: { 'content-security-policy': csp } }),
    );
    expect(answer.status).toBe(404);
    expect(await answer.text()).toBe('not here');
    expect(answer.headers.get('content-security-policy')).toBe(csp);
    expect(missingSecurityHeaders(answer)).toEqual([]);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });

  it('works on answers with immutable headers (redirects)', async () => {
    const answer = await run(false, Response.redirect('http://localhost/blog', 301));
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe('http://localhost/blog');
    expect(answer.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('leaves pre-rendered pages to netlify.toml', async () => {
    const original = page();
    expect(await run(true, original)).toBe(original);
    expect(original.headers.get('strict-transport-security')).toBeNull();
  });
});
