// Builds the "How RPL works" explainer clip for the public site:
//   public/media/how-rpl-works.mp4          H.264 (main) + AAC, yuv420p, faststart
//   public/media/how-rpl-works.webm         VP9 + Opus
//   public/media/how-rpl-works.en.vtt       WebVTT captions, cue times taken from the narration audio
//   public/media/how-rpl-works-poster.webp  1280x720 title slide
//   public/media/how-rpl-works-poster-640.webp  640x360 title slide for phones
//
// Slides are HTML (slides.css beside this file) rendered by Playwright driving Debian's chromium;
// narration is espeak-ng; the video is put together by ffmpeg. Debian packages: chromium ffmpeg espeak-ng webp.
// Usage (from the repo root): npx node scripts/media/make-explainer.mjs [--keep] [--no-webm]
//   --keep     keep the working folder (slide PNGs, WAVs) and print its path
//   --no-webm  skip the VP9/Opus file
import { chromium } from '@playwright/test';
import { launchOptions } from '../chromium.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, writeFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const outDir = join(root, 'public', 'media');
const args = new Set(process.argv.slice(2));
const KEEP = args.has('--keep');
const WEBM = !args.has('--no-webm');

const W = 1280;
const H = 720;
const FPS = 25;
const VOICE = process.env.ESPEAK_VOICE ?? 'en-gb'; // espeak-ng ships no en-au voice; en-gb is the closest
const SPEED = Number(process.env.ESPEAK_SPEED ?? 170); // words per minute
const LEAD = 0.3; // silence before a slide's first cue (s)
const GAP = 0.3; // silence between two cues on one slide (s)
const TAIL = 0.3; // silence after a slide's last cue (s): LEAD + TAIL = the ~0.6 s hold per slide
const END_HOLD = 0.8; // extra hold on the closing slide (s)
const FADE = 0.5; // cross-fade between slides (s), centred on the slide boundary (inside the silences)
const POSTER_MAX_BYTES = 60 * 1024;

// ---------------------------------------------------------------------------------------------
// Icons and illustrations (inline SVG, brand colours only)
const C = { teal: '#01675f', dark: '#014a44', ink: '#0b2b28', lime: '#8cc63f', yellow: '#ffc20e', line: '#c9dcd9' };

const tick = `<svg viewBox="0 0 34 34" aria-hidden="true"><circle cx="17" cy="17" r="17" fill="${C.lime}"/><path d="M9.5 17.5l5 5 10-11" fill="none" stroke="${C.ink}" stroke-width="3.6" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
const clock = `<svg viewBox="0 0 36 36" aria-hidden="true"><circle cx="18" cy="18" r="15" fill="none" stroke="${C.yellow}" stroke-width="3.5"/><path d="M18 9v9l6 4" fill="none" stroke="${C.yellow}" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
const arrow = `<svg viewBox="0 0 34 34" aria-hidden="true"><path d="M6 17h20M18 8l9 9-9 9" fill="none" stroke="${C.ink}" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
const brandMark = `<svg viewBox="0 0 36 36" aria-hidden="true"><rect width="36" height="36" rx="9" fill="${C.lime}"/><path d="M8 26l7-8 5 5 8-11" fill="none" stroke="${C.ink}" stroke-width="3.6" stroke-linecap="round" stroke-linejoin="round"/><circle cx="28" cy="12" r="2.6" fill="${C.ink}"/></svg>`;
const halo = `<circle cx="180" cy="180" r="172" fill="#ffffff" fill-opacity="0.07"/><circle cx="180" cy="180" r="140" fill="#ffffff" fill-opacity="0.05"/>`;

const art = {
  // four rising steps with a flag on top
  steps: `<svg viewBox="0 0 360 360" aria-hidden="true">${halo}
    ${[0, 1, 2, 3]
      .map((i) => {
        const x = 42 + i * 72;
        const h = 60 + i * 44;
        const y = 300 - h;
        const fill = i === 3 ? C.lime : '#ffffff';
        return `<rect x="${x}" y="${y}" width="60" height="${h}" rx="10" fill="${fill}"/>
        <text x="${x + 30}" y="${y + 42}" text-anchor="middle" font-size="30" font-weight="700" fill="${C.ink}" font-family="Liberation Sans, Arial, sans-serif">${i + 1}</text>`;
      })
      .join('')}
    <rect x="283" y="34" width="6" height="76" rx="3" fill="#ffffff"/>
    <path d="M289 36 L340 52 L289 68 Z" fill="${C.yellow}"/>
    <rect x="30" y="300" width="300" height="8" rx="4" fill="#ffffff" fill-opacity="0.5"/>
  </svg>`,
  // clipboard checklist with a chat bubble
  check: `<svg viewBox="0 0 360 360" aria-hidden="true">${halo}
    <rect x="70" y="52" width="196" height="256" rx="18" fill="#ffffff"/>
    <rect x="128" y="34" width="80" height="40" rx="10" fill="${C.lime}"/>
    ${[120, 180, 240]
      .map(
        (y, i) => `<circle cx="108" cy="${y}" r="16" fill="${i < 2 ? C.lime : C.line}"/>
        ${i < 2 ? `<path d="M100 ${y}l6 6 10-11" fill="none" stroke="${C.ink}" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>` : ''}
        <rect x="136" y="${y - 7}" width="106" height="14" rx="7" fill="${C.line}"/>`,
      )
      .join('')}
    <path d="M250 222 h64 a22 22 0 0 1 22 22 v38 a22 22 0 0 1 -22 22 h-30 l-22 20 v-20 h-12 a22 22 0 0 1 -22 -22 v-38 a22 22 0 0 1 22 -22z" fill="${C.yellow}"/>
    <circle cx="256" cy="263" r="6" fill="${C.ink}"/><circle cx="276" cy="263" r="6" fill="${C.ink}"/><circle cx="296" cy="263" r="6" fill="${C.ink}"/>
  </svg>`,
  // folder with documents
  folder: `<svg viewBox="0 0 360 360" aria-hidden="true">${halo}
    <path d="M48 96 h92 l24 26 h148 a16 16 0 0 1 16 16 v160 a16 16 0 0 1 -16 16 h-264 a16 16 0 0 1 -16 -16 v-186 a16 16 0 0 1 16 -16z" fill="#e0a800"/>
    <g transform="rotate(-7 150 180)"><rect x="78" y="70" width="170" height="200" rx="10" fill="#e6f2f1"/></g>
    <rect x="112" y="62" width="170" height="206" rx="10" fill="#ffffff"/>
    <rect x="134" y="90" width="90" height="14" rx="7" fill="${C.teal}"/>
    <rect x="134" y="120" width="126" height="10" rx="5" fill="${C.line}"/>
    <rect x="134" y="142" width="112" height="10" rx="5" fill="${C.line}"/>
    <rect x="134" y="164" width="126" height="10" rx="5" fill="${C.line}"/>
    <path d="M30 176 h300 a10 10 0 0 1 10 11 l-16 112 a16 16 0 0 1 -16 14 h-256 a16 16 0 0 1 -16 -14 l-16 -112 a10 10 0 0 1 10 -11z" fill="${C.lime}"/>
    <rect x="140" y="220" width="80" height="14" rx="7" fill="${C.ink}" fill-opacity="0.35"/>
  </svg>`,
  // two speech bubbles: the competency conversation, with an approval tick
  talk: `<svg viewBox="0 0 360 360" aria-hidden="true">${halo}
    <path d="M52 60 h170 a24 24 0 0 1 24 24 v76 a24 24 0 0 1 -24 24 h-110 l-34 30 v-30 h-26 a24 24 0 0 1 -24 -24 v-76 a24 24 0 0 1 24 -24z" fill="#ffffff"/>
    <rect x="62" y="96" width="140" height="14" rx="7" fill="${C.line}"/>
    <rect x="62" y="124" width="104" height="14" rx="7" fill="${C.line}"/>
    <path d="M308 168 h-150 a24 24 0 0 0 -24 24 v70 a24 24 0 0 0 24 24 h96 l34 30 v-30 h20 a24 24 0 0 0 24 -24 v-70 a24 24 0 0 0 -24 -24z" fill="${C.lime}"/>
    <rect x="160" y="204" width="120" height="14" rx="7" fill="${C.ink}" fill-opacity="0.35"/>
    <rect x="160" y="232" width="86" height="14" rx="7" fill="${C.ink}" fill-opacity="0.35"/>
    <circle cx="300" cy="92" r="34" fill="${C.yellow}"/>
    <path d="M284 93 l11 11 21 -23" fill="none" stroke="${C.ink}" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>
  </svg>`,
  // certificate with a seal
  cert: `<svg viewBox="0 0 360 360" aria-hidden="true">${halo}
    <rect x="28" y="70" width="304" height="216" rx="12" fill="#ffffff"/>
    <rect x="42" y="84" width="276" height="188" rx="6" fill="none" stroke="${C.teal}" stroke-width="3"/>
    <rect x="100" y="112" width="160" height="16" rx="8" fill="${C.teal}"/>
    <rect x="76" y="146" width="208" height="10" rx="5" fill="${C.line}"/>
    <rect x="96" y="168" width="168" height="10" rx="5" fill="${C.line}"/>
    <rect x="70" y="232" width="100" height="6" rx="3" fill="${C.line}"/>
    <path d="M240 250 l-16 70 22 -12 12 22 14 -66z" fill="${C.lime}"/>
    <path d="M282 250 l16 70 -22 -12 -12 22 -14 -66z" fill="${C.lime}"/>
    <circle cx="261" cy="240" r="38" fill="${C.yellow}"/>
    <circle cx="261" cy="240" r="27" fill="none" stroke="${C.ink}" stroke-opacity="0.35" stroke-width="3"/>
    <path d="M248 241 l9 9 17 -19" fill="none" stroke="${C.ink}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>
  </svg>`,
  // paper plane: send your details
  send: `<svg viewBox="0 0 360 360" aria-hidden="true">${halo}
    <path d="M40 190 L320 70 L250 300 L182 238 Z" fill="#ffffff"/>
    <path d="M182 238 L320 70 L160 300 Z" fill="#e6f2f1"/>
    <path d="M160 300 L182 238 L205 258 Z" fill="${C.line}"/>
    <path d="M150 304 C 120 334, 80 336, 36 312" fill="none" stroke="${C.yellow}" stroke-width="6" stroke-linecap="round" stroke-dasharray="2 14"/>
  </svg>`,
};

// ---------------------------------------------------------------------------------------------
// Slides: what is shown, and what is said (each string in `say` is one caption cue, spoken as written)
const slides = [
  {
    step: 0,
    art: art.steps,
    body: `<div class="badge">Recognition of Prior Learning</div>
      <h1 class="hero">How RPL works</h1>
      <p class="sub">Your work experience, assessed towards a <strong>nationally recognised qualification</strong>.</p>`,
    say: [
      'How RPL works.',
      'Recognition of Prior Learning can count your skills towards a nationally recognised qualification.',
    ],
  },
  {
    step: 1,
    art: art.check,
    body: `<div class="badge">Step 1</div>
      <h1>Free skills check</h1>
      <p class="sub">Tell us about your experience.</p>
      <ul class="ticks">
        <li>${tick}Your job roles and duties</li>
        <li>${tick}Where and how long you have worked</li>
        <li>${tick}Any licences or short courses</li>
      </ul>`,
    say: [
      'Step one: a free skills check.',
      "Tell us about your experience, and we'll suggest suitable qualifications.",
    ],
  },
  {
    step: 2,
    art: art.folder,
    body: `<div class="badge">Step 2</div>
      <h1>Build your evidence portfolio</h1>
      <ul class="ticks cols">
        <li>${tick}Résumé</li>
        <li>${tick}Work samples</li>
        <li>${tick}Referee reports</li>
        <li>${tick}Your USI</li>
      </ul>`,
    say: ['Step two: build your evidence portfolio.', 'Your résumé, work samples, referee reports and USI.'],
  },
  {
    step: 3,
    art: art.talk,
    body: `<div class="badge">Step 3</div>
      <h1>Assessment by a partner RTO</h1>
      <p class="sub">A registered training organisation assesses your evidence.</p>
      <ul class="ticks">
        <li>${tick}Competency conversation</li>
        <li>${tick}Practical observation</li>
      </ul>`,
    say: [
      'Step three: a partner registered training organisation, or RTO, assesses your skills.',
      'This can include a competency conversation and a practical observation.',
    ],
  },
  {
    step: 4,
    art: art.cert,
    body: `<div class="badge">Step 4</div>
      <h1>Gap training only if needed</h1>
      <p class="sub">Your qualification is issued by <strong>the partner RTO</strong>.</p>
      <div class="pill">${clock}<span>Most clients finish within <strong>4&ndash;8 weeks</strong></span></div>`,
    say: [
      'Step four: gap training, only if needed.',
      'The partner RTO then issues your qualification. Most clients finish within 4 to 8 weeks.',
    ],
  },
  {
    step: 5,
    art: art.send,
    body: `<h1 class="hero" style="font-size:84px">Get your<br>free quote</h1>
      <p class="sub">Find out which qualification your experience may count towards.</p>
      <div class="cta">Start with a free skills check ${arrow}</div>`,
    note: 'RPL Pathways is not an RTO; qualifications are issued by partner RTOs.',
    say: ['Get your free quote.', 'RPL Pathways is not an RTO. Partner RTOs assess and issue qualifications.'],
  },
];

// ---------------------------------------------------------------------------------------------
const run = (cmd, argv, opts = {}) =>
  execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26, ...opts });
const ffmpeg = (argv) => run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...argv]);
const probeDuration = (file) =>
  Number(run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString().trim());

for (const tool of ['ffmpeg', 'ffprobe', 'espeak-ng', 'cwebp']) {
  try {
    run('sh', ['-c', `command -v ${tool}`]);
  } catch {
    console.error(`Missing ${tool}. Install with: apt-get install -y ffmpeg espeak-ng webp chromium`);
    process.exit(1);
  }
}

const work = await mkdtemp(join(tmpdir(), 'rpl-explainer-'));
await mkdir(outDir, { recursive: true });
const css = await readFile(join(here, 'slides.css'), 'utf8');

function slideHtml(s) {
  const total = 4;
  const bars = Array.from({ length: total }, (_, i) => `<span class="${i < s.step ? 'on' : ''}"></span>`).join('');
  const deco = `<svg class="deco" viewBox="0 0 ${W} ${H}" aria-hidden="true">
    <circle cx="1240" cy="-40" r="220" fill="${C.lime}" fill-opacity="0.10"/>
    <circle cx="-60" cy="760" r="200" fill="${C.yellow}" fill-opacity="0.08"/>
    <rect x="0" y="${H - 10}" width="${W}" height="10" fill="${C.lime}"/>
    <rect x="${W * 0.72}" y="${H - 10}" width="${W * 0.28}" height="10" fill="${C.yellow}"/>
  </svg>`;
  return `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><style>${css}</style></head>
  <body><div class="slide">${deco}
    <div class="top"><div class="brand">${brandMark}RPL Pathways</div><div class="progress">${bars}</div></div>
    <div class="main"><div class="text">${s.body}</div><div class="art">${s.art}</div></div>
    ${s.note ? `<p class="note">${s.note}</p>` : ''}
  </div></body></html>`;
}

// 1. Render slides -----------------------------------------------------------------------------
console.log('Rendering slides with chromium…');
const browser = await chromium.launch(launchOptions);
try {
  const page = await browser.newPage({ viewport: { width: W, height: H }, deviceScaleFactor: 1 });
  // nothing may be fetched: slides are self-contained
  await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
  for (const [i, s] of slides.entries()) {
    await page.setContent(slideHtml(s), { waitUntil: 'load' });
    const overflow = await page.evaluate(() =>
      [...document.querySelectorAll('h1, .sub, li, .pill, .cta, .note, .badge')]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          const col = el.closest('.text')?.getBoundingClientRect() ?? { right: 1280 - 40 };
          return el.scrollWidth > el.clientWidth + 1 || r.right > col.right + 1 || r.bottom > 720 - 20;
        })
        .map((el) => el.textContent.trim()),
    );
    if (overflow.length) throw new Error(`Slide ${i + 1} has clipped text: ${overflow.join(' | ')}`);
    s.png = join(work, `slide${i + 1}.png`);
    await page.screenshot({ path: s.png, type: 'png' });
  }
} finally {
  await browser.close();
}

// 2. Narration ---------------------------------------------------------------------------------
console.log(`Narrating with espeak-ng (${VOICE}, ${SPEED} wpm)…`);
function readWav(buf) {
  // minimal RIFF/WAVE reader for 16-bit PCM mono
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file');
  let p = 12;
  let fmt;
  while (p + 8 <= buf.length) {
    const id = buf.toString('ascii', p, p + 4);
    let size = buf.readUInt32LE(p + 4);
    if (id === 'fmt ')
      fmt = { channels: buf.readUInt16LE(p + 10), rate: buf.readUInt32LE(p + 12), bits: buf.readUInt16LE(p + 22) };
    if (id === 'data') {
      size = Math.min(size, buf.length - p - 8);
      if (fmt?.bits !== 16 || fmt.channels !== 1) throw new Error('expected 16-bit mono PCM');
      const pcm = new Int16Array(size >> 1);
      for (let i = 0; i < pcm.length; i++) pcm[i] = buf.readInt16LE(p + 8 + i * 2);
      return { rate: fmt.rate, pcm };
    }
    p += 8 + size + (size & 1);
  }
  throw new Error('WAV without data chunk');
}
function writeWav(file, rate, pcm) {
  const buf = Buffer.alloc(44 + pcm.length * 2);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + pcm.length * 2, 4);
  buf.write('WAVEfmt ', 8, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(pcm.length * 2, 40);
  for (let i = 0; i < pcm.length; i++) buf.writeInt16LE(pcm[i], 44 + i * 2);
  return writeFile(file, buf);
}

let rate;
const cues = [];
for (const [i, s] of slides.entries()) {
  s.clips = [];
  for (const [j, text] of s.say.entries()) {
    const raw = join(work, `say${i + 1}-${j + 1}.raw.wav`);
    const wav = join(work, `say${i + 1}-${j + 1}.wav`);
    run('espeak-ng', ['-v', VOICE, '-s', String(SPEED), '-w', raw, text]);
    // trim espeak's leading/trailing silence so each caption cue spans exactly the spoken words
    const { rate: r, pcm } = readWav(await readFile(raw));
    rate ??= r;
    if (r !== rate) throw new Error('espeak-ng sample rate changed between clips');
    const thr = 0.01 * 32768;
    let a = 0;
    let b = pcm.length - 1;
    while (a < b && Math.abs(pcm[a]) < thr) a++;
    while (b > a && Math.abs(pcm[b]) < thr) b--;
    const margin = Math.round(0.03 * rate);
    await writeWav(wav, rate, pcm.slice(Math.max(0, a - margin), Math.min(pcm.length, b + margin + 1)));
    s.clips.push({ text, wav, duration: probeDuration(wav) }); // measured with ffprobe
  }
}

// 3. Timeline ----------------------------------------------------------------------------------
// Slide i occupies [start, start + slot): LEAD, cue, GAP, cue, TAIL. Times are kept in whole samples.
const toS = (x) => Math.round(x * rate);
let cursor = 0; // samples
for (const [i, s] of slides.entries()) {
  s.start = cursor;
  let t = cursor + toS(LEAD);
  for (const [j, c] of s.clips.entries()) {
    if (j) t += toS(GAP);
    c.start = t;
    c.samples = toS(c.duration);
    t += c.samples;
    cues.push({ id: `s${i + 1}-${j + 1}`, start: c.start / rate, end: t / rate, text: c.text });
  }
  t += toS(TAIL) + (i === slides.length - 1 ? toS(END_HOLD) : 0);
  s.slot = t - cursor;
  cursor = t;
}
const totalSamples = cursor;
const total = totalSamples / rate;

// mix the narration into one track, peak-normalised to -1 dBFS
const mix = new Int16Array(totalSamples);
let peak = 1;
for (const s of slides)
  for (const c of s.clips) {
    const { pcm } = readWav(await readFile(c.wav));
    mix.set(pcm.subarray(0, Math.min(pcm.length, totalSamples - c.start)), c.start);
    for (const v of pcm) peak = Math.max(peak, Math.abs(v));
  }
const gain = (32767 * 10 ** (-1 / 20)) / peak;
for (let i = 0; i < mix.length; i++) mix[i] = Math.max(-32768, Math.min(32767, Math.round(mix[i] * gain)));
const narration = join(work, 'narration.wav');
await writeWav(narration, rate, mix);

// 4. Captions ----------------------------------------------------------------------------------
const ts = (sec) => {
  const ms = Math.round(sec * 1000);
  const h = Math.floor(ms / 3600000);
  const m = Math.floor((ms % 3600000) / 60000);
  const s = Math.floor((ms % 60000) / 1000);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
};
const vtt = ['WEBVTT', '', ...cues.flatMap((c) => [c.id, `${ts(c.start)} --> ${ts(c.end)}`, c.text, ''])].join('\n');
await writeFile(join(outDir, 'how-rpl-works.en.vtt'), vtt);

// 5. Video -------------------------------------------------------------------------------------
// Each slide is a still looped for its slot plus the cross-fade; fades are centred on the slot boundaries,
// which fall inside the TAIL+LEAD silence, so pictures and narration stay in step.
const inputs = [];
const chains = [];
for (const [i, s] of slides.entries()) {
  const len = s.slot / rate + (i === slides.length - 1 ? FADE / 2 : FADE);
  inputs.push('-loop', '1', '-framerate', String(FPS), '-t', len.toFixed(3), '-i', s.png);
  chains.push(`[${i}:v]format=yuv420p,setsar=1,fps=${FPS}[v${i}]`);
}
let last = 'v0';
for (let i = 1; i < slides.length; i++) {
  const offset = slides[i].start / rate - FADE / 2;
  const out = i === slides.length - 1 ? 'vout' : `x${i}`;
  chains.push(`[${last}][v${i}]xfade=transition=fade:duration=${FADE}:offset=${offset.toFixed(3)}[${out}]`);
  last = out;
}
const graph = chains.join(';');
const audioIdx = slides.length;
const common = [
  ...inputs,
  '-i',
  narration,
  '-filter_complex',
  graph,
  '-map',
  '[vout]',
  '-map',
  `${audioIdx}:a`,
  '-t',
  total.toFixed(3),
];
// Both files: 4:2:0 colour, a key frame every 10 s, mono sound, the title.
const frames = ['-pix_fmt', 'yuv420p', '-g', String(FPS * 10), '-r', String(FPS)];
const monoAt = (rate) => ['-ac', '1', '-ar', String(rate), '-metadata', 'title=How RPL works'];

console.log('Encoding MP4 (H.264 + AAC)…');
const mp4 = join(outDir, 'how-rpl-works.mp4');
ffmpeg([
  ...common,
  '-c:v',
  'libx264',
  '-profile:v',
  'main',
  '-level',
  '3.1',
  '-preset',
  'veryslow',
  '-tune',
  'stillimage',
  '-crf',
  '30',
  ...frames,
  '-c:a',
  'aac',
  '-b:a',
  '64k',
  '-movflags',
  '+faststart',
  ...monoAt(44100),
  '-metadata:s:a:0',
  'language=eng',
  mp4,
]);

const webm = join(outDir, 'how-rpl-works.webm');
if (WEBM) {
  console.log('Encoding WebM (VP9 + Opus)…');
  ffmpeg([
    ...common,
    '-c:v',
    'libvpx-vp9',
    '-crf',
    '40',
    '-b:v',
    '0',
    '-deadline',
    'good',
    '-cpu-used',
    '2',
    '-row-mt',
    '1',
    ...frames,
    '-c:a',
    'libopus',
    '-b:a',
    '40k',
    ...monoAt(48000),
    webm,
  ]);
}

// 6. Posters (title slide) ---------------------------------------------------------------------
console.log('Writing posters…');
async function toWebp(src, dest, extra = []) {
  for (const q of [82, 75, 68, 60, 50, 40]) {
    run('cwebp', ['-quiet', '-m', '6', '-q', String(q), ...extra, src, '-o', dest]);
    if ((await stat(dest)).size <= POSTER_MAX_BYTES) return q;
  }
  throw new Error(`${dest} is still over ${POSTER_MAX_BYTES} bytes`);
}
const poster = join(outDir, 'how-rpl-works-poster.webp');
const poster640 = join(outDir, 'how-rpl-works-poster-640.webp');
await toWebp(slides[0].png, poster);
await toWebp(slides[0].png, poster640, ['-resize', '640', '360']);

// 7. Report ------------------------------------------------------------------------------------
for (const f of [mp4, ...(WEBM ? [webm] : []), join(outDir, 'how-rpl-works.en.vtt'), poster, poster640]) {
  const { size } = await stat(f);
  const d = f.endsWith('.mp4') || f.endsWith('.webm') ? ` ${probeDuration(f).toFixed(2)} s` : '';
  console.log(`${f.slice(root.length + 1)}  ${(size / 1024).toFixed(1)} KB${d}`);
}
console.log(`Narration ${total.toFixed(2)} s, ${cues.length} caption cues.`);
if (KEEP) console.log(`Working files kept in ${work}`);
else await rm(work, { recursive: true, force: true });
