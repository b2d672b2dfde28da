#!/usr/bin/env node
// Seeds the sample blog posts of content/blog-seed/ into the local site, once: only while it has no post and
// never had samples. A row of `sample_content` stays behind, so samples that were deleted are not brought back
// (a deleted post leaves nothing else behind to tell that posts once existed).
// Run by `npm start` (scripts/serve.mjs); by hand: node scripts/seed-blog.ts
import { readdirSync, readFileSync } from 'node:fs';
import * as v from 'valibot';
import { openLocalData } from './lib/local-data.ts';
import { db, sql } from '../src/platform/database.ts';
import { createBlog } from '../src/server/blogs.ts';
import { storeImage } from '../src/server/uploads.ts';
import { BlogInputSchema } from '../src/schemas/blog.ts';

const SEED_DIR = new URL('../content/blog-seed/', import.meta.url);
const MARKER = 'blog-samples';

interface Seed {
  meta: Record<string, string>;
  body: string;
}

/** A small front-matter reader: `key: value` lines between --- fences; lists are comma-separated. */
export function parseSeed(text: string): Seed {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text.replace(/\r\n/g, '\n'));
  if (!match) throw new Error('A seed post must start with --- front matter ---');
  const meta: Record<string, string> = {};
  for (const line of match[1].split('\n')) {
    const at = line.indexOf(':');
    if (at < 1) continue;
    meta[line.slice(0, at).trim()] = line
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { meta, body: `${match[2].trim()}\n` };
}

/** A cover picture: the brand gradient with a large line icon from the site's icon set. */
async function cover(iconName: string): Promise<Uint8Array> {
  const { __iconData } = (await import(`lucide-react/dist/esm/icons/${iconName}.mjs`)) as {
    __iconData: { node: [string, Record<string, string>][] };
  };
  const shapes = __iconData.node
    .map(
      ([tag, attrs]) =>
        `<${tag} ${Object.entries(attrs)
          .filter(([k]) => k !== 'key')
          .map(([k, val]) => `${k}="${val}"`)
          .join(' ')}/>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900">
    <defs>
      <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#014a44"/><stop offset="1" stop-color="#01675f"/></linearGradient>
      <radialGradient id="r" cx="0.85" cy="0.15" r="0.6"><stop offset="0" stop-color="#8cc63f" stop-opacity="0.55"/><stop offset="1" stop-color="#8cc63f" stop-opacity="0"/></radialGradient>
    </defs>
    <rect width="1600" height="900" fill="url(#g)"/><rect width="1600" height="900" fill="url(#r)"/>
    <circle cx="1320" cy="760" r="220" fill="#ffc20e" fill-opacity="0.18"/>
    <circle cx="220" cy="160" r="120" fill="#8cc63f" fill-opacity="0.16"/>
    <g transform="translate(560 210) scale(20)" fill="none" stroke="#ffffff" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${shapes}</g>
  </svg>`;
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Marks the samples as seeded (or as not wanted, when the site already had posts of its own). */
const mark = (items: number) =>
  db().query(sql`INSERT INTO sample_content (name, seeded_at, items) VALUES (${MARKER}, ${new Date().toISOString()}, ${items})
                 ON CONFLICT (name) DO NOTHING`);

export async function seedBlog(log: (line: string) => void = console.log): Promise<number> {
  const [state] = await db().query<{ seeded: boolean; posts: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM sample_content WHERE name = ${MARKER}) AS seeded,
               EXISTS (SELECT 1 FROM blog_posts) AS posts`,
  );
  if (state?.seeded) return 0;
  if (state?.posts) {
    await mark(0);
    return 0;
  }
  const files = readdirSync(SEED_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort();
  let created = 0;
  for (const file of files) {
    const { meta, body } = parseSeed(readFileSync(new URL(file, SEED_DIR), 'utf8'));
    const image = meta.icon ? await storeImage(await cover(meta.icon), 'seed') : null;
    const input = v.parse(BlogInputSchema, {
      title: meta.title,
      excerpt: meta.excerpt,
      content: body,
      contentType: 'markdown',
      author: meta.author,
      category: meta.category,
      tags: (meta.tags ?? '').split(','),
      seoKeywords: (meta.seoKeywords ?? '').split(','),
      metaTitle: meta.metaTitle,
      metaDescription: meta.metaDescription,
      featuredImage: image?.imageUrl ?? '',
      featuredImageAlt: image ? meta.imageAlt : '',
      isPublished: true,
    });
    const at = new Date(Date.now() - Number(meta.daysAgo ?? 0) * 86_400_000);
    const blog = await createBlog(input, 'seed', at);
    log(`  seeded blog post /blog/${blog.slug}`);
    created++;
  }
  await mark(created);
  return created;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = await openLocalData({});
  try {
    const created = await seedBlog();
    console.log(created ? `Seeded ${created} sample blog posts.` : 'Blog posts already present: nothing seeded.');
  } finally {
    await target.close();
  }
}
