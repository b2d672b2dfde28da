// A tiny stand-in for the CDN in front of the local Netlify server. Netlify's edge compresses
// responses and answers byte ranges; the CLI's offline server does neither. This proxy compresses
// text responses (brotli or gzip, as the browser asks) and answers Range requests for media,
// so local behaviour and measurements match production (video seeking included).
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

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

export function startCompressingProxy({ port, target }) {
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: { ...req.headers, host: req.headers.host ?? `localhost:${port}` } },
      (up) => {
        const type = String(up.headers['content-type'] ?? '');
        const accepts = String(req.headers['accept-encoding'] ?? '');
        const encoding = up.headers['content-encoding'] || !COMPRESSIBLE.test(type) || req.method === 'HEAD' || up.statusCode === 204 || up.statusCode === 304
          ? null
          : accepts.includes('br') ? 'br' : accepts.includes('gzip') ? 'gzip' : null;
        const headers = { ...up.headers };
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
