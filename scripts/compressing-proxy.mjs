// A tiny stand-in for the CDN in front of the local Netlify server. Netlify's edge compresses
// responses, answers byte ranges and keeps durable copies of function answers marked for it; the
// CLI's offline server does none of that. This proxy compresses text responses (brotli or gzip, as
// the browser asks), answers Range requests for media, and caches what the CDN would cache, so
// local behaviour and measurements match production (video seeking included).
import http from 'node:http';
import zlib from 'node:zlib';

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
  res.writeHead(206, { ...headers, 'accept-ranges': 'bytes', 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
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
  String(headers['netlify-cache-tag'] ?? headers['cache-tag'] ?? '').split(',').map((tag) => tag.trim()).filter(Boolean);

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

/** Sends a buffered answer (a cache hit), compressed as the browser asks. */
function sendBuffered(req, res, { status, headers, body }, hit = true) {
  const type = String(headers['content-type'] ?? '');
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const encoding = !COMPRESSIBLE.test(type) ? null : accepts.includes('br') ? 'br' : accepts.includes('gzip') ? 'gzip' : null;
  const out = { ...headers, 'cache-status': hit ? '"Netlify Edge"; hit' : '"Netlify Edge"; fwd=miss; stored' };
  for (const hop of ['transfer-encoding', 'connection', 'keep-alive', 'content-length']) delete out[hop];
  let payload = body;
  if (encoding) {
    payload = encoding === 'br'
      ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
      : zlib.gzipSync(body, { level: 6 });
    out['content-encoding'] = encoding;
    out.vary = out.vary ? `${out.vary}, Accept-Encoding` : 'Accept-Encoding';
  }
  out['content-length'] = payload.length;
  res.writeHead(status, out);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

export function startCompressingProxy({ port, target }) {
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/v1/purge' && req.headers.authorization === 'Bearer local-cdn') return purge(req, res);
    const cached = (req.method === 'GET' || req.method === 'HEAD') && !req.headers.authorization ? cdnCache.get(req.url) : undefined;
    if (cached && cached.expires > Date.now()) return sendBuffered(req, res, cached);
    if (cached) cdnCache.delete(req.url);

    const upstream = http.request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: { ...req.headers, host: req.headers.host ?? `localhost:${port}` } },
      (up) => {
        const type = String(up.headers['content-type'] ?? '');
        const accepts = String(req.headers['accept-encoding'] ?? '');
        const encoding = up.headers['content-encoding'] || !COMPRESSIBLE.test(type) || req.method === 'HEAD' || up.statusCode === 204 || up.statusCode === 304
          ? null
          : accepts.includes('br') ? 'br' : accepts.includes('gzip') ? 'gzip' : null;
        const headers = { ...up.headers };
        const lifetime = cacheLifetime(req, up.statusCode, headers);
        if (lifetime > 0 && !MEDIA.test(type)) {
          const chunks = [];
          up.on('data', (chunk) => chunks.push(chunk));
          up.on('end', () => {
            const entry = { status: 200, headers, tags: tagsOf(headers), body: Buffer.concat(chunks), expires: Date.now() + lifetime * 1000 };
            delete entry.headers['content-length'];
            if (cdnCache.size >= CACHE_LIMIT) cdnCache.delete(cdnCache.keys().next().value);
            cdnCache.set(req.url, entry);
            sendBuffered(req, res, entry, false);
          });
          return;
        }
        if (MEDIA.test(type) && up.statusCode === 200) {
          const chunks = [];
          up.on('data', (chunk) => chunks.push(chunk));
          up.on('end', () => {
            const body = Buffer.concat(chunks);
            if (req.headers.range) return sendRange(res, headers, body, String(req.headers.range));
            res.writeHead(200, { ...headers, 'accept-ranges': 'bytes', 'content-length': body.length });
            res.end(req.method === 'HEAD' ? undefined : body);
          });
          return;
        }
        if (encoding) {
          delete headers['content-length'];
          headers['content-encoding'] = encoding;
          headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
        }
        res.writeHead(up.statusCode ?? 502, headers);
        if (!encoding) return void up.pipe(res);
        const compressor = encoding === 'br'
          ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
          : zlib.createGzip({ level: 6 });
        up.pipe(compressor).pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('The local site is still starting. Try again in a moment.');
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(port, () => resolve(server)));
}
