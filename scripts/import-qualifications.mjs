#!/usr/bin/env node
// Rebuilds content/courses.json (the catalogue facts: code, title, AQF level, category) from the
// shared qualification list, keeping the featured flags chosen in content/course-details/.
// Usage: node scripts/import-qualifications.mjs [path/to/qualifications.json]
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

const source = process.argv[2] ?? new URL('../../shared/data/qualifications.json', import.meta.url).pathname;
const facts = JSON.parse(readFileSync(source, 'utf8'));
const detailsDir = new URL('../content/course-details/', import.meta.url);
const featured = new Set(
  readdirSync(detailsDir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => JSON.parse(readFileSync(new URL(f, detailsDir), 'utf8')))
    .filter((d) => d.featured)
    .map((d) => d.code),
);
const courses = facts.map(({ code, title, level, category, verified }) => ({
  code, title, level, category, featured: featured.has(code), verified: verified !== false,
}));
writeFileSync(new URL('../content/courses.json', import.meta.url), `${JSON.stringify(courses, null, 2)}\n`);
console.log(`content/courses.json: ${courses.length} courses, ${featured.size} featured`);
