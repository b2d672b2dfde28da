// A tiny stand-in for the CDN in front of the local Netlify server. Netlify's edge compresses
// responses, answers byte ranges and keeps durable copies of function answers marked for it; the
// CLI's offline server does none of that. This proxy compresses text responses (brotli or gzip, as
// the browser asks), answers Range requests for media, and caches what the CDN would cache, so
// local behaviour and measurements match production (video seeking included).
//
// It is also the local site's front door, so nothing a visitor sends can take the site down: it answers
// a malformed address or one starting with `//` with 400 and a body over MAX_BODY_BYTES with 413 (the
// CLI throws on each and exits), passes the CLI a fixed Host of its own (it throws on a Host its URL
// parser rejects), refuses bodies to addresses no function answers (the CLI's static server answers 405
// while the body still arrives, then throws), reads each request body whole before passing it on, keeps
// the local-only endpoints (the purge API below and the CLI's /.netlify/ paths, e.g. the scheduled
// mail-retry function) to callers holding the secret generated at start, gives up on the CLI after
// UPSTREAM_TIMEOUT_MS (504), caches only complete answers, never lets the CLI's own port or X-Powered-By
// out, and replaces error answers that show stack traces or file paths with a short message.
import http from 'node:http';
import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { SECURITY_HEADERS } from '../src/server/http.ts';

/**
 * Largest request body passed on: 6 MB, Netlify's limit for a function's request payload, and under
 * the local CLI's own 6,000,000-byte limit (past which it throws and exits). An image upload (5 MB
 * at most, multipart) fits.
 */
export const MAX_BODY_BYTES = 6_000_000;
/** A body over the limit but under this is read to its end and dropped before the 413 (see readBody). */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
/** A body still incomplete after this long is refused (the CLI gives up after 30 s by throwing). */
const BODY_TIMEOUT_MS = 20_000;
/** The CLI gets this long to answer a request completely; then the visitor gets 504 (Netlify's own limit is 30 s). */
export const UPSTREAM_TIMEOUT_MS = 35_000;
/** Header a local caller (a function, a developer's curl) sends with the secret to reach local-only endpoints. */
export const LOCAL_SECRET_HEADER = 'x-local-secret';
const PURGE_PATH = '/api/v1/purge';
/** The project's folder, as it shows in paths of stack traces. */
const PROJECT_ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const KEEP_ALIVE_MS = 65_000;
/** Upstream headers never shown to visitors: the CLI's Express banner and its timings of internal fetches. */
const HIDDEN_HEADERS = ['x-powered-by', 'x-nf-fetch-timing'];
/**
 * Hop-by-hop headers describe the CLI's connection to this proxy, not the visitor's to it. The CLI closes its
 * connection after every answer (`Connection: close`); passed on, that made the visitor's browser open a new
 * connection for every file, where the CDN keeps one open (and Lighthouse then charged a handshake per request).
 */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'trailer', 'te'];
/** Headers from the CLI may be this long in all (its fetch timings grow with every blob a function reads). */
export const MAX_HEADER_BYTES = 1024 * 1024;

/** The path of a request line, decoded, or null when it is not a path or holds a malformed escape. */
export function checkedPath(url) {
  if (typeof url !== 'string' || !url.startsWith('/')) return null;
  const raw = url.split('?')[0];
  try {
    decodeURI(raw);
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * A request target the CLI would read as the address of another host (`//host/x`, `/\\host/x`): its URL parser
 * throws on `new URL('//[/x.png', base)`, and the CLI exits. Judged on what the CLI acts on, not only on the raw
 * target: it resolves dot segments (`.`, `..`, `%2e`) and reads a backslash as a slash, so `/.//[/x` and
 * `/a/..//[/x` become `//[/x` there. A target the URL parser cannot read at all is refused too.
 */
export function isHostRelative(url) {
  const hostRelative = (path) => /^\/[/\\]/.test(path);
  if (hostRelative(url)) return true;
  try {
    const resolved = new URL(url, 'http://local').pathname;
    const decoded = decodeURIComponent(resolved);
    return [resolved, decoded, new URL(decoded, 'http://local').pathname].some(hostRelative);
  } catch {
    return true;
  }
}

/** A Host header value safe to pass on: a name, IPv4 or bracketed IPv6 address, and a port from 1 to 65535. */
export function validHost(value) {
  if (typeof value !== 'string' || value.length > 255) return null;
  const match =
    /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)(?::(\d{1,5}))?$/i.exec(
      value,
    );
  if (!match || (match[2] !== undefined && (Number(match[2]) < 1 || Number(match[2]) > 65535))) return null;
  try {
    new URL(`http://${value}/`);
  } catch {
    return null;
  }
  return value;
}

/** Paths every function answers under, whatever the build declares: the API and the CLI's function URLs. */
const FUNCTION_PREFIXES = ['/api/', '/.netlify/functions/'];

/**
 * True when a request body may go to `url`'s path: under FUNCTION_PREFIXES or matching one of `routes`
 * (the paths the functions and the server-rendered pages declare, see scripts/lib/function-routes.mjs).
 * Both the path as the CLI resolves it and its decoded form must qualify.
 */
export function takesBody(url, routes = []) {
  let resolved;
  let decoded;
  try {
    resolved = new URL(url, 'http://local').pathname;
    decoded = new URL(decodeURIComponent(resolved), 'http://local').pathname;
  } catch {
    return false;
  }
  return [resolved, decoded].every(
    (path) => FUNCTION_PREFIXES.some((prefix) => path.startsWith(prefix)) || routes.some((route) => route.test(path)),
  );
}

/** True for paths only local callers may reach: the purge API and the CLI's internal /.netlify/ paths. */
export function isLocalOnly(rawPath, decodedPath) {
  return [rawPath, decodedPath].some((path) => {
    let normal = path
      .toLowerCase()
      .replace(/\\/g, '/')
      .replace(/\/{2,}/g, '/');
    try {
      normal = new URL(normal, 'http://local').pathname;
    } catch {
      /* keep the plain form */
    }
    return normal === '/.netlify' || normal.startsWith('/.netlify/') || normal.replace(/\/+$/, '') === PURGE_PATH;
  });
}

/** What a visitor reads instead of an error answer that shows internals (as the site's own forms say it). */
export const GENERIC_ERROR = 'Something went wrong. Please try again.';
const isApiPath = (url) => /^\/api(\/|\?|$)/i.test(url);

/**
 * True for text showing how the server is built: a stack trace line (`at fn (/path/file.js:1:2)`, also
 * inside JSON strings) or an absolute file path (this project's folder, file://, node_modules, a Unix
 * system folder, a Windows drive).
 */
export function leaksInternals(text) {
  return (
    text.includes(PROJECT_ROOT) ||
    /(?:^|\n|\\n|")\s*at\s[^\n"]*:\d+:\d+/.test(text) ||
    /file:\/\/|node:internal|\bnode_modules[\\/]/.test(text) ||
    /(?:^|[\s"'(=:,[])\/(?:home|work|usr|opt|var|tmp|root|Users|srv|app|mnt|private|etc|proc)\//.test(text) ||
    /(?:^|[\s"'(=:,[])[A-Za-z]:\\{1,2}[\w .-]+\\/.test(text)
  );
}

/** The proxy's own answers: JSON `{ message }` with the site's security headers. */
function refuse(res, status, message, extra = {}) {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    ...extra,
  });
  res.end(body);
}

/**
 * Reads a request body whole: a Buffer, or 'too-big' past `limit` bytes, or 'timeout'. A body over the
 * limit is still read to its end (and dropped) up to `drainLimit` bytes, so the client, still sending,
 * gets the 413 instead of a broken pipe; past that the answer goes out at once.
 */
function readBody(req, limit, timeoutMs, drainLimit = DRAIN_LIMIT_BYTES) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => finish(size > limit ? 'too-big' : 'timeout'), timeoutMs);
    req.on('data', (chunk) => {
      if (done) return;
      size += chunk.length;
      if (size > drainLimit) return finish('too-big');
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => finish(size > limit ? 'too-big' : Buffer.concat(chunks)));
    req.on('error', () => finish('timeout'));
    req.on('aborted', () => finish('timeout'));
  });
}

/** Replaces the CLI's own address (host:port) in a text stream, also across chunk boundaries. */
function scrubStream(pattern, replacement, keep) {
  let tail = '';
  return new Transform({
    transform(chunk, _encoding, callback) {
      const text = (tail + chunk.toString('latin1')).replace(pattern, replacement);
      const cut = Math.max(0, text.length - keep);
      tail = text.slice(cut);
      callback(null, Buffer.from(text.slice(0, cut), 'latin1'));
    },
    flush(callback) {
      callback(null, Buffer.from(tail.replace(pattern, replacement), 'latin1'));
    },
  });
}

const MEDIA = /^(video|audio)\//;

/** Answers a single `bytes=start-end` range from a buffered body, as a CDN would. */
function sendRange(res, headers, body, range) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(range);
  const size = body.length;
  let start = match && match[1] !== '' ? Number(match[1]) : NaN;
  let end = match && match[2] !== '' ? Number(match[2]) : size - 1;
  if (match && match[1] === '' && match[2] !== '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  }
  if (!match || Number.isNaN(start) || start >= size || start > end) {
    // Keep the file's own headers (security headers included), as the CDN would; only the body goes.
    const { 'content-length': _length, 'content-type': _type, ...kept } = headers;
    res.writeHead(416, { ...kept, 'content-range': `bytes */${size}` });
    return res.end();
  }
  end = Math.min(end, size - 1);
  res.writeHead(206, {
    ...headers,
    'accept-ranges': 'bytes',
    'content-range': `bytes ${start}-${end}/${size}`,
    'content-length': end - start + 1,
  });
  res.end(body.subarray(start, end + 1));
}

/**
 * CDN cache, as Netlify's edge keeps it: GET answers of functions with `Netlify-CDN-Cache-Control:
 * public, ... s-maxage=N`, keyed by the full URL, for N seconds, dropped early by a purge of any of
 * their `Netlify-Cache-Tag`s. Functions purge through POST /api/v1/purge on this proxy locally (see
 * src/server/cdn.ts), as they call Netlify's purge API in production. Requests with credentials are
 * never cached. Each restart starts empty, like a new deploy.
 */
const cdnCache = new Map();
const CACHE_LIMIT = 500;

function cacheLifetime(req, status, headers) {
  if (req.method !== 'GET' || req.headers.authorization || status !== 200) return 0;
  if (headers['set-cookie']) return 0;
  const rule = String(headers['netlify-cdn-cache-control'] ?? headers['cdn-cache-control'] ?? '');
  if (!/\bpublic\b/.test(rule) || /\b(private|no-store)\b/.test(rule)) return 0;
  return Number(/\b(?:s-maxage|max-age)=(\d+)/.exec(rule)?.[1] ?? 0);
}

const tagsOf = (headers) =>
  String(headers['netlify-cache-tag'] ?? headers['cache-tag'] ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/** POST /api/v1/purge {cache_tags}: the local answer to Netlify's purge API. */
function purge(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let tags = [];
    try {
      tags = JSON.parse(Buffer.concat(chunks).toString()).cache_tags ?? [];
    } catch {
      /* an empty or broken body purges nothing */
    }
    let dropped = 0;
    for (const [key, entry] of cdnCache) {
      if (entry.tags.some((tag) => tags.includes(tag))) {
        cdnCache.delete(key);
        dropped++;
      }
    }
    res.writeHead(202, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ purged: dropped }));
  });
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

/** The encoding the browser asks for (brotli first), for a type worth compressing; else null. */
function chosenEncoding(req, type) {
  if (!COMPRESSIBLE.test(type)) return null;
  const accepts = String(req.headers['accept-encoding'] ?? '');
  return accepts.includes('br') ? 'br' : accepts.includes('gzip') ? 'gzip' : null;
}

const CACHE_STATUS = {
  hit: '"Netlify Edge"; hit',
  stored: '"Netlify Edge"; fwd=miss; stored',
  miss: '"Netlify Edge"; fwd=miss',
};

/** Sends a buffered answer (a cache hit, or one just fetched: `stored` or not), compressed as the browser asks. */
function sendBuffered(req, res, { status, headers, body }, cache = 'hit') {
  const encoding = chosenEncoding(req, String(headers['content-type'] ?? ''));
  const out = { ...headers, 'cache-status': CACHE_STATUS[cache] };
  for (const hop of ['transfer-encoding', 'connection', 'keep-alive', 'content-length']) delete out[hop];
  let payload = body;
  if (encoding) {
    payload =
      encoding === 'br'
        ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
        : zlib.gzipSync(body, { level: 6 });
    out['content-encoding'] = encoding;
    out.vary = out.vary ? `${out.vary}, Accept-Encoding` : 'Accept-Encoding';
  }
  out['content-length'] = payload.length;
  res.writeHead(status, out);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

/**
 * Starts the proxy on `host` (127.0.0.1 unless told otherwise) and `port`, in front of the CLI on
 * 127.0.0.1:`target`. `secret` opens the local-only endpoints: as `Authorization: Bearer <secret>`
 * (the purge API, as src/server/cdn.ts calls it) or in the `x-local-secret` header. `bodyRoutes` gives
 * the paths besides /api/ and /.netlify/functions/ that take a request body (read from the build).
 *
 * @param {object} options
 * @param {number} options.port
 * @param {number} options.target
 * @param {string} [options.host]
 * @param {string} [options.secret]
 * @param {number} [options.maxBodyBytes]
 * @param {number} [options.bodyTimeoutMs]
 * @param {number} [options.upstreamTimeoutMs]
 * @param {() => RegExp[]} [options.bodyRoutes]
 * @param {(message: string) => void} [options.log]  where replaced error answers are written in full
 * @returns {Promise<import('node:http').Server>}
 */
export function startCompressingProxy({
  port,
  target,
  host = '127.0.0.1',
  secret,
  maxBodyBytes = MAX_BODY_BYTES,
  bodyTimeoutMs = BODY_TIMEOUT_MS,
  upstreamTimeoutMs = UPSTREAM_TIMEOUT_MS,
  bodyRoutes = () => [],
  log = (message) => console.error(message),
}) {
  const internal = new RegExp(`(?:localhost|127\\.0\\.0\\.1|\\[::1\\]|0\\.0\\.0\\.0):${target}(?!\\d)`, 'gi');
  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 502, 'The local site could not answer. Try again in a moment.');
      else res.destroy();
    });
  });

  async function handle(req, res) {
    const path = checkedPath(req.url);
    if (path === null || isHostRelative(req.url))
      return refuse(res, 400, 'Bad request: the address is malformed.', { connection: 'close' });
    const trusted =
      Boolean(secret) &&
      (req.headers.authorization === `Bearer ${secret}` || req.headers[LOCAL_SECRET_HEADER] === secret);
    if (isLocalOnly(req.url.split('?')[0], path) && !trusted) return refuse(res, 404, 'Not found');
    if (req.method === 'POST' && req.url === PURGE_PATH) return purge(req, res);

    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > DRAIN_LIMIT_BYTES) return refuse(res, 413, 'The request is too large.', { connection: 'close' });
    let body;
    if (declared > 0 || req.headers['transfer-encoding']) {
      body = await readBody(req, maxBodyBytes, bodyTimeoutMs);
      if (body === 'too-big') return refuse(res, 413, 'The request is too large.', { connection: 'close' });
      if (body === 'timeout') return refuse(res, 408, 'The request took too long to arrive.', { connection: 'close' });
      // A GET or HEAD never carries a body (the CLI answers one with a 500 to a function, or exits on a page), and
      // pages never take a body: only the functions do.
      const message = 'This address does not take a request body.';
      if (body.length > 0 && (req.method === 'GET' || req.method === 'HEAD'))
        return refuse(res, 400, 'A GET or HEAD request takes no body.', { connection: 'close' });
      if (body.length > 0 && !takesBody(req.url, bodyRoutes()))
        return refuse(res, 405, message, { allow: 'GET, HEAD', connection: 'close' });
    }
    return forward(req, res, body);
  }

  /** The address visitors used, when it is a valid one; otherwise the proxy's own. */
  const publicHostOf = (req) => validHost(req.headers.host) ?? `localhost:${port}`;

  /** Upstream headers as visitors may see them: no X-Powered-By, no internal timings, no CLI address. */
  function cleanHeaders(req, upstreamHeaders) {
    const publicHost = publicHostOf(req);
    const headers = {};
    for (const [name, value] of Object.entries(upstreamHeaders)) {
      if (HIDDEN_HEADERS.includes(name) || HOP_BY_HOP.includes(name) || value === undefined) continue;
      const scrub = (text) => String(text).replace(internal, publicHost);
      headers[name] = Array.isArray(value) ? value.map(scrub) : scrub(value);
    }
    return headers;
  }

  const scrubBody = (req, body) => {
    const text = body.toString('latin1');
    internal.lastIndex = 0;
    return internal.test(text) ? Buffer.from(text.replace(internal, publicHostOf(req)), 'latin1') : body;
  };

  /**
   * The request headers the CLI gets: its own address as Host (it builds a URL from the Host and exits when
   * that throws), the visitor's Host in X-Forwarded-Host only when it is a valid one, and none of the
   * headers it would otherwise build addresses from (`scheme`) or a visitor could claim them with.
   */
  function headersForCli(req, body) {
    const forwarded = { ...req.headers, host: `127.0.0.1:${target}` };
    for (const name of [LOCAL_SECRET_HEADER, 'scheme', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded'])
      delete forwarded[name];
    const original = validHost(req.headers.host);
    if (original) forwarded['x-forwarded-host'] = original;
    forwarded['x-forwarded-proto'] = 'http';
    if (body) {
      delete forwarded['transfer-encoding'];
      forwarded['content-length'] = String(body.length);
    }
    return forwarded;
  }

  /** An upstream error answer with a stack trace or file path: a short message instead, the original to the log. */
  function sendServerError(req, res, status, headers, raw) {
    const text = raw.toString('utf8');
    if (!headers['content-encoding'] && !leaksInternals(text)) {
      const out = { ...headers, 'content-length': raw.length };
      delete out['transfer-encoding'];
      res.writeHead(status, out);
      return res.end(req.method === 'HEAD' ? undefined : raw);
    }
    log(
      `[front door] ${req.method} ${req.url} answered ${status}; the details shown to the visitor were replaced:\n${text}`,
    );
    if (isApiPath(req.url)) return refuse(res, status, GENERIC_ERROR);
    const body = `${GENERIC_ERROR}\n`;
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function forward(req, res, body) {
    const cached =
      (req.method === 'GET' || req.method === 'HEAD') && !req.headers.authorization ? cdnCache.get(req.url) : undefined;
    if (cached && cached.expires > Date.now()) return sendBuffered(req, res, cached);
    if (cached) cdnCache.delete(req.url);

    let timedOut = false;
    const upstream = http.request({
      maxHeaderSize: MAX_HEADER_BYTES,
      host: '127.0.0.1',
      port: target,
      method: req.method,
      path: req.url,
      headers: headersForCli(req, body),
    });
    // The whole answer must arrive in time; a worker that never answers costs the visitor 35 s, not for ever.
    const timer = setTimeout(() => {
      timedOut = true;
      upstream.destroy(new Error('The local site took too long to answer'));
    }, upstreamTimeoutMs);
    const done = () => clearTimeout(timer);
    // An exchange that fails is answered once (the request and its answer may both report the failure):
    // 504 after the timeout, else `status`; an answer already under way is cut off.
    let failedOnce = false;
    const failed = (status, message) => {
      done();
      if (failedOnce) return;
      failedOnce = true;
      if (res.headersSent) return void res.destroy();
      if (timedOut) return refuse(res, 504, 'The local site took too long to answer. Try again in a moment.');
      refuse(res, status, message);
    };
    res.on('close', () => {
      done();
      if (!res.writableFinished) upstream.destroy();
    });

    upstream.on('response', (up) => {
      /** The upstream answer broke off (or timed out) after it began: the visitor gets an error, nothing is kept. */
      const broken = () => failed(502, 'The local site could not answer. Try again in a moment.');
      up.on('aborted', broken);
      up.on('error', broken);
      const status = up.statusCode ?? 502;
      /** Hands the whole body to `then`; one that ended early or differs from its Content-Length is a 502. */
      const collect = (then) => {
        const chunks = [];
        up.on('data', (chunk) => chunks.push(chunk));
        up.on('end', () => {
          done();
          const raw = Buffer.concat(chunks);
          // A HEAD answer (and 204, 304) declares the length of a body it never sends.
          const declared =
            req.method === 'HEAD' || status === 204 || status === 304 ? undefined : up.headers['content-length'];
          if (!up.complete || (declared !== undefined && Number(declared) !== raw.length)) return broken();
          then(raw);
        });
      };

      const type = String(up.headers['content-type'] ?? '');
      const textual = COMPRESSIBLE.test(type) && !up.headers['content-encoding'];
      const encoding =
        up.headers['content-encoding'] || req.method === 'HEAD' || status === 204 || status === 304
          ? null
          : chosenEncoding(req, type);
      const headers = cleanHeaders(req, up.headers);
      if (status >= 500) return collect((raw) => sendServerError(req, res, status, headers, scrubBody(req, raw)));
      const lifetime = cacheLifetime(req, status, headers);
      if (lifetime > 0 && !MEDIA.test(type)) {
        return collect((raw) => {
          const entry = {
            status: 200,
            headers,
            tags: tagsOf(headers),
            body: textual ? scrubBody(req, raw) : raw,
            expires: Date.now() + lifetime * 1000,
          };
          delete entry.headers['content-length'];
          // Only a complete, non-empty answer is kept: an empty one is passed on this once.
          if (raw.length === 0) return sendBuffered(req, res, entry, 'miss');
          if (cdnCache.size >= CACHE_LIMIT) cdnCache.delete(cdnCache.keys().next().value);
          cdnCache.set(req.url, entry);
          sendBuffered(req, res, entry, 'stored');
        });
      }
      if (MEDIA.test(type) && status === 200) {
        return collect((raw) => {
          if (req.headers.range) return sendRange(res, headers, raw, String(req.headers.range));
          res.writeHead(200, { ...headers, 'accept-ranges': 'bytes', 'content-length': raw.length });
          res.end(req.method === 'HEAD' ? undefined : raw);
        });
      }
      up.on('end', done);
      // Text bodies pass through a filter that replaces the CLI's own address with the public one.
      const scrub = textual && req.method !== 'HEAD' && status !== 204 && status !== 304;
      if (encoding || scrub) delete headers['content-length'];
      if (encoding) {
        headers['content-encoding'] = encoding;
        headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
      }
      res.writeHead(status, headers);
      let stream = up;
      if (scrub) stream = stream.pipe(scrubStream(internal, publicHostOf(req), 40));
      if (!encoding) return void stream.pipe(res);
      const compressor =
        encoding === 'br'
          ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
          : zlib.createGzip({ level: 6 });
      stream.pipe(compressor).pipe(res);
    });
    upstream.on('error', () => failed(502, 'The local site is still starting. Try again in a moment.'));
    upstream.end(body);
  }

  // An idle kept-alive connection is closed after this long. Node's default (5 s) races with clients that keep
  // connections without a timeout of their own (Node's agents, Playwright): a request sent on a connection the
  // moment it is closed fails with ECONNRESET, and a POST is not retried (2 of 80 form posts, a round after a
  // slower one). A CDN keeps connections open for a minute or more; so does this.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
