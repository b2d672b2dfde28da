/**
 * No request target, Host or header set stops the local site: 20,000 generated requests sent on raw connections
 * (so nothing normalises them on the way) to the real `npm start`, mixing dot segments (plain and encoded), slashes
 * and backslashes, brackets, malformed escapes and the API's own paths, with hostile Host and forwarding headers.
 * Every one is answered, none with a 5xx (a CLI that exits makes the front door answer 502 until it is back), and
 * the home page keeps answering throughout. Before the front door judged targets as the CLI resolves them,
 * `GET /.//[/x` stopped the site for over two minutes.
 * FRONT_DOOR_SEED=<seed> repeats a run; FRONT_DOOR_RUNS changes the count. Runs after the other projects, alone.
 */
import net from 'node:net';
import fc from 'fast-check';
import { test, expect } from '@playwright/test';

const RUNS = Number(process.env.FRONT_DOOR_RUNS ?? 20_000);
const SEED = Number(process.env.FRONT_DOOR_SEED ?? Date.now() % 2_147_483_647);
const AT_ONCE = 8;

const segment = fc.oneof(
  fc.constantFrom(
    '',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2e%2e',
    '.%2e',
    '%2e.',
    '%2f',
    '%2F',
    '%5c',
    '%5C',
    '[',
    ']',
    '[::1]',
    '@',
    ':',
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%0a',
    '~',
    'x.png',
    'api',
    'admin',
    '.netlify',
    'functions',
    'mail-retry',
    'blog',
    'search',
    'courses',
    'CPC30220',
    'index.html',
    'evil.example',
  ),
  fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@%-]{1,8}$/),
);
const separator = fc.constantFrom('/', '/', '/', '\\', '//', '/./', '/../');
const target = fc
  .tuple(
    fc.constantFrom('/', '//', '/\\', '/./', '/../', '/.//', '/api/', '/blog/', '/.netlify/'),
    fc.array(fc.tuple(segment, separator), { maxLength: 6 }),
    segment,
    fc.option(fc.constantFrom('?search=a', '?q=%2e%2e', '?a=//b', '?', '#x'), { nil: '' }),
  )
  .map(([start, parts, last, query]) => `${start}${parts.map(([s, sep]) => `${s}${sep}`).join('')}${last}${query}`)
  // A request line has no spaces or line breaks: the HTTP parser refuses those before any code sees them.
  .filter((path) => !/[\s]/.test(path));
const host = fc.constantFrom(
  'localhost',
  'localhost:8888',
  '127.0.0.1',
  '[',
  'a b',
  '',
  '127.0.0.1:99999',
  '[::1]:8888',
  'evil.example',
  '%2e%2e',
  '..',
  'localhost:0',
);
const extraHeaders = fc.subarray([
  'X-Forwarded-For: 203.0.113.9',
  'X-Forwarded-Host: [',
  'X-Forwarded-Proto: javascript',
  'Forwarded: for=[;host=//evil',
  'Scheme: a b',
  'X-Original-URL: //[/x',
  'X-Rewrite-URL: /.//[/x',
  'Accept-Encoding: br, gzip',
  'Range: bytes=0-10',
]);
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'DELETE');

/** Sends one request exactly as written and answers the status code (0 when no answer came). */
function send(port: number, head: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (/^HTTP\/1\.1 \d{3}/.test(answer)) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.setTimeout(40_000, () => socket.destroy());
    socket.write(head);
  });
}

test('20,000 generated request targets, hosts and header sets: every one answered, none with a 5xx, the site up throughout', {
  tag: ['@after-others'],
}, async ({ baseURL }) => {
  test.setTimeout(900_000);
  const port = Number(new URL(baseURL!).port);
  const requests = fc.sample(fc.tuple(method, target, host, extraHeaders), { numRuns: RUNS, seed: SEED });
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  let health = 0;
  const worker = async () => {
    for (let i = next++; i < requests.length; i = next++) {
      const [verb, path, hostValue, headers] = requests[i];
      const head = [`${verb} ${path} HTTP/1.1`, `Host: ${hostValue}`, ...headers, 'Connection: close', '', ''].join(
        '\r\n',
      );
      const status = await send(port, head);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 0 || status >= 500) failures.push(`${status} ${JSON.stringify(head)}`);
      if (i % 500 === 0) {
        const home = await send(port, 'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
        if (home !== 200) failures.push(`home page answered ${home} after request ${i}`);
        health++;
      }
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  console.log(
    `front door: ${requests.length} requests (seed ${SEED}), ${health} health checks; statuses ${JSON.stringify(
      Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    )}`,
  );
  expect(failures.slice(0, 20), `seed ${SEED}: ${failures.length} failures`).toEqual([]);
});
