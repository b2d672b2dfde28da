/**
 * No cast of a record (lint/no-record-casts.grit, a Biome rule on src/ and netlify/): a cast let code read a field
 * its schema does not have. The rule names the record types; this keeps that list equal to the record types the
 * code declares, and shows the rule refuses what it should and lets the rest through.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const rule = readFileSync(join(root, 'lint/no-record-casts.grit'), 'utf8');

/** Named types that are values, not records (keys, stages, statuses): narrowing to them is not reaching into a record. */
const VALUE_TYPES = [
  'ActivityKind',
  'ClaimKey',
  'ConsentField',
  'ContactSource',
  'ContentType',
  'FileKind',
  'InboxFilter',
  'InquiryStatus',
  'Level',
  'MailKind',
  'Placeholder',
  'QuoteField',
  'QuoteStep',
  'SocialNetwork',
  'Stage',
  'StatusFilter',
];

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });

/** Every type the schemas give (v.InferOutput / v.InferInput anywhere in src/) and every type src/schemas exports. */
function declaredTypes(): Set<string> {
  const names = new Set<string>();
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/type ([A-Z]\w*) = v\.Infer(?:Output|Input)/g)) names.add(m[1]);
    if (file.includes(`${join('src', 'schemas')}`)) {
      for (const m of text.matchAll(/export (?:interface|type) ([A-Z]\w*)\b/g)) names.add(m[1]);
    }
  }
  return names;
}

function ruleNames(): string[] {
  const alternation = /\(\?:((?:[A-Z]\w*\|)*[A-Z]\w*)\)\\b/.exec(rule)?.[1];
  return alternation ? alternation.split('|') : [];
}

/** Biome's verdict on a file, with the rule as the project configures it (in a folder of its own). */
function lint(code: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'record-casts-'));
  writeFileSync(join(dir, 'biome.json'), JSON.stringify({ plugins: [join(root, 'lint/no-record-casts.grit')] }));
  writeFileSync(join(dir, 'probe.ts'), code);
  const biome = join(root, 'node_modules/.bin/biome');
  const result = spawnSync(biome, ['lint', '--colors=off', 'probe.ts'], { cwd: dir, encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  return `${result.stdout}${result.stderr}`;
}

describe('no casts of records', () => {
  it('the rule names every record type the code declares, and no value type', () => {
    const records = [...declaredTypes()].filter((name) => !VALUE_TYPES.includes(name)).sort();
    expect(records.length).toBeGreaterThan(40);
    expect([...ruleNames()].sort()).toEqual(records);
  });

  it('refuses a cast to a record type, to a part of one, and a double cast; allows DOM and value narrowing', () => {
    const refused = lint(
      [
        'type StoredBlog = { title: string };',
        'type SiteSettings = { claims: object };',
        'export const a = (JSON.parse("{}") as StoredBlog).title;',
        "export const b = JSON.parse('{}') as Partial<SiteSettings>;",
        "export const c = JSON.parse('{}') as SiteSettings['claims'];",
        "export const d = JSON.parse('{}') as unknown as Map<string, string>;",
      ].join('\n'),
    );
    expect(refused.match(/Do not cast to a record type/g)).toHaveLength(3);
    expect(refused.match(/No double cast through unknown/g)).toHaveLength(1);

    const allowed = lint(
      [
        "type Stage = 'received' | 'outcome';",
        "export const e = document.querySelector('input') as HTMLInputElement | null;",
        "export const f = 'received' as Stage;",
        'export const g = [1, 2] as const;',
      ].join('\n'),
    );
    expect(allowed).not.toMatch(/record type|double cast/);
  });
});
