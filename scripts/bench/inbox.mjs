// The staff inbox at scale: seeds clearly synthetic inquiries straight into a bench workspace's local
// blob store (files, as the Netlify CLI's emulation keeps them), with the inbox index the app would have
// built, then times inbox pages and the CSV export against the running bench server.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  applyToMonth,
  BUILT_KEY,
  countMonth,
  INDEX_VERSION,
  monthIndexKey,
  monthOfId,
  searchText,
  SUMMARY_KEY,
  withMonthCounts,
} from '../../src/server/inquiry-index.ts';

/** Where `netlify serve` keeps the `inquiries` store of a project folder. */
const storeDir = (dir) => join(dir, '.netlify', 'blobs-serve', 'entries', 'unlinked', 'site:inquiries');

const idAt = (time) => `${new Date(time).toISOString().replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;

function syntheticRecord(id, n, createdAt) {
  const handled = n % 4 !== 0; // a quarter still new
  const sent = (kind) => ({
    state: 'sent',
    attempts: 1,
    idempotencyKey: `inquiry-${id}-${kind}`,
    sentAt: createdAt,
    via: 'outbox',
  });
  const base = {
    id,
    source: n % 3 === 0 ? 'quote' : n % 3 === 1 ? 'contact' : 'home',
    createdAt,
    status: handled ? 'handled' : 'new',
    handledAt: handled ? createdAt : null,
    ...(handled ? { statusRev: 1 } : {}),
    contact: {
      firstName: 'Bench',
      lastName: `Synthetic${n}`,
      email: `bench${n}@example.invalid`,
      phone: '0400 000 000',
    },
    mail: { staff: sent('staff'), ack: sent('ack') },
  };
  return n % 3 === 0
    ? {
        ...base,
        kind: 'quote',
        quote: {
          mobileNumber: '',
          preferredContact: 'Any time',
          state: 'NSW',
          selectedCategories: ['civil-construction'],
          selectedCourses: ['CPC30220'],
          categories: [{ slug: 'civil-construction', name: 'Civil Construction' }],
          courses: [
            {
              code: 'CPC30220',
              title: 'Certificate III in Carpentry',
              level: 'Certificate III',
              category: 'civil-construction',
            },
          ],
          experience: 'Synthetic bench record.',
          goals: '',
          additionalInfo: '',
        },
      }
    : { ...base, kind: 'contact', message: `Synthetic bench inquiry number ${n}.` };
}

async function inBatches(items, size, work) {
  for (let start = 0; start < items.length; start += size)
    await Promise.all(items.slice(start, start + size).map(work));
}

/**
 * Writes `count` inquiries spread over the two years before now (newest last), their index (month
 * entries, summary, the "built" marker) and returns how long it took.
 */
export async function seedInquiries(dir, count) {
  const started = performance.now();
  const root = storeDir(dir);
  await mkdir(join(root, 'inquiry'), { recursive: true });
  await mkdir(join(root, 'index', 'month'), { recursive: true });
  const end = Date.now() - 60_000;
  const span = 730 * 24 * 3600_000;
  const entries = Array.from({ length: count }, (_, n) => {
    const time = end - span + Math.floor((n / count) * span);
    return { id: idAt(time), n, time };
  });
  const searches = new Map();
  await inBatches(entries, 512, ({ id, n, time }) => {
    const record = syntheticRecord(id, n, new Date(time).toISOString());
    searches.set(id, searchText(record));
    return writeFile(join(root, 'inquiry', id), JSON.stringify(record));
  });
  // The index, as the app keeps it (src/server/inquiry-index.ts).
  const byMonth = new Map();
  for (const { id, n } of entries) {
    const month = monthOfId(id);
    if (!byMonth.has(month)) byMonth.set(month, []);
    byMonth
      .get(month)
      .push({ id, status: n % 4 !== 0 ? 'handled' : 'new', statusRev: n % 4 !== 0 ? 1 : 0, search: searches.get(id) });
  }
  let summary = null;
  for (const [month, group] of byMonth) {
    const index = applyToMonth(null, group);
    await writeFile(join(root, ...monthIndexKey(month).split('/')), JSON.stringify(index));
    summary = withMonthCounts(summary, month, countMonth(index)) ?? summary;
  }
  await writeFile(join(root, ...SUMMARY_KEY.split('/')), JSON.stringify(summary));
  await writeFile(
    join(root, ...BUILT_KEY.split('/')),
    JSON.stringify({ at: new Date().toISOString(), version: INDEX_VERSION }),
  );
  return { count, months: byMonth.size, seconds: (performance.now() - started) / 1000 };
}

/** Fetches `url` to the last byte: total time, time to the first body bytes, size. */
async function timed(url, token) {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  let firstByteMs = NaN;
  let bytes = 0;
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
    bytes += next.value.byteLength;
  }
  return { ms: performance.now() - started, firstByteMs, bytes };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Times inbox pages (median of `runs`, after one warm-up) and one full CSV export. */
export async function measureInbox(base, token, { runs = 5, count }) {
  const api = `${base}/api/admin/inquiries`;
  const pages = [
    // The same sign-in check with no inbox work: what any admin call costs on this machine, for comparison.
    ['baseline: GET /api/auth/verify', `${base}/api/auth/verify`],
    ['inbox page 1 (all, 25)', `${api}?status=all&limit=25`],
    ['inbox page 1 (new, 25)', `${api}?status=new&limit=25`],
    ['inbox page 1 (handled, 25)', `${api}?status=handled&limit=25`],
    ['inbox middle page (all, 25)', `${api}?status=all&offset=${Math.floor(count / 2)}&limit=25`],
    ['inbox last page (all, 25)', `${api}?status=all&offset=${Math.max(0, count - 25)}&limit=25`],
    ['inbox search by e-mail (all)', `${api}?status=all&limit=25&q=bench${Math.floor(count / 2)}%40example.invalid`],
    ['inbox search by title word (new)', `${api}?status=new&limit=25&q=carpentry`],
  ];
  const rows = [];
  for (const [name, url] of pages) {
    await timed(url, token);
    const times = [];
    for (let i = 0; i < runs; i++) times.push((await timed(url, token)).ms);
    rows.push({ name, ms: median(times), max: Math.max(...times) });
  }
  const csv = await timed(`${api}/export.csv`, token);
  return { rows, csv };
}
