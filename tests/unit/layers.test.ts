/**
 * The layers of src/, lowest first: a file imports only from its own layer or lower ones, browser code never
 * pulls in server code, and no files import each other in a circle. Type-only imports are erased at build time
 * and may look anywhere (the admin shows the server's answer types).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

/** Folder (or file) under src/ → its layer. */
const LAYERS = new Map<string, number>([
  ['schemas', 0], // valibot schemas and the types they give: no imports from the project
  ['platform', 0], // the only code that knows the platform (the database): no imports from the project
  ['lib', 1], // plain functions shared by pages, islands and functions
  ['catalogue', 2], // the course catalogue: repository content plus staff edits
  ['server', 3], // what functions run: stores, mail, rules
  ['build', 4], // what the pre-rendered pages read at build time (through server)
  ['components', 5],
  ['layouts', 5],
  ['islands', 5],
  ['admin', 5],
  ['scripts', 5],
  ['directives', 5],
  ['styles', 5],
  ['pages', 6],
  ['middleware.ts', 6],
  ['content.config.ts', 6],
]);
/** Code that runs in the browser: it must never bundle server code. */
const BROWSER = new Set(['islands', 'admin', 'scripts', 'directives']);
const SERVER_SIDE = new Set(['server', 'build', 'platform']);

const SOURCE = /\.(ts|tsx|mts|astro)$/;
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

/** The code of a file: an .astro file's front matter and scripts. */
function code(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.astro')) return text;
  const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  return [front, ...scripts].join('\n');
}

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function importsOf(path: string, text = code(path)): Import[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    found.push({ from: path, to: resolve(dirname(path), specifier), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The layer folder of a path under src/, or undefined outside src/ (content/ data, packages). */
function area(path: string): string | undefined {
  const rel = relative(src, path);
  if (rel.startsWith('..')) return undefined;
  return rel.split(/[\\/]/)[0];
}

const show = (i: Import) => `${relative(root, i.from)} -> ${relative(root, i.to)}`;

const upwardImports = (list: Import[]) =>
  list.filter((i) => {
    if (i.typeOnly) return false;
    const to = area(i.to);
    if (to === undefined || !LAYERS.has(to)) return false;
    return (LAYERS.get(to) ?? 0) > (LAYERS.get(area(i.from) ?? '') ?? 0);
  });

const browserLeaks = (list: Import[]) =>
  list.filter((i) => {
    const from = area(i.from);
    const to = area(i.to);
    return !i.typeOnly && !!from && !!to && BROWSER.has(from) && SERVER_SIDE.has(to);
  });

function circles(list: Import[]): string[] {
  const key = (path: string) => path.replace(/\.(ts|tsx|mts|astro)$/, '');
  const graph = new Map<string, string[]>();
  for (const i of list) {
    const from = key(i.from);
    graph.set(from, [...(graph.get(from) ?? []), key(i.to)]);
  }
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      found.push([...path.slice(path.indexOf(node)), node].map((p) => relative(root, p)).join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) walk(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) walk(node, []);
  return found;
}

const all = files(src);
const imports = all.flatMap((path) => importsOf(path));

describe('layers of src/', () => {
  it('every file sits in a known layer', () => {
    const unknown = [...new Set(all.map(area))].filter((name) => !name || !LAYERS.has(name));
    expect(unknown).toEqual([]);
  });

  it('no file imports from a higher layer (lower layers never know about higher ones)', () => {
    expect(upwardImports(imports).map(show)).toEqual([]);
  });

  it('browser code (islands, admin, scripts) never imports server code', () => {
    expect(browserLeaks(imports).map(show)).toEqual([]);
  });

  it('no files import each other in a circle (types included)', () => {
    expect(circles(imports)).toEqual([]);
  });

  it('the checks find an upward import, a server import in the browser and a circle when there is one', () => {
    const schema = join(src, 'schemas', 'probe.ts');
    const island = join(src, 'islands', 'Probe.tsx');
    const probes = [
      ...importsOf(
        schema,
        "import type { A } from '../server/a';\nimport { b } from '../lib/b';\nexport { c } from './probe-two';",
      ),
      ...importsOf(join(src, 'schemas', 'probe-two.ts'), "import { d } from './probe';"),
      ...importsOf(island, "import type { E } from '../server/e';\nconst f = await import('../server/f');"),
    ];
    expect(upwardImports(probes).map(show)).toEqual(['src/schemas/probe.ts -> src/lib/b']);
    expect(browserLeaks(probes).map(show)).toEqual(['src/islands/Probe.tsx -> src/server/f']);
    expect(circles(probes)).toEqual(['src/schemas/probe -> src/schemas/probe-two -> src/schemas/probe']);
  });
});
