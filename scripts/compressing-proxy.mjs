// A tiny stand-in for the CDN in front of the local Netlify server: production responses are
// compressed at Netlify's edge, the CLI's offline server sends them raw. This proxy compresses
// text responses (brotli or gzip, as the browser asks) so local measurements match production.
import http from 'node:http';
import zlib from 'node:zlib';

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
