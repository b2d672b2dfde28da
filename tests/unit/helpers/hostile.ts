/**
 * Shared pieces of the hostile-input suites (tests/unit/hostile-*.test.ts, token-attacks, concurrency):
 * a real local blob server whose folder can be snapshotted, the function handlers found by their route,
 * the security headers every answer must carry, and fast-check arbitraries for adversarial input.
 */
import { createHash } from 'node:crypto';
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import type { Config, Context } from '@netlify/functions';
import fc from 'fast-check';
import { startDatabase, type TestDatabase } from './database.ts';

/* ---------- Stores we can look at: the blob folder and the database's tables ---------- */

export interface LocalBlobs {
  directory: string;
  /** How many write and delete requests the blob server has received so far. */
  writes(): number;
  /** The test file's database (tests/unit/helpers/database.ts). */
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * Helpers installed in the test's own database (never in the migrations): a hash of every table's rows, and a
 * copy of every table kept aside and put back, so a suite can prove a refused request wrote nothing and start
 * each round from the same rows.
 */
const INSPECTION = `
CREATE OR REPLACE FUNCTION test_table_hashes() RETURNS TABLE (name text, hash text) LANGUAGE plpgsql AS $fn$
DECLARE t record;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename LOOP
    name := t.tablename;
    EXECUTE format('SELECT md5(coalesce(string_agg(x::text, %L ORDER BY x::text), %L)) FROM public.%I x', '|', '', t.tablename)
      INTO hash;
    RETURN NEXT;
  END LOOP;
END $fn$;
CREATE OR REPLACE FUNCTION test_keep_tables() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE t record;
BEGIN
  DROP SCHEMA IF EXISTS kept CASCADE;
  CREATE SCHEMA kept;
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format('CREATE TABLE kept.%I AS SELECT * FROM public.%I', t.tablename, t.tablename);
  END LOOP;
END $fn$;
CREATE OR REPLACE FUNCTION test_restore_tables() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE t record;
BEGIN
  -- Triggers and foreign-key checks stay off while the rows are put back as they were.
  SET LOCAL session_replication_role = replica;
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'kept' LOOP
    EXECUTE format('DELETE FROM public.%I', t.tablename);
    EXECUTE format('INSERT INTO public.%I OVERRIDING SYSTEM VALUE SELECT * FROM kept.%I', t.tablename, t.tablename);
  END LOOP;
END $fn$;
`;

/** A database (helpers/database.ts) and a blob server whose folder can be snapshotted and whose writes are counted. */
export async function startInspectableBlobs(): Promise<LocalBlobs> {
  const directory = await mkdtemp(join(tmpdir(), 'blobs-hostile-'));
  const token = 'hostile-test-token';
  let writes = 0;
  // Counted when the request arrives, before the file is written: a count that has not moved proves nothing
  // was written since, whatever the files' timestamps say.
  const onRequest = ({ type }: { type: string }) => {
    if (type === 'set' || type === 'delete') writes += 1;
  };
  const server = new BlobsServer({ directory, token, onRequest });
  const [{ port }, database] = await Promise.all([server.start(), startDatabase()]);
  await database.engine.exec(INSPECTION);
  databases.set(directory, database);
  const edgeURL = `http://localhost:${port}`;
  setEnvironmentContext({
    siteID: 'hostile-test-site',
    deployID: '76543210fedcba9876543210',
    primaryRegion: 'us-east-2',
    token,
    edgeURL,
    uncachedEdgeURL: edgeURL,
  });
  return {
    directory,
    writes: () => writes,
    database,
    async stop() {
      databases.delete(directory);
      await Promise.all([server.stop(), database.stop()]);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The database that goes with each inspectable blob folder: a snapshot of the folder covers its tables too. */
const databases = new Map<string, TestDatabase>();

/** Keeps every table's rows aside (test_keep_tables) so restoreTables() can put them back. */
export async function keepTables(database: TestDatabase): Promise<void> {
  await database.engine.query('SELECT test_keep_tables()');
}

export async function restoreTables(database: TestDatabase): Promise<void> {
  await database.engine.transaction((tx) => tx.query('SELECT test_restore_tables()').then(() => {}));
}

/**
 * The id the next writing transaction will get: a statement that writes anything moves it, reads never do, so
 * an unchanged value proves no table was written since.
 */
async function nextTransaction(database: TestDatabase): Promise<string> {
  const { rows } = await database.engine.query<{ x: string }>(
    'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x',
  );
  return rows[0].x;
}

/**
 * Hashes of files already read, by path, with the file's identity (inode, size, change time) at that moment.
 * A file whose identity is unchanged is not read again, except when it changed less than RACY_MS before the
 * snapshot began: file times are coarse (a clock tick), so a second write in the same tick could look unchanged.
 */
const hashed = new Map<string, { identity: string; hash: string }>();
const RACY_MS = 1000n;

/**
 * Every file under the blob folder (entries and metadata) with a hash of its bytes, and every table of the database
 * that goes with it with a hash of its rows. Synchronous on purpose:
 * the fuzzer takes two snapshots per request, and one blocking walk of a few hundred files costs far less
 * than an await per directory and per file; nothing in this process can write while it runs.
 */
export async function snapshotBlobs(
  directory: string,
  database = databases.get(directory),
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const startedMs = BigInt(Date.now());
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(directory, { withFileTypes: true, recursive: true });
  } catch {
    // No folder yet: no files.
  }
  for (const entry of entries) {
    // The server writes a temporary dot-file and renames it; a leftover one is not a stored entry.
    if (entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(entry.parentPath, entry.name);
    const info = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!info) continue; // removed while we looked: not there
    const identity = `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    const known = hashed.get(path);
    if (known?.identity === identity && info.ctimeMs < startedMs - RACY_MS) {
      files.set(relative(directory, path), known.hash);
      continue;
    }
    const hash = createHash('sha1').update(readFileSync(path)).digest('hex');
    hashed.set(path, { identity, hash });
    files.set(relative(directory, path), hash);
  }
  // Each table as one more "store": database/tables/<table>, named by changedStores like a blob store.
  if (database) {
    const { rows } = await database.engine.query<{ name: string; hash: string }>('SELECT * FROM test_table_hashes()');
    for (const row of rows) files.set(join('database', 'tables', row.name), row.hash);
  }
  return files;
}

/**
 * The stores' snapshot, taken again only when the blob server has received a write or delete, or a transaction
 * wrote to the database, since the last one. A fuzzer sends thousands of requests, most refused without writing;
 * walking and hashing everything before and after each of them was a third of the suite's time. `forget` drops
 * the kept snapshot (after the stores were put back behind the servers' backs).
 */
export function keptSnapshots(blobs: LocalBlobs) {
  let kept: { writes: string; files: Map<string, string> } | undefined;
  return {
    async now(): Promise<Map<string, string>> {
      const writes = `${blobs.writes()} ${await nextTransaction(blobs.database)}`;
      if (kept?.writes !== writes) kept = { writes, files: await snapshotBlobs(blobs.directory, blobs.database) };
      return kept.files;
    },
    forget() {
      kept = undefined;
    },
  };
}

/**
 * Names of the stores whose files differ between two snapshots (entries/<site>/<store>/..., metadata/<site>/<store>/...),
 * and of the tables whose rows differ (database/tables/<table>).
 */
export function changedStores(before: Map<string, string>, after: Map<string, string>): string[] {
  const stores = new Set<string>();
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(path) !== after.get(path))
      stores.add(decodeURIComponent(path.split(sep)[2] ?? path).replace(/^site:/, ''));
  }
  return [...stores].sort();
}

/* ---------- The security headers every function answer carries itself ---------- */

/**
 * Netlify applies the header rules of netlify.toml only to files it serves itself, never to function
 * answers (the local CLI adds them anyway, which would hide a gap), so each handler's own Response
 * is checked here.
 */
export function missingSecurityHeaders(response: Response): string[] {
  const h = response.headers;
  const problems: string[] = [];
  const csp = h.get('content-security-policy') ?? '';
  if (!csp) problems.push('Content-Security-Policy missing');
  else {
    if (!/frame-ancestors\s+'none'/.test(csp)) problems.push("CSP without frame-ancestors 'none'");
    if (/unsafe-inline|unsafe-eval/.test(csp)) problems.push('CSP allows unsafe-inline/unsafe-eval');
  }
  const hsts = /max-age=(\d+)/.exec(h.get('strict-transport-security') ?? '');
  if (!hsts || Number(hsts[1]) < 15_768_000) problems.push('Strict-Transport-Security missing or under six months');
  if ((h.get('x-content-type-options') ?? '').toLowerCase() !== 'nosniff')
    problems.push('X-Content-Type-Options: nosniff missing');
  if (
    !/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/i.test(h.get('referrer-policy') ?? '')
  )
    problems.push('Referrer-Policy missing or leaky');
  if (!h.get('permissions-policy')) problems.push('Permissions-Policy missing');
  return problems;
}

/* ---------- Function handlers, found by their configured route ---------- */

type Handler = (request: Request, context: Context) => Promise<Response | undefined> | Response | undefined;
export interface FunctionModule {
  file: string;
  handler: Handler;
  config: Config;
  paths: string[];
}

const modules = import.meta.glob<{ default: Handler; config?: Config }>('../../../netlify/functions/*.mts', {
  eager: true,
});

/** Every function module of the site, with the paths it answers (scheduled functions have none). */
export const FUNCTIONS: FunctionModule[] = Object.entries(modules).map(([file, mod]) => {
  const path = mod.config?.path;
  return {
    file: file.replace(/^.*\//, ''),
    handler: mod.default,
    config: mod.config ?? {},
    paths: path === undefined ? [] : Array.isArray(path) ? path : [path],
  };
});

/** The function answering `route` (a configured path such as '/api/blogs/:slug'), if it exists yet. */
export function handlerFor(route: string): FunctionModule | undefined {
  return FUNCTIONS.find((fn) => fn.paths.includes(route));
}

/** Fills a route's :params into a concrete, percent-encoded path. */
export function fillRoute(route: string, params: Record<string, string>): string {
  // A lone surrogate cannot travel in a URL; a client's encoder sends U+FFFD instead.
  return route.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent((params[name] ?? '').toWellFormed()));
}

export const routeParams = (route: string) => [...route.matchAll(/:(\w+)/g)].map((m) => m[1]);

/* ---------- Fuzzing settings ---------- */

/**
 * A fresh seed per run unless FUZZ_SEED is set; fast-check prints the seed and the shrunk path of any
 * failure, and `FUZZ_SEED=<seed> npx vitest run <file>` replays it. FUZZ_RUNS scales every property.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0);
export const fuzzRuns = (runs: number) => Math.max(1, Math.round(runs * Number(process.env.FUZZ_RUNS_FACTOR ?? 1)));
export const fuzzParameters = (runs: number): fc.Parameters<unknown> => ({
  seed: FUZZ_SEED,
  numRuns: fuzzRuns(runs),
  endOnFailure: false,
});

/* ---------- Adversarial values ---------- */

/** Hand-picked strings that have broken real systems. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  'a\u0000b',
  '\uFEFFbom',
  '\u202Egnp.exe',
  '\uD800',
  '\uDFFF\uD800',
  '𝕏😀👩‍👩‍👧‍👦',
  'Ｔｅｓｔ',
  'İstanbul ß ǅ',
  'x\r\nBcc: victim@example.com',
  'name\nSubject: spoofed',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%',
  '%%',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent literally
  '${7*7}',
  '{{7*7}}',
  '=HYPERLINK("http://evil.example","x")',
  '+cmd|"/c calc"!A1',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'I worked as a constructor for ten years',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '0x10',
  '9007199254740993',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  'a'.repeat(65),
  'a'.repeat(201),
  'a'.repeat(5001),
  'x'.repeat(40_000),
];

/** Object keys an attacker sends to pollute prototypes or confuse lookups. */
export const NASTY_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '',
  ' ',
  '0',
  'length',
  '$where',
  '$gt',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom('\r', '\n', '\u0000', '\u2028', '\u0085', '\u001b', 'a', ' '),
      maxLength: 12,
    }),
  },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 12 }));

/** Any JSON value, with nasty strings, numbers and keys, nested a little. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

/**
 * A JSON text built from a value, keeping a literal "__proto__" key as an own property (JSON.stringify
 * of an object literal would drop or misplace it), which is what a hostile client actually sends.
 */
export function toJsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  return `{${Object.keys(value)
    .map((key) => `${JSON.stringify(key)}:${toJsonText((value as Record<string, unknown>)[key])}`)
    .join(',')}}`;
}

/** Request bodies that are not (valid) JSON objects at all. */
export const RAW_BODIES: readonly (string | Uint8Array)[] = [
  '',
  '{',
  '{"a":',
  '{}}',
  'null',
  '[]',
  '"string"',
  '12',
  'true',
  '\uFEFF{}',
  '{"a":1}garbage',
  "{'single':'quotes'}",
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
  '['.repeat(3000) + ']'.repeat(3000),
  `{"a":${'{"a":'.repeat(1500)}1${'}'.repeat(1500)}}`,
  `{"x":"${'\\u0000'.repeat(500)}"}`,
  `{"big":"${'x'.repeat(40_000)}"}`,
  `[${'1,'.repeat(20_000)}1]`,
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
  new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
];

/** A valid body with one thing wrong: a field replaced, dropped, doubled into an array, or extra keys. */
export function mutatedBody(base: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.keys(base);
  const field = fc.constantFrom(...fields);
  return fc.oneof(
    fc.tuple(field, hostileJson).map(([name, value]) => ({ ...base, [name]: value })),
    fc.tuple(field, hostileString).map(([name, value]) => ({ ...base, [name]: value })),
    field.map((name) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== name))),
    field.map((name) => ({ ...base, [name]: [base[name], base[name]] })),
    field.map((name) => ({ ...base, [name]: typeof base[name] === 'string' ? Number.NaN : String(base[name]) })),
    fc.tuple(hostileKey, hostileJson).map(([key, value]) => {
      const copy: Record<string, unknown> = { ...base };
      Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
      return copy;
    }),
    fc.constant(
      Object.defineProperty({ ...base }, '__proto__', {
        value: { polluted: 'yes', isAdmin: true, role: 'admin' },
        enumerable: true,
      }),
    ),
    fc.constant([base]),
    fc.constant(Object.fromEntries(Object.entries(base).map(([key, value]) => [key, [value]]))),
    fc.constant(Object.fromEntries(Object.entries(base).map(([key, value]) => [key, { value }]))),
  );
}

/** Content types a client may claim; most fuzzed requests claim JSON so the body itself gets tested. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'APPLICATION/JSON; charset=utf-8',
      'application/json; charset=utf-16',
      'application/jsonx',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/xml',
    ),
  },
);

/** Content-Length values that lie about the body. */
export const contentLength: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 9, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('0', '1', '-1', 'abc', '1e3', '99999999999', String(2 ** 53)) },
);

/** Values a client can put in an Authorization header (ByteStrings without CR/LF). */
export const hostileBearer: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Basic YWRtaW46YWRtaW4=',
    'bearer null',
    'Bearer undefined',
    'Bearer a.b.c',
    'Bearer ..',
    `Bearer ${'a'.repeat(5000)}`,
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.',
  ),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.=+/ '.split('')), maxLength: 60 }).map((s) => `Bearer ${s}`),
);

/** Path parameter values: nasty strings, traversal, encoded separators, very long. */
export const hostileParam: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  fc.constantFrom(
    '..',
    '.',
    '/',
    '%2e%2e',
    'a/b',
    'a%2Fb',
    'CON',
    'nul',
    'x'.repeat(300),
    'BSB50120 ',
    ' bsb50120',
    'civil-construction/../../x',
    'export.csv',
  ),
);

export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'] as const;

/** A context like the platform's: the caller's address and the route's parameters. No waitUntil, so mail is sent before the answer and every write is visible to the snapshot. */
export function fakeContext(params: Record<string, string>, ip = '203.0.113.10'): Context {
  return { ip, params } as unknown as Context;
}
