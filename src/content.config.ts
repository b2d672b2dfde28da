import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/**
 * Page copy lives in content/*.json. These schemas reject a malformed file at build time,
 * naming the file and the field, so a bad edit never reaches the live site.
 */
const text = z.string().trim().min(1);
const paragraphs = z.array(text).min(1);
const heading = z.object({ heading: text, text });

const one = (file: string) => glob({ pattern: file, base: './content' });

const about = defineCollection({
  loader: one('about.json'),
  schema: z.object({
    title: text,
    banner: heading,
    story: z.object({ heading: text, paragraphs }),
    industries: z.object({ heading: text, paragraphs }),
    stats: z
      .array(
        // Each figure is counted from the catalogue (`counted`) or is a claim staff own in site settings (`claim`):
        // never a number written here.
        z
          .object({
            counted: z.enum(['courses', 'categories']).optional(),
            claim: z.enum(['successRate', 'satisfaction']).optional(),
            suffix: z.string(),
            label: text,
            decimals: z.number().int().min(0).max(2).optional(),
          })
          .strict()
          .refine((stat) => Boolean(stat.counted) !== Boolean(stat.claim), 'A statistic is counted or a claim'),
      )
      .length(4),
    vision: heading,
    mission: heading,
    journey: z.object({ heading: text, intro: text, steps: z.array(z.object({ title: text, text })).length(6) }),
    values: z.object({ heading: text, items: z.array(z.object({ title: text, text, icon: text })).length(3) }),
    video: heading,
    completionNote: text.refine((value) => value.includes('4-8 weeks'), 'The completion note must state 4-8 weeks'),
  }),
});

const howRplWorks = defineCollection({
  loader: one('how-rpl-works.json'),
  schema: z.object({
    title: text,
    hero: heading,
    intro: z.object({ heading: text, paragraphs }),
    benefits: z.object({ heading: text, items: z.array(z.object({ title: text, text, icon: text })).length(6) }),
    steps: z.object({ heading: text, items: z.array(z.object({ title: text, text })).length(6) }),
    cta: z.object({ heading: z.literal('Take The FREE 60 Second Skills Check Now!!'), text, button: text }),
    industries: heading,
    video: heading,
    evidence: z.object({ heading: text, items: z.array(text).min(1) }),
  }),
});

const faq = defineCollection({
  loader: one('faq.json'),
  schema: z.object({
    title: text,
    intro: text,
    items: z.array(z.object({ question: text, answer: paragraphs })).length(20, 'The FAQ has exactly 20 questions'),
  }),
});

const legalSection = z.object({
  title: text,
  paragraphs: z.array(text).default([]),
  bullets: z.array(text).optional(),
});

const legal = defineCollection({
  loader: glob({ pattern: '{privacy-policy,terms-conditions}.json', base: './content' }),
  schema: z.object({
    title: text,
    effectiveDate: text.optional(),
    lastUpdated: text,
    /** SHA-256 (16 hex) of the text without the date: a unit test fails when the text changes but this does not. */
    contentHash: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .optional(),
    intro: paragraphs.optional(),
    sections: z.array(legalSection).min(1),
  }),
});

// The catalogue (categories, courses and their details) is read and checked by src/catalogue/, which also
// lays the staff edits over it; pages get it through src/build/collections.ts.

const home = defineCollection({
  loader: one('home.json'),
  schema: z.object({
    hero: z.object({ eyebrow: text, heading: text, text, searchLabel: text, imageAlt: text }),
    // Each of the four summary steps names the detailed steps (1-6, How RPL Works and About) it covers.
    process: z.object({
      eyebrow: text,
      heading: text,
      steps: z.array(z.object({ title: text, text, covers: z.array(z.number().int().min(1).max(6)).min(1) })).length(4),
      button: text,
    }),
    partner: z.object({ eyebrow: text, heading: text, paragraphs, points: z.array(text) }),
    video: z.object({ eyebrow: text, heading: text, text }),
    why: z.object({
      eyebrow: text,
      heading: text,
      items: z.array(z.object({ title: text, text, icon: text })).length(6),
    }),
    industries: z.object({ eyebrow: text, heading: text, text }),
    consultation: z.object({ heading: text, text }),
  }),
});

const contact = defineCollection({
  loader: one('contact.json'),
  schema: z.object({
    title: text,
    hero: z.object({ heading: text, text, imageAlt: text }),
    consultation: z.object({ eyebrow: text, heading: text, text }),
    getInTouch: heading,
    map: z.object({
      heading: text,
      text,
      latitude: z.number().min(-44).max(-10),
      longitude: z.number().min(112).max(154),
      zoomBox: z.number().positive().max(0.1),
    }),
  }),
});

const freeQuote = defineCollection({
  loader: one('free-quote.json'),
  schema: z.object({
    title: text,
    hero: heading,
    aside: z.object({ heading: text, steps: z.array(text).min(1), note: text }),
  }),
});

export const collections = { about, howRplWorks, faq, legal, home, contact, freeQuote };
