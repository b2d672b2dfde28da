// Runs inside one unpacked function zip (a folder outside the repository, so nothing resolves to the repository's
// node_modules): imports the function's module as Netlify does, then makes the calls it is given on its standard
// input and prints the answers as one JSON line. Started by tests/rehearsal/run.mjs, one process per function.
//
//   node worker.mjs <unpacked folder> <module path inside it>
// stdin: { calls: [{ label, method, url, headers, body?, params } | { label, event, body }] }
// A function's default export is a handler, or an object with `fetch` and platform event handlers
// (`deploySucceeded`...): a call naming an `event` runs that handler with the event (its JSON body).
// stdout: { imported, error?, answers: [{ label, status, headers, body, ms, error? }], loaded: [urls of modules] }
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [folder, modulePath] = process.argv.slice(2);
const loaded = new Set();
// Every module the function loads, to show which build of React (or anything else) it really runs.
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    loaded.add(resolved.url);
    return resolved;
  },
});

const input = JSON.parse(
  await new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => {
      text += chunk;
    });
    process.stdin.on('end', () => resolve(text));
  }),
);

const out = { imported: false, answers: [], loaded: [] };
let handler;
let events = {};
try {
  const module = await import(pathToFileURL(join(folder, modulePath)).href);
  const exported = module.default;
  if (typeof exported === 'function') handler = exported;
  else if (exported && typeof exported === 'object') {
    events = exported;
    handler =
      typeof exported.fetch === 'function' ? exported.fetch.bind(exported) : () => new Response('', { status: 404 });
  } else throw new Error(`${modulePath} has no default export function or handler object`);
  out.imported = true;
} catch (cause) {
  out.error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

for (const call of handler ? input.calls : []) {
  if (call.event) {
    const started = performance.now();
    try {
      if (typeof events[call.event] !== 'function') throw new Error(`no ${call.event} handler`);
      await events[call.event](JSON.parse(call.body));
      out.answers.push({
        label: call.label,
        status: 204,
        headers: {},
        body: '',
        ms: Math.round(performance.now() - started),
      });
    } catch (cause) {
      out.answers.push({
        label: call.label,
        status: 0,
        headers: {},
        body: '',
        ms: Math.round(performance.now() - started),
        error: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
      });
    }
    continue;
  }
  const pending = [];
  const context = {
    params: call.params ?? {},
    ip: '203.0.113.7',
    requestId: `rehearsal-${Math.random().toString(36).slice(2)}`,
    waitUntil: (promise) => pending.push(Promise.resolve(promise).catch(() => {})),
    deploy: { id: 'rehearsal-deploy', context: 'production', published: true },
    site: { id: 'rehearsal-site', name: 'rehearsal', url: new URL(call.url).origin },
    server: { region: 'rehearsal' },
    geo: {},
    cookies: { get: () => undefined, set: () => {}, delete: () => {} },
    account: { id: 'rehearsal-account' },
    url: new URL(call.url),
  };
  const started = performance.now();
  try {
    const request = new Request(call.url, {
      method: call.method,
      headers: call.headers ?? {},
      ...(call.body === undefined ? {} : { body: call.body }),
    });
    const response = await handler(request, context);
    const text = response instanceof Response && response.body ? await response.text() : '';
    await Promise.all(pending);
    out.answers.push({
      label: call.label,
      // A scheduled or background function may answer nothing at all: the platform records that as done (204).
      status: response instanceof Response ? response.status : response === undefined ? 204 : 0,
      headers: response instanceof Response ? Object.fromEntries(response.headers) : {},
      body: text.slice(0, 200_000),
      bytes: Buffer.byteLength(text),
      ms: Math.round(performance.now() - started),
    });
  } catch (cause) {
    await Promise.all(pending);
    out.answers.push({
      label: call.label,
      status: 0,
      headers: {},
      body: '',
      ms: Math.round(performance.now() - started),
      error: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
    });
  }
}
out.loaded = [...loaded].filter((url) => url.startsWith('file:'));
// Pools and timers of the function would keep the process alive; the platform freezes it instead. A write to a
// pipe finishes later, so the process ends once the whole answer is out.
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
