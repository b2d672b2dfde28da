/**
 * A small implementation of Mozilla's HTTP Observatory scoring (the current MDN HTTP Observatory:
 * github.com/mdn/mdn-http-observatory, src/analyzer/tests/*.js, src/grader/charts.js, src/scanner/index.js;
 * methodology at developer.mozilla.org/en-US/observatory/docs/tests_and_scoring). Result ids and score
 * modifiers are theirs. Scoring: start at 100, add every penalty; only if the result is still 90 or more,
 * add the bonuses too. Grade: the score rounded down to a multiple of 5 (capped at 100) in their chart;
 * 100 and above is A+.
 *
 * Implemented tests: content-security-policy, cookies, cross-origin-resource-sharing, referrer-policy,
 * strict-transport-security, subresource-integrity, x-content-type-options, x-frame-options,
 * cross-origin-resource-policy, cross-origin-opener-policy, cross-origin-embedder-policy.
 * Not applicable locally: redirection (the local server speaks plain http; Netlify redirects http to https
 * on the same host) and the HSTS preload list (hsts-preloaded bonus is never awarded here). HSTS is judged
 * from the header as if the answer came over https, as it does in production.
 */

export interface ScanInput {
  url: string;
  /** Header name (lower case) -> every value sent under that name. */
  headers: Record<string, string[]>;
  body?: string;
  /** Headers of the same address requested with `Origin: https://evil.example` (CORS probe). */
  corsHeaders?: Record<string, string[]>;
}

export interface TestResult {
  test: string;
  result: string;
  modifier: number;
}

export interface Scan {
  score: number;
  grade: string;
  results: TestResult[];
}

const MODIFIERS: Record<string, number> = {
  'csp-implemented-with-no-unsafe-default-src-none': 10,
  'csp-implemented-with-no-unsafe': 5,
  'csp-implemented-with-unsafe-inline-in-style-src-only': 0,
  'csp-implemented-with-insecure-scheme-in-passive-content-only': -10,
  'csp-implemented-with-unsafe-eval': -10,
  'csp-implemented-with-unsafe-inline': -20,
  'csp-implemented-with-insecure-scheme': -20,
  'csp-header-invalid': -25,
  'csp-not-implemented': -25,
  'csp-not-implemented-but-reporting-enabled': -25,
  'csp-implemented-but-duplicate-directives': 0,
  'cookies-secure-with-httponly-sessions-and-samesite': 5,
  'cookies-secure-with-httponly-sessions': 0,
  'cookies-not-found': 0,
  'cookies-without-secure-flag-but-protected-by-hsts': -5,
  'cookies-session-without-secure-flag-but-protected-by-hsts': -10,
  'cookies-without-secure-flag': -20,
  'cookies-samesite-flag-invalid': -20,
  'cookies-anticsrf-without-samesite-flag': -20,
  'cookies-session-without-httponly-flag': -30,
  'cookies-session-without-secure-flag': -40,
  'cross-origin-resource-sharing-not-implemented': 0,
  'cross-origin-resource-sharing-implemented-with-public-access': 0,
  'cross-origin-resource-sharing-implemented-with-restricted-access': 0,
  'cross-origin-resource-sharing-implemented-with-universal-access': -50,
  'referrer-policy-private': 5,
  'referrer-policy-not-implemented': 0,
  'referrer-policy-unsafe': -5,
  'referrer-policy-header-invalid': -5,
  'hsts-implemented-max-age-at-least-six-months': 0,
  'hsts-implemented-max-age-less-than-six-months': -10,
  'hsts-not-implemented': -20,
  'hsts-header-invalid': -20,
  'sri-implemented-and-all-scripts-loaded-securely': 5,
  'sri-implemented-and-external-scripts-loaded-securely': 5,
  'sri-not-implemented-response-not-html': 0,
  'sri-not-implemented-but-no-scripts-loaded': 0,
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin': 0,
  'sri-not-implemented-but-external-scripts-loaded-securely': -5,
  'sri-implemented-but-external-scripts-not-loaded-securely': -20,
  'sri-not-implemented-and-external-scripts-not-loaded-securely': -50,
  'x-content-type-options-nosniff': 0,
  'x-content-type-options-not-implemented': -5,
  'x-content-type-options-header-invalid': -5,
  'x-frame-options-implemented-via-csp': 5,
  'x-frame-options-sameorigin-or-deny': 5,
  'x-frame-options-allow-from-origin': 0,
  'x-frame-options-not-implemented': -20,
  'x-frame-options-header-invalid': -20,
  'corp-header-invalid': -5,
  'corp-implemented-with-cross-origin': 0,
  'corp-implemented-with-same-origin': 10,
  'corp-implemented-with-same-site': 10,
  'corp-not-implemented': 0,
  'coep-implemented-with-require-corp': 10,
  'coep-implemented-with-credentialless': 10,
  'coep-implemented-with-unsafe-none': 0,
  'coep-not-implemented': 0,
  'coep-header-invalid': -5,
  'coop-implemented-with-same-origin': 10,
  'coop-implemented-with-same-origin-allow-popups': 10,
  'coop-implemented-with-noopener-allow-popups': 10,
  'coop-implemented-with-unsafe-none': 0,
  'coop-not-implemented': 0,
  'coop-header-invalid': -5,
};

const GRADES: [number, string][] = [
  [100, 'A+'],
  [90, 'A'],
  [85, 'A-'],
  [80, 'B+'],
  [70, 'B'],
  [65, 'B-'],
  [60, 'C+'],
  [50, 'C'],
  [45, 'C-'],
  [40, 'D+'],
  [30, 'D'],
  [25, 'D-'],
  [0, 'F'],
];

export function gradeFor(score: number): string {
  const key = Math.min(Math.max(score, 0) - (Math.max(score, 0) % 5), 100);
  return GRADES.find(([min]) => key >= min)![1];
}

const values = (headers: Record<string, string[]> | undefined, name: string) => headers?.[name.toLowerCase()] ?? [];

/* ---------- content-security-policy (csp.js, cspParser.js) ---------- */

const DANGEROUSLY_BROAD = new Set([
  'ftp:',
  'http:',
  'https:',
  '*',
  'http://*',
  'http://*.*',
  'https://*',
  'https://*.*',
]);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", 'data:']);
const BROAD_OR_INLINE = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const NONCE_OR_HASH = /^'(sha256-|sha384-|sha512-|nonce-)/;

/** Parses one or more policies; several policies all apply, so a source counts only if every policy naming the directive allows it. */
export function parseCsp(policies: string[]): Map<string, Set<string>> {
  const combined = new Map<string, Set<string>>();
  for (const policy of policies) {
    const text = policy.replace(/[\r\n]/g, '').trim();
    if (text.length < 'img-src'.length - 1) throw new Error(`Invalid policy: ${text}`);
    const seen = new Set<string>();
    for (const entry of text.split(';')) {
      const [rawName, ...sources] = entry.trim().split(/\s+/);
      if (!rawName) continue;
      const name = rawName.toLowerCase();
      if (seen.has(name) && name !== 'report-uri' && name !== 'report-to')
        throw new Error(`Duplicate directive ${name}`);
      seen.add(name);
      const list = new Set(
        sources.length ? sources.map((s) => s.toLowerCase()) : name.endsWith('-src') ? ["'none'"] : [],
      );
      const earlier = combined.get(name);
      const kept = earlier ? new Set([...list].filter((s) => earlier.has(s))) : list;
      combined.set(name, kept.size || !earlier ? kept : new Set(["'none'"]));
    }
  }
  return combined;
}

function metaCsp(body: string | undefined): string[] {
  if (!body) return [];
  const found: string[] = [];
  for (const match of body.matchAll(/<meta\b[^>]*http-equiv=["']?content-security-policy["']?[^>]*>/gi)) {
    const content = /content=("([^"]*)"|'([^']*)')/i.exec(match[0]);
    if (content) found.push(content[2] ?? content[3] ?? '');
  }
  return found;
}

function cspTest(input: ScanInput): { result: string; csp: Map<string, Set<string>> | null } {
  const header = values(input.headers, 'content-security-policy').flatMap((v) => v.split(',').map((s) => s.trim()));
  const meta = metaCsp(input.body);
  if (header.length + meta.length === 0) {
    return {
      result: values(input.headers, 'content-security-policy-report-only').length
        ? 'csp-not-implemented-but-reporting-enabled'
        : 'csp-not-implemented',
      csp: null,
    };
  }
  let csp: Map<string, Set<string>>;
  let headerOnly: Map<string, Set<string>>;
  try {
    csp = parseCsp([...header, ...meta]);
    headerOnly = header.length ? parseCsp(header) : new Map();
  } catch {
    return { result: 'csp-header-invalid', csp: null };
  }
  const get = (name: string) => csp.get(name);
  const scriptSrc = new Set(get('script-src') ?? get('default-src') ?? ['*']);
  const styleSrc = new Set(get('style-src') ?? get('default-src') ?? ['*']);
  const objectSrc = new Set(get('object-src') ?? get('default-src') ?? ['*']);
  for (const list of [scriptSrc, styleSrc])
    if ([...list].some((s) => NONCE_OR_HASH.test(s))) list.delete("'unsafe-inline'");
  let result: string | null = null;
  if (scriptSrc.has("'strict-dynamic'")) {
    if ([...scriptSrc].some((s) => NONCE_OR_HASH.test(s))) {
      for (const s of [...scriptSrc])
        if ([...DANGEROUSLY_BROAD].some((b) => s.startsWith(b)) || s === "'self'" || s === "'unsafe-inline'")
          scriptSrc.delete(s);
    } else result = 'csp-header-invalid';
  }
  const https = true; // production is served over https only
  const active = [...csp]
    .filter(([d]) => d !== 'img-src' && d !== 'media-src' && d !== 'script-src')
    .flatMap(([, s]) => [...s])
    .concat([...scriptSrc]);
  const passive = ['img-src', 'media-src'].flatMap((d) => [...(get(d) ?? get('default-src') ?? [])]);
  const insecure = (s: string) => s.startsWith('http:') || s.startsWith('ftp:');
  if ([...scriptSrc].some((s) => BROAD_OR_INLINE.has(s)) || [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s)))
    result ??= 'csp-implemented-with-unsafe-inline';
  if (https && active.some(insecure)) result ??= 'csp-implemented-with-insecure-scheme';
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) result ??= 'csp-implemented-with-unsafe-eval';
  if (https && passive.some(insecure)) result ??= 'csp-implemented-with-insecure-scheme-in-passive-content-only';
  if ([...styleSrc].some((s) => BROAD_OR_INLINE.has(s)))
    result ??= 'csp-implemented-with-unsafe-inline-in-style-src-only';
  const defaultSrc = get('default-src');
  result ??=
    defaultSrc?.has("'none'") && defaultSrc.size === 1
      ? 'csp-implemented-with-no-unsafe-default-src-none'
      : 'csp-implemented-with-no-unsafe';
  // frame-ancestors only counts from a header (x-frame-options.js reads csp.data, built from the header and meta alike; meta drops frame-ancestors).
  if (!headerOnly.has('frame-ancestors')) csp.delete('frame-ancestors');
  return { result, csp };
}

/* ---------- the other tests ---------- */

function hstsTest(input: ScanInput): string {
  const header = values(input.headers, 'strict-transport-security');
  if (!header.length) return 'hsts-not-implemented';
  const text = header.join(', ').slice(0, 1024);
  if (text.includes(',')) return 'hsts-header-invalid'; // set twice
  const maxAge = /(?:^|;)\s*max-age=(\d+)/i.exec(text);
  if (!maxAge) return 'hsts-header-invalid';
  return Number(maxAge[1]) < 15_768_000
    ? 'hsts-implemented-max-age-less-than-six-months'
    : 'hsts-implemented-max-age-at-least-six-months';
}

function referrerTest(input: ScanInput): string {
  const good = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
  const bad = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];
  const header = values(input.headers, 'referrer-policy');
  if (!header.length) return 'referrer-policy-not-implemented';
  const policy =
    header
      .join(', ')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => good.includes(s) || bad.includes(s))
      .at(-1) ?? '';
  return good.includes(policy)
    ? 'referrer-policy-private'
    : bad.includes(policy)
      ? 'referrer-policy-unsafe'
      : 'referrer-policy-header-invalid';
}

function xctoTest(input: ScanInput): string {
  const header = values(input.headers, 'x-content-type-options')[0];
  if (header === undefined) return 'x-content-type-options-not-implemented';
  return header.trim().toLowerCase() === 'nosniff'
    ? 'x-content-type-options-nosniff'
    : 'x-content-type-options-header-invalid';
}

function xfoTest(input: ScanInput, csp: Map<string, Set<string>> | null): string {
  if (csp?.has('frame-ancestors')) return 'x-frame-options-implemented-via-csp';
  const header = values(input.headers, 'x-frame-options')[0];
  if (header === undefined) return 'x-frame-options-not-implemented';
  const value = header.trim().toLowerCase();
  return value === 'deny' || value === 'sameorigin'
    ? 'x-frame-options-sameorigin-or-deny'
    : value.startsWith('allow-from')
      ? 'x-frame-options-allow-from-origin'
      : 'x-frame-options-header-invalid';
}

function corpTest(input: ScanInput): string {
  const header = values(input.headers, 'cross-origin-resource-policy').join(', ').slice(0, 256).trim().toLowerCase();
  if (!header) return 'corp-not-implemented';
  return (
    (
      {
        'same-site': 'corp-implemented-with-same-site',
        'same-origin': 'corp-implemented-with-same-origin',
        'cross-origin': 'corp-implemented-with-cross-origin',
      } as Record<string, string>
    )[header] ?? 'corp-header-invalid'
  );
}

function tokenPolicy(input: ScanInput, name: string, prefix: string, known: string[]): string {
  const header = values(input.headers, name);
  if (!header.length) return `${prefix}-not-implemented`;
  if (header.length > 1) return `${prefix}-header-invalid`;
  const token = /^([a-z][a-z0-9-]*)\s*(?:;.*)?$/.exec(header[0].trim())?.[1];
  return token && known.includes(token) ? `${prefix}-implemented-with-${token}` : `${prefix}-header-invalid`;
}

function corsTest(input: ScanInput): string {
  const acao = values(input.corsHeaders ?? input.headers, 'access-control-allow-origin')[0];
  if (!acao) return 'cross-origin-resource-sharing-not-implemented';
  if (acao.trim() === '*') return 'cross-origin-resource-sharing-implemented-with-public-access';
  const credentials = values(input.corsHeaders ?? input.headers, 'access-control-allow-credentials')[0];
  if (acao.trim() === 'https://evil.example' && credentials?.trim().toLowerCase() === 'true')
    return 'cross-origin-resource-sharing-implemented-with-universal-access';
  return 'cross-origin-resource-sharing-implemented-with-restricted-access';
}

function cookiesTest(input: ScanInput, hstsOk: boolean): string {
  const cookies = values(input.headers, 'set-cookie');
  if (!cookies.length) return 'cookies-not-found';
  const order = [
    'cookies-without-secure-flag-but-protected-by-hsts',
    'cookies-without-secure-flag',
    'cookies-session-without-secure-flag-but-protected-by-hsts',
    'cookies-samesite-flag-invalid',
    'cookies-anticsrf-without-samesite-flag',
    'cookies-session-without-httponly-flag',
    'cookies-session-without-secure-flag',
  ];
  let worst: string | null = null;
  const worse = (result: string) => {
    if (!worst || order.indexOf(result) > order.indexOf(worst)) worst = result;
  };
  let missingSameSite = false;
  for (const cookie of cookies) {
    const [pair, ...attrs] = cookie.split(';').map((s) => s.trim());
    const name = pair.split('=')[0].toLowerCase();
    const flags = new Map(
      attrs.map((a) => {
        const [k, v = ''] = a.split('=');
        return [k.toLowerCase(), v.toLowerCase()] as const;
      }),
    );
    const secure = flags.has('secure');
    const sameSite = flags.get('samesite');
    const session = ['login', 'sess'].some((s) => name.includes(s));
    if (sameSite !== undefined && !['strict', 'lax', 'none'].includes(sameSite)) worse('cookies-samesite-flag-invalid');
    if (!secure && sameSite === 'none') worse('cookies-samesite-flag-invalid');
    if (!secure) worse(hstsOk ? 'cookies-without-secure-flag-but-protected-by-hsts' : 'cookies-without-secure-flag');
    if (name.includes('csrf') && sameSite === undefined) worse('cookies-anticsrf-without-samesite-flag');
    if (session && !secure)
      worse(
        hstsOk ? 'cookies-session-without-secure-flag-but-protected-by-hsts' : 'cookies-session-without-secure-flag',
      );
    if (session && !flags.has('httponly')) worse('cookies-session-without-httponly-flag');
    if (sameSite === undefined) missingSameSite = true;
  }
  return (
    worst ??
    (missingSameSite ? 'cookies-secure-with-httponly-sessions' : 'cookies-secure-with-httponly-sessions-and-samesite')
  );
}

function sriTest(input: ScanInput): string {
  const type = (values(input.headers, 'content-type')[0] ?? '').split(';')[0].trim().toLowerCase();
  if (type && type !== 'text/html' && type !== 'application/xhtml+xml') return 'sri-not-implemented-response-not-html';
  const scripts = [...(input.body ?? '').matchAll(/<script\b([^>]*)>/gi)].map((m) => m[1]);
  if (!scripts.length) return 'sri-not-implemented-but-no-scripts-loaded';
  const order = [
    'sri-implemented-and-all-scripts-loaded-securely',
    'sri-implemented-and-external-scripts-loaded-securely',
    'sri-implemented-but-external-scripts-not-loaded-securely',
    'sri-not-implemented-but-external-scripts-loaded-securely',
    'sri-not-implemented-and-external-scripts-not-loaded-securely',
    'sri-not-implemented-response-not-html',
  ];
  let result: string | null = null;
  let foreign = false;
  const host = new URL(input.url).hostname;
  for (const attrs of scripts) {
    const src = /\bsrc=["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (!src) continue;
    const integrity = /\bintegrity=/i.test(attrs);
    const protocolRelative = /^\/\/[^/]/.test(src);
    const absolute = /^https?:\/\//i.test(src);
    const sameSite =
      protocolRelative ||
      !absolute ||
      new URL(src).hostname.split('.').slice(-2).join('.') === host.split('.').slice(-2).join('.');
    const secureOrigin = !absolute && !protocolRelative ? true : sameSite && !protocolRelative;
    const secureScheme = absolute ? src.toLowerCase().startsWith('https:') : !protocolRelative; // production is https
    if (!secureOrigin) {
      foreign = true;
      const next =
        integrity && !secureScheme ? order[2] : !integrity && secureScheme ? order[3] : !integrity ? order[4] : null;
      if (next && (!result || order.indexOf(next) > order.indexOf(result))) result = next;
    } else if (integrity && secureScheme && !result) result = order[0];
  }
  return (
    result ??
    (foreign
      ? 'sri-implemented-and-external-scripts-loaded-securely'
      : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin')
  );
}

/** Scores one answer the way the Observatory scores a site's front page. */
export function scan(input: ScanInput): Scan {
  const { result: csp, csp: policy } = cspTest(input);
  const hsts = hstsTest(input);
  const results: TestResult[] = [
    ['content-security-policy', csp],
    ['cookies', cookiesTest(input, hsts === 'hsts-implemented-max-age-at-least-six-months')],
    [
      'cross-origin-embedder-policy',
      tokenPolicy(input, 'cross-origin-embedder-policy', 'coep', ['require-corp', 'credentialless', 'unsafe-none']),
    ],
    [
      'cross-origin-opener-policy',
      tokenPolicy(input, 'cross-origin-opener-policy', 'coop', [
        'same-origin',
        'same-origin-allow-popups',
        'noopener-allow-popups',
        'unsafe-none',
      ]),
    ],
    ['cross-origin-resource-sharing', corsTest(input)],
    ['referrer-policy', referrerTest(input)],
    ['strict-transport-security', hsts],
    ['subresource-integrity', sriTest(input)],
    ['x-content-type-options', xctoTest(input)],
    ['x-frame-options', xfoTest(input, policy)],
    ['cross-origin-resource-policy', corpTest(input)],
  ].map(([test, result]) => ({ test, result, modifier: MODIFIERS[result] ?? 0 }));
  const penalties = results.reduce((sum, r) => sum + Math.min(0, r.modifier), 100);
  const withBonus = results.reduce((sum, r) => sum + r.modifier, 100);
  const score = Math.max(0, penalties >= 90 ? withBonus : penalties);
  return { score, grade: gradeFor(score), results };
}

/** Headers as the Observatory sees them: every value of each name, names in lower case. */
export function headerMap(list: { name: string; value: string }[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const { name, value } of list) {
    const key = name.toLowerCase();
    map[key] = [...(map[key] ?? []), value];
  }
  return map;
}

/** The headers every answer of the site must carry, whatever its status or type. */
export function missingRequired(headers: Record<string, string[]>): string[] {
  const one = (name: string) => values(headers, name).join(', ');
  const problems: string[] = [];
  const csp = one('content-security-policy');
  if (!csp) problems.push('Content-Security-Policy');
  else {
    if (!/frame-ancestors\s+'none'/i.test(csp)) problems.push("CSP frame-ancestors 'none'");
    if (/script-src[^;]*'unsafe-inline'|'unsafe-eval'/i.test(csp)) problems.push('CSP without unsafe scripts');
  }
  if (!/max-age=\d{8,}/.test(one('strict-transport-security'))) problems.push('Strict-Transport-Security');
  if (one('x-content-type-options').toLowerCase() !== 'nosniff') problems.push('X-Content-Type-Options');
  if (!one('referrer-policy')) problems.push('Referrer-Policy');
  if (!one('permissions-policy')) problems.push('Permissions-Policy');
  return problems;
}
