#!/usr/bin/env node
// Writes src/styles/font-fallbacks.css: the system-font stand-ins text paints in before the brand fonts
// arrive, each adjusted (size-adjust, ascent-override, descent-override, line-gap-override) so that the
// swap moves nothing. Run it again after changing a brand font file or weight:
//   node scripts/font-fallbacks.mjs
//
// The figures are measured from the brand font files themselves, in Chromium, against Arial's metrics
// (Liberation Sans, the metric-compatible Arial on Linux, stands in when Arial is not installed):
//   - vertical metrics (ascent, descent, line gap) as the browser reads them from each file;
//   - size-adjust = the brand font's average advance width over the site's own copy / the fallback's, at
//     the weight the text is set in. Urbanist is a variable font, so its widths depend on the weight, and
//     its fallbacks are measured at each heading weight (the font libraries in node_modules cannot read
//     instances of a variable WOFF2 file; the browser can).
// Why not Astro's own fallbacks: they name only local("Arial"), which Android phones and Linux do not have
// (their text then fell back to an unadjusted font and moved when the brand font arrived), and they measure
// the variable Urbanist at its default weight 400 while headings are set at 700-800.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { launchOptions } from './chromium.mjs';

const root = new URL('../', import.meta.url);
const file = (path) => new URL(path, root);

/** Brand faces: the family the site names, the file, the weights text is set in, and the fallback's weight. */
const FACES = [
  {
    family: 'Kumbh Sans fallback',
    src: 'node_modules/@fontsource/kumbh-sans/files/kumbh-sans-latin-400-normal.woff2',
    weights: [400],
    bold: false,
  },
  {
    family: 'Kumbh Sans fallback',
    src: 'node_modules/@fontsource/kumbh-sans/files/kumbh-sans-latin-700-normal.woff2',
    weights: [700],
    bold: true,
  },
  {
    family: 'Urbanist fallback',
    src: 'node_modules/@fontsource-variable/urbanist/files/urbanist-latin-wght-normal.woff2',
    weights: [700, 800],
    bold: true,
  },
];

/** local() names of Arial and its metric-compatible stand-ins: Windows/macOS, Linux (Liberation, Arimo), Android. */
const LOCAL = {
  regular: ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans', 'Arimo', 'Roboto', 'Roboto-Regular'],
  bold: [
    'Arial Bold',
    'Arial-BoldMT',
    'Liberation Sans Bold',
    'LiberationSans-Bold',
    'Arimo Bold',
    'Arimo-Bold',
    'Roboto Bold',
    'Roboto-Bold',
  ],
};

/** The words the site's pages are made of: every string in content/*.json. */
function siteCopy() {
  const strings = [];
  const collect = (value) => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  for (const name of readdirSync(file('content/'))
    .filter((n) => n.endsWith('.json'))
    .sort())
    collect(JSON.parse(readFileSync(file(`content/${name}`), 'utf8')));
  // Letters, digits, spaces and common punctuation only; a few hundred kilobytes are plenty.
  return strings
    .join(' ')
    .replace(/[^A-Za-z0-9 ,.'()&/-]+/g, ' ')
    .slice(0, 200_000);
}

const percent = (value) => `${(value * 100).toFixed(4).replace(/\.?0+$/, '')}%`;

async function measureFallbacks() {
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage();
    const faces = FACES.map((face, i) => ({
      ...face,
      name: `brand-${i}`,
      url: `data:font/woff2;base64,${readFileSync(file(face.src)).toString('base64')}`,
    }));
    await page.setContent('<!doctype html><meta charset="utf-8"><body></body>');
    return await page.evaluate(
      async ({ faces, local, text }) => {
        for (const face of faces) {
          const font = new FontFace(face.name, `url(${face.url})`, {
            weight: face.src.includes('wght') ? '100 900' : String(face.weights[0]),
          });
          document.fonts.add(await font.load());
        }
        // The fallback as the browser finds it by local name (the first that exists).
        const fallbackName = async (bold) => {
          for (const name of bold ? local.bold : local.regular) {
            const probe = new FontFace(`probe-${name}`, `local("${name}")`);
            try {
              document.fonts.add(await probe.load());
              return name;
            } catch {}
          }
          throw new Error('Neither Arial nor a metric-compatible stand-in (Liberation Sans, Arimo) is installed');
        };
        const SIZE = 1000;
        const context = document.createElement('canvas').getContext('2d');
        const width = (family, weight) => {
          context.font = `${weight} ${SIZE}px "${family}"`;
          return context.measureText(text).width;
        };
        const vertical = (family, weight) => {
          context.font = `${weight} ${SIZE}px "${family}"`;
          const m = context.measureText('Hg');
          // The line box of `line-height: normal` is ascent + descent + line gap.
          const span = document.createElement('span');
          span.textContent = 'Hg';
          span.style.cssText = `font: ${weight} ${SIZE}px "${family}"; line-height: normal; display: inline-block`;
          document.body.append(span);
          const height = span.getBoundingClientRect().height;
          span.remove();
          return {
            ascent: m.fontBoundingBoxAscent,
            descent: m.fontBoundingBoxDescent,
            lineGap: height - m.fontBoundingBoxAscent - m.fontBoundingBoxDescent,
          };
        };
        const rules = [];
        for (const face of faces) {
          const fallback = await fallbackName(face.bold);
          const probe = `probe-${fallback}`;
          for (const weight of face.weights) {
            // The stand-in is one font file at one weight: measure it as the face it is (400 for the probe).
            const sizeAdjust = width(face.name, weight) / width(probe, 400);
            const v = vertical(face.name, weight);
            rules.push({
              family: face.family,
              weight,
              bold: face.bold,
              measuredAgainst: fallback,
              sizeAdjust,
              ascent: v.ascent / SIZE / sizeAdjust,
              descent: v.descent / SIZE / sizeAdjust,
              lineGap: Math.max(0, v.lineGap) / SIZE / sizeAdjust,
            });
          }
        }
        return rules;
      },
      { faces, local: LOCAL, text: siteCopy() },
    );
  } finally {
    await browser.close();
  }
}

/** The stylesheet: one @font-face per brand weight, each a list of local() stand-ins. */
function fallbackCss(rules) {
  const lines = [
    '/* Generated by scripts/font-fallbacks.mjs from the brand font files: do not edit by hand. */',
    '/* System fonts adjusted to the brand fonts, so text paints at once and the swap to the web font moves nothing. */',
  ];
  for (const rule of rules) {
    const names = (rule.bold ? LOCAL.bold : LOCAL.regular).map((name) => `local("${name}")`).join(', ');
    lines.push(
      `@font-face { font-family: "${rule.family}"; src: ${names}; font-weight: ${rule.weight}; font-style: normal; ` +
        `size-adjust: ${percent(rule.sizeAdjust)}; ascent-override: ${percent(rule.ascent)}; ` +
        `descent-override: ${percent(rule.descent)}; line-gap-override: ${percent(rule.lineGap)}; }`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const OUTPUT = file('src/styles/font-fallbacks.css');
const rules = await measureFallbacks();
writeFileSync(OUTPUT, fallbackCss(rules));
for (const rule of rules)
  console.log(
    `${rule.family} ${rule.weight}: size-adjust ${percent(rule.sizeAdjust)} (measured against ${rule.measuredAgainst})`,
  );
console.log(`wrote ${OUTPUT.pathname}`);
