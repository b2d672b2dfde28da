/**
 * A claim (site settings) is switched off or changed in one place, so its text may appear only where the claim
 * controls it: content strings rendered through ClaimText/claimPlainText, and the claim machinery itself.
 * Anything else (a seeded post, captions, an e-mail template, a hard-coded string) would keep stating the
 * figure after staff switched it off. Built pages are covered by the e2e tests; here every source they are
 * built from is scanned.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import settings from '../../content/site-settings.json';
import { EXPLAINER_TIMEFRAME, explainerShown } from '../../src/lib/claims';

const root = join(import.meta.dirname, '..', '..');

/** Patterns of a claim's text as people write it: "4-8 weeks", "4–8 weeks", "4 to 8 weeks", "98%", "4.9/5". */
function patternsOf(): { key: string; pattern: RegExp }[] {
  const out: { key: string; pattern: RegExp }[] = [];
  const range = /^(\d+)\s*-\s*(\d+)\s+(\w+)$/.exec(settings.claims.completionTime.value);
  expect(range, 'the completion time is a range such as 4-8 weeks').not.toBeNull();
  const [, from, to, unit] = range!;
  out.push({
    key: 'completionTime',
    pattern: new RegExp(`\\b${from}\\s*(?:-|–|&ndash;|to)\\s*${to}\\s*(?:<[^>]+>)?\\s*${unit}`, 'i'),
  });
  const rate = settings.claims.successRate.value.replace('.', '\\.');
  out.push({ key: 'successRate', pattern: new RegExp(`\\b${rate}\\s*(?:%|per ?cent)`, 'i') });
  const rating = settings.claims.satisfaction.value.replace('.', '\\.');
  out.push({ key: 'satisfaction', pattern: new RegExp(`\\b${rating}\\s*(?:/\\s*5|out of 5|stars?)`, 'i') });
  return out;
}

/** Content strings the pages render through ClaimText or claimPlainText (by file, as dotted JSON paths). */
const CONTROLLED_CONTENT: Record<string, RegExp[]> = {
  'content/about.json': [/^story\.paragraphs\.\d+$/, /^completionNote$/, /^journey\.intro$/],
  'content/home.json': [/^hero\.text$/, /^why\.items\.\d+\.text$/],
  'content/how-rpl-works.json': [/^steps\.items\.\d+\.text$/],
  'content/faq.json': [/^items\.\d+\.answer\.\d+$/],
  'content/free-quote.json': [/^aside\.note$/],
  'content/terms-conditions.json': [/^sections\.\d+\.(?:paragraphs|bullets)\.\d+$/],
  'content/site-settings.json': [/^claims\.\w+\.value$/],
};

/** Whole files allowed to hold a claim's text, and why. */
const CONTROLLED_FILES: Record<string, string> = {
  'src/lib/claims.ts': 'the claim machinery: the timeframe copy is written with, found and replaced',
  'src/content.config.ts': 'checks the copy states the timeframe the claim machinery replaces',
  'src/schemas/site-settings.ts': 'staff-facing input example in a validation message',
  'src/admin/settings/settings-fields.ts': 'staff-facing input example',
  'public/media/how-rpl-works.en.vtt': 'explainer captions: the clip is shown only while explainerShown() holds',
  'scripts/media/make-explainer.mjs': 'generates the explainer and its captions (gated like the captions)',
};

const TEXT = /\.(json|md|vtt|txt|html|xml|ts|tsx|astro|mjs|js)$/;
function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return files(path);
    return TEXT.test(name) ? [path] : [];
  });
}

function stringsOf(value: unknown, path: string[] = []): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path: path.join('.'), text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsOf(item, [...path, String(i)]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => stringsOf(item, [...path, key]));
  return [];
}

describe('claims reach only where the claim controls them', () => {
  it('finding 3: no claim text (timeframe, success rate, rating) appears outside its claim', () => {
    const patterns = patternsOf();
    const scanned = ['content', 'public', 'src', 'scripts/media'].flatMap(files);
    expect(scanned).toContain('src/server/mail.ts');
    expect(scanned).toContain('content/blog-seed/01-what-is-rpl.md');
    const leaks: string[] = [];
    for (const file of scanned) {
      if (Object.hasOwn(CONTROLLED_FILES, file)) continue;
      const source = readFileSync(join(root, file), 'utf8');
      const controlled = Object.hasOwn(CONTROLLED_CONTENT, file) ? CONTROLLED_CONTENT[file] : [];
      const pieces = file.endsWith('.json') ? stringsOf(JSON.parse(source)) : [{ path: '', text: source }];
      for (const { path, text } of pieces) {
        for (const { key, pattern } of patterns) {
          if (!pattern.test(text)) continue;
          if (controlled.some((allowed) => allowed.test(path))) continue;
          leaks.push(
            `${relative(root, join(root, file))}${path ? ` at ${path}` : ''}: ${key} "${pattern.exec(text)![0]}"`,
          );
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('finding 3: the explainer states the claim figure it is gated on, and is hidden when the claim is off or changed', () => {
    const captions = readFileSync(join(root, 'public/media/how-rpl-works.en.vtt'), 'utf8');
    const spoken = /(\d+) to (\d+) (weeks)/.exec(captions);
    expect(spoken && `${spoken[1]}-${spoken[2]} ${spoken[3]}`).toBe(EXPLAINER_TIMEFRAME);
    expect(explainerShown({ value: EXPLAINER_TIMEFRAME, enabled: true })).toBe(true);
    expect(explainerShown({ value: EXPLAINER_TIMEFRAME, enabled: false })).toBe(false);
    expect(explainerShown({ value: '6-10 weeks', enabled: true })).toBe(false);
  });
});
