/**
 * The Netlify CLI's function runtime as the project patches it (patches/netlify-cli+27.10.2.patch): warm function
 * instances, opt-in with NETLIFY_WARM_FUNCTIONS=1. The runtime is called here as the CLI's functions server calls
 * it, with small functions written for each test; the local server's own burst test is in
 * tests/e2e/local-front-door.spec.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import * as runtime from '../../node_modules/netlify-cli/dist/lib/functions/runtimes/js/index.js';

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: Readable | string;
}
const invokeFunction = runtime.invokeFunction as unknown as (call: {
  context: Record<string, unknown>;
  environment: Record<string, string>;
  event: Record<string, unknown>;
  func: { buildData: { runtimeAPIVersion: 2; buildPath: string } };
  timeout: number;
}) => Promise<Answer>;

/** The streamed body each call of the test function sends: big enough to take several chunks. */
const BODY_BYTES = 256 * 1024;

/**
 * A function in the shape the CLI's bundler gives a Netlify function (v2): `handler` answers with a streamed body.
 * `hold` makes it wait until the test answers a request to its gate; `exit` ends its instance mid-call.
 */
const FUNCTION_SOURCE = (answer: string) => `
import { Readable } from 'node:stream';
import { threadId } from 'node:worker_threads';
export const handler = async (event) => {
  if (event.exit) process.exit(3);
  if (event.hold) await fetch(event.hold);
  const chunk = 'x'.repeat(16 * 1024);
  return {
    statusCode: 200,
    headers: { 'x-instance': String(threadId), 'x-answer': ${JSON.stringify(answer)} },
    body: Readable.from(Array.from({ length: ${BODY_BYTES / (16 * 1024)} }, () => chunk)),
  };
};
`;

let folder: string;
let gate: http.Server;
let gateURL: string;
/** Requests from held calls, answered when the test releases them. */
const held: http.ServerResponse[] = [];
const release = () => {
  for (const response of held.splice(0)) response.end('go');
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'warm-functions-'));
  gate = http.createServer((_req, res) => held.push(res));
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  gateURL = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/hold`;
});
afterEach(() => {
  release();
  delete process.env.NETLIFY_WARM_FUNCTIONS;
});
afterAll(async () => {
  gate.closeAllConnections();
  gate.close();
  await rm(folder, { recursive: true, force: true });
});

let functions = 0;
/** Writes a new function (its own file, so its own instances) and returns what the CLI would call it with. */
async function newFunction(answer = 'one') {
  const buildPath = join(folder, `function-${++functions}.mjs`);
  await writeFile(buildPath, FUNCTION_SOURCE(answer));
  return { buildData: { runtimeAPIVersion: 2 as const, buildPath } };
}

const call = (func: Awaited<ReturnType<typeof newFunction>>, event: Record<string, unknown> = {}, timeout = 30) =>
  invokeFunction({ context: {}, environment: {}, event, func, timeout });

async function text(body: Answer['body']) {
  if (typeof body === 'string') return body;
  let all = '';
  for await (const chunk of body) all += chunk;
  return all;
}

it('finding 9: 40 parallel calls to one function all answer, each with its whole streamed body, from at most 4 instances', async () => {
  process.env.NETLIFY_WARM_FUNCTIONS = '1';
  const func = await newFunction();
  const answers = await Promise.allSettled(
    Array.from({ length: 40 }, async () => {
      const answer = await call(func);
      return {
        status: answer.statusCode,
        instance: answer.headers['x-instance'],
        bytes: (await text(answer.body)).length,
      };
    }),
  );
  const failures = answers.filter((a) => a.status === 'rejected').map((a) => String(a.reason));
  expect(failures).toEqual([]);
  const done = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
  expect(done.map((a) => a.status)).toEqual(Array(40).fill(200));
  expect(done.map((a) => a.bytes)).toEqual(Array(40).fill(BODY_BYTES));
  expect(new Set(done.map((a) => a.instance)).size).toBeLessThanOrEqual(4);
}, 120_000);

it('finding 9: an instance that exits during a call fails that call instead of leaving it waiting; the next call is answered', async () => {
  process.env.NETLIFY_WARM_FUNCTIONS = '1';
  const func = await newFunction();
  await expect(call(func, { exit: true })).rejects.toThrow(/exited with code 3/);
  const next = await call(func);
  expect(next.statusCode).toBe(200);
  expect((await text(next.body)).length).toBe(BODY_BYTES);
}, 60_000);

it('finding 9: calls beyond the 4 instances wait in line, and one that waits longer than its timeout fails', async () => {
  process.env.NETLIFY_WARM_FUNCTIONS = '1';
  const func = await newFunction();
  // An instance is busy until its body has been read: read each as it comes.
  const answered = async (answer: Promise<Answer>) => {
    const { statusCode, body } = await answer;
    return { statusCode, bytes: (await text(body)).length };
  };
  const busy = Array.from({ length: 4 }, () => answered(call(func, { hold: gateURL })));
  // A fifth call finds every instance held: it waits, and its 1-second timeout applies to the wait.
  await expect(call(func, {}, 1)).rejects.toThrow(/timed out/i);
  // One more waits in line and is answered once an instance is free.
  const queued = answered(call(func));
  await expect.poll(() => held.length, { timeout: 60_000 }).toBe(4);
  release();
  expect(await Promise.all([...busy, queued])).toEqual(Array(5).fill({ statusCode: 200, bytes: BODY_BYTES }));
}, 120_000);

it('finding 14: without NETLIFY_WARM_FUNCTIONS (netlify dev) an edited function answers with its new code at once', async () => {
  const func = await newFunction('one');
  const first = await call(func);
  expect(first.headers['x-answer']).toBe('one');
  await text(first.body);
  await writeFile(func.buildData.buildPath, FUNCTION_SOURCE('two'));
  const second = await call(func);
  expect(second.headers['x-answer']).toBe('two');
  await text(second.body);
}, 60_000);

it('finding 9: an instance whose reader went away mid-stream is free again for the next calls', async () => {
  process.env.NETLIFY_WARM_FUNCTIONS = '1';
  const func = await newFunction();
  // Four readers close their streams without reading them (a visitor who left); more calls follow.
  for (const answer of await Promise.all(Array.from({ length: 4 }, () => call(func)))) {
    expect(answer.statusCode).toBe(200);
    (answer.body as Readable).destroy();
  }
  const next = await Promise.all(
    Array.from({ length: 4 }, async () => (await text((await call(func, {}, 10)).body)).length),
  );
  expect(next).toEqual(Array(4).fill(BODY_BYTES));
}, 60_000);
