// Grows the catalogue of a COPY of the project (never the real content/) to a given number of courses,
// for measuring build time at scale. Only about 150 real national qualifications are published; every added course
// is plainly synthetic: code ZZZnnnnn, a title that says "benchmark only", a source that says so, and details
// copied from a real course of the same category. Usage: node scripts/bench/scale-catalogue.mjs <dir> [5000]
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PROJECT } from './workspace.mjs';

const LEVELS = ['Certificate II', 'Certificate III', 'Certificate IV', 'Diploma', 'Advanced Diploma'];

export async function scaleCatalogue(dir, total = 5000) {
  if (resolve(dir) === resolve(PROJECT))
    throw new Error('scale-catalogue only works on a copy of the project, never on the real content/');
  const content = join(dir, 'content');
  const courses = JSON.parse(await readFile(join(content, 'courses.json'), 'utf8'));
  const files = (await readdir(join(content, 'course-details'))).filter((f) => f.endsWith('.json'));
  const details = new Map();
  for (const file of files)
    details.set(file.replace(/\.json$/, ''), JSON.parse(await readFile(join(content, 'course-details', file), 'utf8')));
  const categories = [...details.keys()].filter((slug) => details.get(slug).length > 0).sort();

  for (let n = 1; courses.length < total; n++) {
    const category = categories[n % categories.length];
    const model = details.get(category)[n % details.get(category).length];
    const code = `ZZZ${String(n).padStart(5, '0')}`;
    const level = LEVELS[n % LEVELS.length];
    courses.push({
      code,
      title: `${level} in Synthetic Qualification ${n} (benchmark only)`,
      level,
      category,
      featured: false,
      status: 'current',
      checkedOn: '2000-01-01',
      source: 'synthetic benchmark course, not a real qualification',
    });
    details.get(category).push({ ...model, code, featured: false });
  }
  await writeFile(join(content, 'courses.json'), JSON.stringify(courses));
  for (const [category, list] of details)
    await writeFile(join(content, 'course-details', `${category}.json`), JSON.stringify(list));
  return courses.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, total] = process.argv.slice(2);
  if (!dir) throw new Error('Usage: node scripts/bench/scale-catalogue.mjs <copy of the project> [5000]');
  console.log(`${await scaleCatalogue(dir, Number(total ?? 5000))} courses in ${dir}/content`);
}
