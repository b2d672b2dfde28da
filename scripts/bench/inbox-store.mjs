// Times the inbox's own work, without the Netlify CLI: the store module (src/server/inquiries.ts) against
// a local blob server on a workspace's seeded store, in this process: pages, and the CSV export's first
// rows. Prints one JSON line.
// Usage (from a bench workspace): node scripts/bench/inbox-store.mjs <count>
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { join } from 'node:path';
import { inquiriesCsvStream } from '../../src/server/inquiry-csv.ts';
import { listInquiries } from '../../src/server/inquiry-inbox.ts';

const count = Number(process.argv[2] ?? 0);
const token = 'bench-inbox-store';
const server = new BlobsServer({ directory: join(process.cwd(), '.netlify', 'blobs-serve'), token });
const { port } = await server.start();
const edgeURL = `http://localhost:${port}`;
// `netlify serve` keeps an unlinked site's stores under the site id "unlinked".
setEnvironmentContext({ siteID: 'unlinked', token, edgeURL, uncachedEdgeURL: edgeURL });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pages = [
  ['page 1 (all, 25)', { status: 'all', offset: 0, limit: 25 }],
  ['page 1 (new, 25)', { status: 'new', offset: 0, limit: 25 }],
  ['middle page (all, 25)', { status: 'all', offset: Math.floor(count / 2), limit: 25 }],
  ['last page (all, 25)', { status: 'all', offset: Math.max(0, count - 25), limit: 25 }],
  [
    'search by e-mail (all, 25)',
    { status: 'all', offset: 0, limit: 25, q: `bench${Math.floor(count / 2)}@example.invalid` },
  ],
  ['search by title word (new, 25)', { status: 'new', offset: 0, limit: 25, q: 'carpentry' }],
];
const rows = [];
for (const [name, query] of pages) {
  await listInquiries(query);
  const times = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const page = await listInquiries(query);
    times.push(performance.now() - started);
    if (page.items.length === 0) throw new Error(`${name}: no items`);
  }
  rows.push({ name, ms: median(times), max: Math.max(...times) });
}
// The export's first rows (the whole export is timed over HTTP): the header, then the first batch.
const started = performance.now();
// The inbox's default range: today and the 89 days before.
const day = (time) => new Date(time).toISOString().slice(0, 10);
const reader = inquiriesCsvStream({ from: day(Date.now() - 89 * 86_400_000), to: day(Date.now()) }).getReader();
await reader.read();
const firstBatch = await reader.read();
const csv = {
  firstRowsMs: performance.now() - started,
  rows: firstBatch.value.byteLength > 0 ? new TextDecoder().decode(firstBatch.value).split('\r\n').length - 1 : 0,
};
await reader.cancel();
await server.stop();
console.log(JSON.stringify({ rows, csv }));
