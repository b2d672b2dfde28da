// Runs inside one unpacked function zip (a folder outside the repository, so nothing resolves to the repository's
// node_modules): imports the function's module as Netlify does, then makes the calls it is given on its standard
// input and prints the answers as one JSON line. Started by tests/rehearsal/run.mjs, one process per function.
//
//   node worker.mjs <unpacked folder> <module path inside it>
// stdin: { calls: [{ label, method, url, headers, body?, params }] }
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
try {
  const module = await import(pathToFileURL(join(folder, modulePath)).href);
  handler = module.default;
  if (typeof handler !== 'function') throw new Error(`${modulePath} has no default export function`);
  out.imported = true;
} catch (cause) {
  out.error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

for (const call of handler ? input.calls : []) {
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
process.stdout.write(`${JSON.stringify(out)}\n`);
// Pools and timers of the function would keep the process alive; the platform freezes it instead.
process.exit(0);
